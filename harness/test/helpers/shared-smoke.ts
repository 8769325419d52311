/**
 * ONE real smoke run of every experiment per test run, shared by the tests that assert on such a
 * run (the README's main command, the site on real data, each experiment's smoke checks): the
 * README's `npm run bench` at smoke size (DOCS_ENV) in a fresh clone of the working
 * tree, exactly as the docs test runs it. The first test that asks makes it; the others, in later
 * files of the same run, read what it left under the run's TMPDIR (global-setup.ts). A lock makes
 * files asking at once wait for one run instead of starting a second.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Results } from '../../src/formats/results-format.js';
import { processAlive } from '../../src/lib/atomic.js';
import { borrowNodeModules, cloneWorkingTree } from './working-tree.js';

/** The README's main command, as it is written there. */
export const SHARED_SMOKE_COMMAND = 'npm run bench';
/**
 * The environment the docs test runs every documented command in: smoke size, CI-style output,
 * and no work counted under Valgrind (JSIO_COUNTS=none changes only bench's default --counts).
 * Counting is not what these commands are checked for; the files that check it count for
 * themselves, and it would take longer than everything else the run does.
 */
export const DOCS_ENV = { JSIO_PROFILE: 'smoke', JSIO_COUNTS: 'none', CI: '1' } as const;
/** A whole smoke run of every experiment from a fresh clone (runtimes installed, programs built) on a busy 2-core VM. */
export const SHARED_SMOKE_TIMEOUT_MS = 1_800_000;

export interface SharedSmokeRun {
  /** The fresh clone the command ran in; only the docs test goes on working in it. */
  clone: string;
  /** A copy of its results/latest made right after the run: results.json, summary.md, gab/. */
  out: string;
  status: number | null;
  stdout: string;
  stderr: string;
}

const home = () => join(tmpdir(), 'jsio-shared-smoke');

function makeRun(dir: string): SharedSmokeRun {
  const clone = join(dir, 'clone');
  cloneWorkingTree(clone);
  borrowNodeModules(clone);
  const r = spawnSync('bash', ['-e', '-c', SHARED_SMOKE_COMMAND], {
    cwd: clone,
    encoding: 'utf8',
    env: { ...process.env, ...DOCS_ENV },
    timeout: SHARED_SMOKE_TIMEOUT_MS,
  });
  const out = join(dir, 'out');
  const latest = join(clone, 'results', 'latest');
  if (existsSync(latest)) cpSync(latest, out, { recursive: true });
  return {
    clone,
    out,
    status: r.status,
    stdout: r.stdout ?? '',
    stderr: `${r.stderr ?? ''}${r.error ? `\n${r.error}` : ''}`,
  };
}

/** The shared run: made on the first call of a test run, read from disk on every later one. */
export async function sharedSmokeRun(): Promise<SharedSmokeRun> {
  const dir = home();
  const done = join(dir, 'run.json');
  const lock = `${dir}.lock`;
  for (;;) {
    if (existsSync(done)) return JSON.parse(readFileSync(done, 'utf8')) as SharedSmokeRun;
    try {
      mkdirSync(lock);
    } catch {
      const owner = ownerOf(lock);
      if (owner && !processAlive(owner))
        throw new Error(`the shared smoke run's maker (pid ${owner}) died: see ${dir}`);
      await sleep(1000);
      continue;
    }
    writeFileSync(join(lock, 'pid'), String(process.pid));
    mkdirSync(dir, { recursive: true });
    let run: SharedSmokeRun;
    try {
      run = makeRun(dir);
    } catch (e) {
      // Recorded as a failed run, so every test that shares it fails with the cause instead of waiting.
      run = { clone: join(dir, 'clone'), out: join(dir, 'out'), status: null, stdout: '', stderr: String(e) };
    }
    writeFileSync(`${done}.part`, JSON.stringify(run));
    renameSync(`${done}.part`, done);
    return run;
  }
}

/** The pid written into the lock by the process making the run (0 until it has written it). */
function ownerOf(lock: string): number {
  try {
    return Number.parseInt(readFileSync(join(lock, 'pid'), 'utf8'), 10) || 0;
  } catch {
    return 0;
  }
}

/** The shared run's results.json, or a clear failure naming the run's status and the end of its stderr. */
export function sharedResultsFile(run: SharedSmokeRun): string {
  const file = join(run.out, 'results.json');
  if (!existsSync(file))
    throw new Error(`the shared smoke run wrote no results (status ${run.status}):\n${run.stderr.slice(-3000)}`);
  return file;
}

/** One experiment's part of the shared run: what a run of that experiment alone holds. */
export function ofExperiment(results: Results, experiment: string): Results {
  return {
    ...results,
    experiments: Object.fromEntries(Object.entries(results.experiments).filter(([id]) => id === experiment)),
    benchmarks: results.benchmarks.filter((b) => b.experiment === experiment),
    ...(results.analyses ? { analyses: results.analyses.filter((a) => a.experiment === experiment) } : {}),
  };
}
