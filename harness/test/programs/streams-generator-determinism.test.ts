// The streams input generator is deterministic: the same seed gives the same bytes (and hash),
// another seed gives another file of the same shape.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

function generate(script: string, args: string[]) {
  const out = mkdtempSync(join(tmpdir(), 'jsio-gen-'));
  const r = spawnSync(process.execPath, [join(ROOT, script), '--out', out, ...args], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  const facts = JSON.parse(r.stdout.trim()) as Record<string, string | number>;
  return { facts, data: readFileSync(join(out, String(facts.file))) };
}

describe('input generators', () => {
  it('streams: same seed, same bytes; the facts describe the file', () => {
    const a = generate('programs/streams/generate.mjs', ['--lines', '2000', '--seed', '7']);
    const b = generate('programs/streams/generate.mjs', ['--lines', '2000', '--seed', '7']);
    expect(a.facts.sha256).toBe(b.facts.sha256);
    expect(a.data.equals(b.data)).toBe(true);
    expect(a.facts.sha256).toBe(createHash('sha256').update(a.data).digest('hex'));
    expect(a.facts.bytes).toBe(a.data.length);
    expect(a.data.toString('latin1').split('\n').length - 1).toBe(2000);
    const c = generate('programs/streams/generate.mjs', ['--lines', '2000', '--seed', '8']);
    expect(c.facts.sha256).not.toBe(a.facts.sha256);
  });

  it('records: same seed, same bytes; sum32 is the sum of the little-endian words', () => {
    const a = generate('programs/records/generate.mjs', ['--bytes', '65536', '--seed', '3']);
    const b = generate('programs/records/generate.mjs', ['--bytes', '65536', '--seed', '3']);
    expect(a.facts.sha256).toBe(b.facts.sha256);
    expect(a.data.length).toBe(65536);
    let sum = 0;
    for (let i = 0; i < a.data.length; i += 4) sum = (sum + a.data.readUInt32LE(i)) >>> 0;
    expect(a.facts.sum32).toBe(sum);
  });
});
