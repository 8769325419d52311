// A run entry's `file` in a machine's index.json was an unchecked string: `--remove SHA` deleted
// whatever it named (`../NOT-CREATED-BY-TOOL.txt`) and left the real run file, and a publish read
// the previous run from it (another machine's run merged into this one). A run file's path now
// comes from the commit, profile and machine; an index naming any other file is refused (a path
// out of runs/ by the index's schema, another commit's run file by the run's own path).
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishRun } from '../../src/store/publish-run.js';
import { runCli } from '../helpers/cli.js';
import { bench, results, timed } from '../helpers/results.js';

const A = 'a'.repeat(40);
const run = () => results([bench('c', { bs: 4096 }, { wall_time: timed([1, 2, 3]) })], A);

async function craftedStore(file: string): Promise<string> {
  const store = join(mkdtempSync(join(tmpdir(), 'jsio-crafted-')), 'store');
  await publishRun(store, run());
  const indexPath = join(store, 'test-machine', 'index.json');
  const index = readFileSync(indexPath, 'utf8');
  writeFileSync(indexPath, index.replace(`"file":"runs/${A}/smoke.json"`, `"file":${JSON.stringify(file)}`));
  return store;
}

describe('a run file named by a crafted index', () => {
  it('--remove refuses it in one line, deleting nothing', async () => {
    const store = await craftedStore('../NOT-CREATED-BY-TOOL.txt');
    const victim = join(store, 'NOT-CREATED-BY-TOOL.txt');
    writeFileSync(victim, 'keep');
    const before = readFileSync(join(store, 'test-machine', 'index.json'), 'utf8');
    const r = runCli(['publish-run', '--remove', A, '--store', store]);
    expect(r.status).toBe(2);
    expect(r.stderr.split('\n').slice(0, 2)).toEqual([
      `error: refusing to touch the store: ${join(store, 'test-machine', 'index.json')} is invalid:`,
      '  commits.0.runs.smoke.file: runs/<sha>/<profile>.json (got "../NOT-CREATED-BY-TOOL.txt")',
    ]);
    expect(readFileSync(victim, 'utf8')).toBe('keep');
    expect(existsSync(join(store, 'test-machine', 'runs', A, 'smoke.json'))).toBe(true);
    expect(readFileSync(join(store, 'test-machine', 'index.json'), 'utf8')).toBe(before);
  });

  it('a publish does not read the previous run from it', async () => {
    const store = await craftedStore(`../other-machine/runs/${A}/smoke.json`);
    cpSync(join(store, 'test-machine'), join(store, 'other-machine'), { recursive: true });
    await expect(publishRun(store, run())).rejects.toThrow(
      `commits.0.runs.smoke.file: runs/<sha>/<profile>.json (got "../other-machine/runs/${A}/smoke.json")`,
    );
  });

  it('nor from another commit’s run file', async () => {
    const B = 'b'.repeat(40);
    const store = await craftedStore(`runs/${B}/smoke.json`);
    await expect(publishRun(store, run())).rejects.toThrow(
      `lists "runs/${B}/smoke.json" as the smoke run of ${A}; that run's file is runs/${A}/smoke.json`,
    );
  });
});
