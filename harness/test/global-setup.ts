/**
 * Every test run gets its own TMPDIR, removed when the run ends. Tests, the harness CLIs they
 * start and the programs those run all make scratch directories (git worlds of a few GB for the
 * workflow replays); left in /tmp they filled a runner's disk within a day of test runs.
 * A run killed before its teardown leaves its directory behind: the next run removes it, since
 * the directory names the pid of the run that made it. JSIO_KEEP_TMP=1 keeps it for debugging.
 * The harness's cache (JSIO_CACHE) is a folder in it, but for the runtimes (testCache below).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processAlive } from '../src/lib/atomic.js';
import { runtimesCache } from '../src/machine/cache-root.js';
import { removeScratch } from './helpers/scratch.js';

const PREFIX = 'jsio-test-run-';

function removeAbandoned(parent: string): void {
  for (const name of readdirSync(parent)) {
    const pid = name.startsWith(PREFIX) ? Number.parseInt(name.slice(PREFIX.length), 10) : 0;
    if (pid && pid !== process.pid && !processAlive(pid)) rmSync(join(parent, name), { recursive: true, force: true });
  }
}

/**
 * The harness's cache (machine/cache-root.ts) for this run: a folder in its TMPDIR, so what the
 * tests build and generate never lands in the user's cache, nor outlives the run. Its runtimes are
 * the user's (a link to them): runtimes from the npm registry are large and keyed by package and
 * version, so sharing them across runs is safe and spares a download per run.
 */
function testCache(dir: string): string {
  const cache = join(dir, 'cache');
  const shared = runtimesCache();
  mkdirSync(shared, { recursive: true });
  mkdirSync(cache);
  symlinkSync(shared, join(cache, 'runtimes'), 'dir');
  return cache;
}

export default function setup(): () => void {
  const parent = tmpdir();
  removeAbandoned(parent);
  const dir = mkdtempSync(join(parent, `${PREFIX}${process.pid}-`));
  const previous = { TMPDIR: process.env.TMPDIR, JSIO_CACHE: process.env.JSIO_CACHE };
  process.env.JSIO_CACHE = testCache(dir);
  process.env.TMPDIR = dir;
  return () => {
    for (const [k, v] of Object.entries(previous)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    if (process.env.JSIO_KEEP_TMP === '1') console.log(`scratch of this test run kept in ${dir}`);
    removeScratch(dir);
  };
}
