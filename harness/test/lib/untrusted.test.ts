// The one reader of untrusted files (lib/untrusted.ts): regular files only, never through a
// symlink, size-bounded before reading, JSON validated with the file and field named.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readUntrusted, readUntrustedJson } from '../../src/lib/untrusted.js';

const dir = mkdtempSync(join(tmpdir(), 'jsio-untrusted-'));
writeFileSync(join(dir, 'ok.json'), '{"n": 1}');
writeFileSync(join(dir, 'outside'), 'secret');
symlinkSync(join(dir, 'outside'), join(dir, 'link'));
mkdirSync(join(dir, 'sub'));

describe('readUntrusted', () => {
  it('reads a regular file within its bound', () => {
    expect(readUntrusted(join(dir, 'ok.json'), 100)).toBe('{"n": 1}');
  });

  it('refuses a symlink, a directory, a missing file and a file over the bound, naming it', () => {
    expect(() => readUntrusted(join(dir, 'link'), 100, 'artifact file')).toThrow(
      `artifact file ${join(dir, 'link')} is a symlink: refusing it`,
    );
    expect(() => readUntrusted(join(dir, 'sub'), 100)).toThrow(/is not a regular file: refusing it/);
    expect(() => readUntrusted(join(dir, 'nope'), 100)).toThrow(`cannot read ${join(dir, 'nope')}: it does not exist`);
    expect(() => readUntrusted(join(dir, 'ok.json'), 3)).toThrow(/is 8 bytes, over the 3-byte limit: refusing it/);
  });

  it('validates JSON against its schema, naming the field', () => {
    const schema = z.object({ n: z.string() });
    expect(() => readUntrustedJson(join(dir, 'ok.json'), schema, { maxBytes: 100 })).toThrow(
      /ok\.json is invalid:\n {2}n:/,
    );
    expect(readUntrustedJson(join(dir, 'ok.json'), z.object({ n: z.number() }), { maxBytes: 100 })).toEqual({ n: 1 });
  });
});
