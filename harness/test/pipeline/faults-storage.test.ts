// An output directory that is read-only or full, and a store holding a corrupt, truncated or
// newer-schema file: each gives a clear message naming the path, and nothing stored is lost.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STORE_SCHEMA } from '../../src/formats/parts/store-layout.js';
import { FIXTURES, runCli } from '../helpers/cli.js';

const mounts: string[] = [];
/** A small tmpfs (root only); undefined where mounting is not allowed. */
function tmpfs(options: string): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'jsio-tmpfs-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir]);
  if (r.status !== 0) return undefined;
  mounts.push(dir);
  return dir;
}
afterAll(() => {
  for (const m of mounts) spawnSync('umount', [m]);
});
const canMount = process.getuid?.() === 0;

const bench = (out: string, store?: string) =>
  runCli([
    'bench',
    '--profile',
    'smoke',
    '--programs',
    join(FIXTURES, 'faults'),
    '--variants',
    'ok',
    '--out',
    out,
    ...(store ? ['--store', store] : ['--no-store']),
  ]);

describe.skipIf(!canMount)('unwritable output', () => {
  it('refuses a read-only output directory before measuring anything', () => {
    const ro = tmpfs('ro,size=1m')!;
    const r = bench(join(ro, 'out'));
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`--out ${ro}/out: cannot create ${ro}/out: a read-only filesystem`);
    expect(r.stderr).not.toContain('faults › ok');
  });

  it('on a full disk names the file, and the previous results survive intact', () => {
    const full = tmpfs('size=12k')!;
    writeFileSync(join(full, 'results.json'), '{"previous":true}');
    writeFileSync(join(full, 'filler'), Buffer.alloc(4096)); // leave room for the probe only
    const r = bench(full);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`cannot write ${full}/results.json: the disk is full (ENOSPC); nothing was overwritten`);
    expect(readFileSync(join(full, 'results.json'), 'utf8')).toBe('{"previous":true}');
  });
});

describe('a store that cannot be read', () => {
  const cases: [string, string, RegExp][] = [
    ['corrupt', '{ this is not json', /is not valid JSON \(truncated or corrupt\?\)/],
    ['truncated', '{"schema":1,"machines":{', /is not valid JSON \(truncated or corrupt\?\)/],
    [
      'newer-schema',
      '{"schema":99,"machines":{}}',
      new RegExp(`has schema 99, newer than this harness understands \\(${STORE_SCHEMA}\\)`),
    ],
    ['wrong-shape', `{"schema":${STORE_SCHEMA},"machines":[]}`, /machines: .*expected record/i],
  ];
  it.each(cases)(
    'refuses a %s machines.json before measuring, names it, and leaves it as it was',
    (_name, content, message) => {
      const dir = mkdtempSync(join(tmpdir(), 'jsio-store-'));
      const store = join(dir, 'store');
      mkdirSync(store);
      writeFileSync(join(store, 'machines.json'), content);
      const r = bench(join(dir, 'out'), store);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(`refusing to touch the store: ${join(store, 'machines.json')}`);
      expect(r.stderr).toMatch(message);
      expect(readFileSync(join(store, 'machines.json'), 'utf8')).toBe(content);
      // Checked before the long part: it used to measure everything, then refuse to publish.
      expect(r.stderr).not.toContain('faults › ok');
      expect(existsSync(join(dir, 'out', 'results.json'))).toBe(false);
    },
  );
});
