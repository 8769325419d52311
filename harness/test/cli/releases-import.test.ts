/** releases import at the command line: one machine per import, a bad artifact refused in one line (exit 2). */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RELEASES_SCHEMA } from '../../src/formats/parts/store-layout.js';
import { publishRelease, writeReleaseChanges } from '../../src/releases/release-files.js';
import { runCli } from '../helpers/cli.js';
import { removeScratch } from '../helpers/scratch.js';
import { releaseEntry } from '../releases/helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'jsio-release-import-cli-'));
afterAll(() => removeScratch(tmp));
const A = 'bench-a-0a1b2c3d';

async function artifact(name: string, machines: string[]): Promise<string> {
  const dir = join(tmp, name);
  for (const m of machines) {
    await publishRelease(dir, m, releaseEntry('22.1.0', 100), new Map());
    await writeReleaseChanges(dir, m, { schema: RELEASES_SCHEMA, machine: m, changes: [], candidates: [] });
  }
  return dir;
}

const errorLines = (stderr: string) => stderr.split('\n').filter((l) => l.trim() && !/npm (warn|WARN)/.test(l));

describe('releases import', () => {
  it('needs --machine', async () => {
    const r = runCli(['releases', 'import', '--from', await artifact('no-machine', [A]), '--store', join(tmp, 's0')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('needs --machine');
  });

  it('--sole-machine takes the one machine an artifact holds, and refuses one with two', async () => {
    const one = runCli([
      'releases',
      'import',
      '--from',
      await artifact('sole', [A]),
      '--sole-machine',
      '--store',
      join(tmp, 's4'),
    ]);
    expect([one.status, one.stdout]).toEqual([0, expect.stringContaining(`1 release(s) of ${A} added`)]);
    const two = runCli([
      'releases',
      'import',
      '--from',
      await artifact('sole-two', [A, 'bench-b-4e5f6a7b']),
      '--sole-machine',
      '--store',
      join(tmp, 's5'),
    ]);
    expect(two.status).toBe(2);
    expect(two.stderr).toMatch(
      /needs releases of exactly one machine; it holds 2 \(bench-a-0a1b2c3d, bench-b-4e5f6a7b\)/,
    );
  });

  it('refuses an artifact entry with a bad version in one line, exit 2', async () => {
    const art = await artifact('bad', [A]);
    const file = join(art, 'releases', A, 'index.json');
    const raw = JSON.parse(readFileSync(file, 'utf8'));
    raw.releases[0].version = '22.1.0<script>';
    writeFileSync(file, JSON.stringify(raw));
    const r = runCli(['releases', 'import', '--from', art, '--machine', A, '--store', join(tmp, 's1')]);
    expect(r.status).toBe(2);
    expect(errorLines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toMatch(/releases\.0\.version: not a release version/);
  });

  it("refuses an artifact that holds another machine's releases too", async () => {
    const art = await artifact('two', [A, 'bench-b-4e5f6a7b']);
    const r = runCli(['releases', 'import', '--from', art, '--machine', A, '--store', join(tmp, 's2')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/holds releases of bench-b-4e5f6a7b besides bench-a-0a1b2c3d/);
  });

  it('takes a store with a bad entry (--from-store), skipping it with one line', async () => {
    const src = await artifact('pages', [A]);
    const file = join(src, 'releases', A, 'index.json');
    const raw = JSON.parse(readFileSync(file, 'utf8'));
    raw.releases.push({ ...raw.releases[0], version: 'bad' });
    writeFileSync(file, JSON.stringify(raw));
    const r = runCli(['releases', 'import', '--from', src, '--machine', A, '--from-store', '--store', join(tmp, 's3')]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('1 release(s) of bench-a-0a1b2c3d added');
    expect(errorLines(r.stderr)).toEqual([
      expect.stringMatching(/skipping releases\.1: version: not a release version/),
    ]);
  });
});
