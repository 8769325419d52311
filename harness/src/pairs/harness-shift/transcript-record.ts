/**
 * Records what a checkout's harness runs: its `bench` started under `strace -f` from outside (so
 * the harness cannot tell, skip or hide a start), inside a bubblewrap mount namespace that shows
 * the whole machine as it is except strace and Valgrind, which are replaced by a stub: strace
 * cannot run under strace, so the harness's own strace and Valgrind passes are recorded at their
 * execve (command line, environment, directory) and not run. Hyperfine is a player
 * (hyperfine-player.ts) and, with `Fence.player`, so is a sandbox started again unchanged
 * (sandbox-replay.ts): both are recorded at their execve as the real ones. Timings made this way
 * mean nothing and are thrown away with the recording's folder; only the transcript is kept.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { RAW_SAMPLES_FILE } from '../../formats/raw-samples-format.js';
import type { Transcript } from '../../formats/transcript-format.js';
import { UserError } from '../../lib/errors.js';
import { type ProcessResult, runProcess } from '../../lib/exec.js';
import { cacheRoot, checkoutCache } from '../../machine/cache-root.js';
import { commitInfo } from '../../machine/machine.js';
import { readStraceLog } from '../../run/strace-log.js';
import { cpuBetween, watchCpu } from './harness-cpu.js';
import { hyperfinePlayer } from './hyperfine-player.js';
import { withoutRepeatedInsides } from './repeated-sandboxes.js';
import { sandboxPlayer } from './sandbox-replay.js';
import { normalizeRun, type Place, placeNamer } from './transcript-places.js';
import { type ProcessRun, startsAndWindow } from './transcript-starts.js';

/** The calls that say what started, where, on which CPUs and with which limits. */
// statfs: the sandbox player's marks of what each sandbox's command names (transcript-starts.ts `reads`).
const TRACED = 'execve,chdir,fchdir,clone,clone3,fork,vfork,sched_setaffinity,prlimit64,setrlimit,dup2,dup3,statfs';

/** Root-owned places only: the recording must not run a tool a checkout could have put on PATH. */
const STRACE = '/usr/bin/strace';
const BWRAP = '/usr/bin/bwrap';
const STUBBED = ['/usr/bin/strace', '/usr/bin/valgrind'];
const HYPERFINE = '/usr/bin/hyperfine';

const STUB =
  '#!/bin/sh\n# jsio-bench transcript: recorded at its execve, not run (strace cannot run under strace)\nexit 1\n';

/**
 * What the recorded harness is given of the recorder's environment, and nothing else: a recording
 * is compared with one made in another job (main's push, a pull request's diff), whose run ids,
 * runner folders, account and npm variables all differ. The harness's own settings (each one it
 * reads: a test keeps this list whole), just(js)'s installation, the locale and whether it runs in
 * CI. JSIO_ROOT and JSIO_PROFILE are not given: they would name the recorder's own checkout and
 * command.
 */
export const HARNESS_SETTINGS = ['JSIO_CACHE', 'JSIO_MACHINE_ID', 'JSIO_COUNTS', 'JSIO_BWRAP', 'JSIO_TOOL_DIRS'];
const KEPT = new Set([
  'HOME',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TERM',
  'NO_COLOR',
  'FORCE_COLOR',
  'CI',
  'GITHUB_ACTIONS',
  'JUST_HOME',
  'JUST_TARGET',
  ...HARNESS_SETTINGS,
]);
const kept = (name: string) => KEPT.has(name) || /^LC_[A-Z]+$/.test(name);
/** Root-owned folders: the harness finds its tools in them (machine/tools.ts), whatever a job's PATH holds. */
const SYSTEM_PATH = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/**
 * The recorded harness's environment: the variables it reads (KEPT) and a PATH of its own — the
 * folder of the Node.js that runs it, just(js)'s, and the system's — so that two jobs whose PATHs
 * differ record alike.
 */
export function recordingEnv(
  tmp: string,
  from: NodeJS.ProcessEnv = process.env,
  node: string = process.execPath,
): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(from).filter(([k]) => kept(k)));
  const path = [...new Set([dirname(node), ...(from.JUST_HOME ? [from.JUST_HOME] : []), ...SYSTEM_PATH])];
  return { ...env, PATH: path.join(':'), TMPDIR: tmp };
}

/**
 * The folders of the recorder's job that the recorded harness is told of (its HOME, its cache,
 * just(js)'s installation): named alike in every job, as the checkout is. Pure.
 */
export function jobPlaces(env: NodeJS.ProcessEnv): Place[] {
  return [
    ...(env.HOME ? [{ path: env.HOME, name: '<home>' }] : []),
    { path: cacheRoot(env), name: '<cache>' },
    ...(env.JUST_HOME ? [{ path: env.JUST_HOME, name: '<just>' }] : []),
    ...(env.JUST_TARGET && env.JUST_TARGET !== env.JUST_HOME ? [{ path: env.JUST_TARGET, name: '<just-target>' }] : []),
  ];
}

/** What the machine's hyperfine says it is (the player answers `--version` with it). */
export async function hyperfineVersion(): Promise<string> {
  if (!existsSync(HYPERFINE)) return 'hyperfine 0.0.0';
  const r = await runProcess([HYPERFINE, '--version'], { timeoutMs: 10_000 });
  return r.stdout.trim() || 'hyperfine 0.0.0';
}

export interface Recording {
  transcript: Transcript;
  /** The recorded bench's exit status and the last lines it wrote to stderr. */
  exit: number | null;
  said: string;
  /** The recorded bench's results.json, as it wrote it (its numbers come from the player's output). */
  results?: string;
  /** The recorded bench's raw-samples.json: what another harness's analysis can be handed (`bench --reduce`). */
  raw?: string;
  /** CPU seconds of the harness's own process (harness-cpu.ts), when it could be sampled. */
  harnessCpu?: number;
  /** A stored recording's: the raw samples of its commit's timed run, at that run's profile (StoredRecording). */
  measured?: MeasuredRaw;
}

/** A timed run's raw samples and the profile it measured. */
export interface MeasuredRaw {
  profile: string;
  raw: string;
}

/**
 * What the recorded harness must not touch: folders it must not see at all (where the recordings'
 * strace logs are written) and folders it may read but not write (the other side's checkout, when
 * both are recorded at once).
 */
export interface Fence {
  /** Where the strace log goes: a folder every recorded harness sees as empty (default: one of its own). */
  logs?: string;
  /** The recording's own folder, made by the caller (default: a temporary one of its own, removed after). */
  work?: string;
  /** Folders the recorded harness sees as empty (the other recording's, when both are recorded at once). */
  hidden?: readonly string[];
  readOnly: readonly string[];
  /**
   * The recorder's own checkout, whose sandbox player (sandbox-replay.ts) plays back a sandbox
   * started again unchanged; without it every sandbox runs.
   */
  player?: string;
  /**
   * Measure nothing: the recorded bench makes its numbers from these raw samples (`bench --reduce
   * FILE --no-store`), a file inside the recording's own folder.
   */
  reduce?: string;
  /** Called once the side's harness is bundled (before the recorded run): another run of it may start. */
  bundled?: () => void;
  /** Called with each progress line the recorded bench prints (`[12/413] wc › c › bs=256 · ETA 3m`). */
  progress?: (line: string) => void;
}

/** The lines of a stream that say where a bench is (its `[N/M] …` progress), handed on as they come. */
export function progressLines(onLine: (line: string) => void): (chunk: string) => void {
  let partial = '';
  return (chunk) => {
    const lines = (partial + chunk).split(/\r?\n|\r/);
    partial = lines.pop() ?? '';
    for (const l of lines) if (/^\[\d+\/\d+\] /.test(l)) onLine(l.slice(0, 300));
  };
}

/** Records `bench BENCH_ARGS` of the checkout at `side`, in a temporary folder of its own (removed after). */
export async function recordHarness(
  side: string,
  benchArgs: readonly string[],
  timeoutMs: number,
  fence: Fence = { readOnly: [] },
): Promise<Recording> {
  const root = realpathSync(side);
  const work = fence.work ?? mkdtempSync(join(tmpdir(), 'jsio-transcript-'));
  try {
    return await recordIn(work, side, root, benchArgs, timeoutMs, fence);
  } finally {
    if (!fence.work) rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The recording starts with descriptors 0-2 only: one the recorder inherited (a runner's agent can
 * leak one) would reach every sandbox of one side's recording and not the other's, whose
 * descriptors the sandbox player shows (transcript-starts.ts `fds`).
 */
export const ONLY_STREAMS = [
  '/bin/bash',
  '-c',
  'for f in /proc/$$/fd/*; do n=${f##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done; exec "$@"',
  'only-streams',
];

/** strace from outside, on the process calls, writing `log`. */
const straceFor = (log: string) => [
  STRACE,
  '-f',
  '--seccomp-bpf',
  '--pidns-translation',
  // One -q, not two: each task's `+++ exited` line says when its id may be reused (transcript-starts.ts).
  '-q',
  // Times: the window in which the points' processes ran (the harness's own CPU is taken in it).
  '-ttt',
  '-y',
  '-v',
  '-s',
  '65535',
  '-e',
  `trace=${TRACED}`,
  '-o',
  log,
];

/**
 * Bubblewrap: the whole machine as it is, but strace and Valgrind stubbed, hyperfine
 * the player (and bwrap, with `fence.player`), the other checkout read-only, and the logs' folder an
 * empty tmpfs (strace writes its log from outside the namespace, so the recorded harness can
 * neither read nor rewrite what is said about it). Options of its own, `--` and the recorded
 * command go after what this returns; strace goes before it.
 */
async function stubbedMachine(stubs: string, logs: string, fence: Fence): Promise<string[]> {
  const stub = join(stubs, 'stub');
  writeFileSync(stub, STUB);
  chmodSync(stub, 0o755);
  const player = join(stubs, 'hyperfine');
  writeFileSync(player, hyperfinePlayer(process.execPath, await hyperfineVersion()));
  chmodSync(player, 0o755);
  return [
    BWRAP,
    '--dev-bind',
    '/',
    '/',
    ...STUBBED.flatMap((p) => ['--ro-bind', stub, p]),
    ...(existsSync(HYPERFINE) ? ['--ro-bind', player, HYPERFINE] : []),
    ...(fence.player ? await sandboxPlayer(fence.player, stubs) : []),
    ...fence.readOnly.flatMap((p) => ['--ro-bind', p, p]),
    ...[logs, ...(fence.hidden ?? [])].flatMap((p) => ['--tmpfs', p]),
  ];
}

/** The recording's own stand-ins for strace, Valgrind, hyperfine and bwrap. */
const STAND_INS = new Set([...STUBBED, HYPERFINE, BWRAP]);

/**
 * A start whose command names a stand-in reads it as `<stand-in>`, not by its bytes: they are the
 * recorder's, the same for both sides, but the hyperfine player names the Node.js that runs it,
 * whose path is each job's own.
 */
function standIns(run: ProcessRun): ProcessRun {
  if (!run.reads) return run;
  const named = (r: string) =>
    STAND_INS.has(r.slice(0, r.lastIndexOf(' '))) ? `${r.slice(0, r.lastIndexOf(' '))} <stand-in>` : r;
  return { ...run, reads: run.reads.map(named) };
}

/**
 * The recorded bench run, its harness's own CPU sampled meanwhile: its process is the one whose
 * command line names this recording's own output folder (no other process does).
 */
async function runWatched(
  argv: readonly string[],
  bootstrap: string,
  dirs: { tmp: string; out: string },
  root: string,
  o: { timeoutMs: number; progress: ((line: string) => void) | undefined },
): Promise<{ r: ProcessResult; cpu: ReturnType<ReturnType<typeof watchCpu>['stop']> }> {
  const cpu = watchCpu((a) => a[1] === bootstrap && a[2] === 'bench' && a.includes(dirs.out));
  const onStderr = o.progress ? { onStderr: progressLines(o.progress) } : {};
  try {
    const r = await runProcess(argv, { cwd: root, env: recordingEnv(dirs.tmp), timeoutMs: o.timeoutMs, ...onStderr });
    return { r, cpu: cpu.stop() };
  } finally {
    // Stopped whatever happens: a sampling timer left running would keep the recorder alive.
    cpu.stop();
  }
}

/** Every place of one recording that another recording has elsewhere, with the name both get. */
function recordingPlaces(o: {
  side: string;
  root: string;
  work: string;
  logs: string;
  dirs: { tmp: string; out: string; store: string };
  fence: Fence;
}): Place[] {
  const { side, root, work, logs, dirs, fence } = o;
  return [
    { path: root, name: '<side>' },
    // The side's builds and scratch in the harness's cache: a folder per checkout path.
    { path: checkoutCache(root, recordingEnv(dirs.tmp)), name: '<side-cache>' },
    ...fence.readOnly.map((path) => ({ path: checkoutCache(path, recordingEnv(dirs.tmp)), name: '<other-cache>' })),
    ...(side !== root ? [{ path: side, name: '<side>' }] : []),
    { path: dirs.tmp, name: '<tmp>' },
    { path: dirs.out, name: '<out>' },
    { path: dirs.store, name: '<store>' },
    { path: work, name: '<recording>' },
    { path: logs, name: '<logs>' },
    ...jobPlaces(recordingEnv(dirs.tmp)),
    // The other checkout of a pair, shown read-only: named alike on both sides.
    ...fence.readOnly.map((path) => ({ path, name: '<other>' })),
    ...(fence.hidden ?? []).map((path) => ({ path, name: '<other-recording>' })),
  ];
}

async function recordIn(
  work: string,
  side: string,
  root: string,
  benchArgs: readonly string[],
  timeoutMs: number,
  fence: Fence,
): Promise<Recording> {
  const dirs = {
    tmp: join(work, 'tmp'),
    out: join(work, 'out'),
    store: join(work, 'store'),
    stubs: join(work, 'stubs'),
  };
  for (const d of Object.values(dirs)) mkdirSync(d);
  const logs = fence.logs ?? join(work, 'log');
  if (!fence.logs) mkdirSync(logs);
  const log = join(mkdtempSync(join(logs, 'strace-')), 'strace.log');
  const fenced = await stubbedMachine(dirs.stubs, logs, fence);
  const harness = [process.execPath, join(root, 'harness', 'bootstrap.mjs')];
  const argv = [
    ...straceFor(log),
    ...fenced,
    // With the player, the recorded bench cannot change its own checkout (as it cannot the other):
    // what every sandbox sees of it is the same at each start (sandbox-replay.ts).
    ...(fence.player ? ['--ro-bind', root, root] : []),
    '--',
    ...harness,
    'bench',
    ...benchArgs,
    '--out',
    dirs.out,
    ...(fence.reduce ? ['--reduce', fence.reduce, '--no-store'] : ['--store', dirs.store]),
  ];
  // The harness bundles itself on its first command: done here, untraced, so that a side whose
  // bundle happens to be cached and one whose bundle is not start alike.
  // Fenced like the recording: the side's code runs here too.
  await runProcess([...fenced, '--', ...harness, 'bench', '--help'], {
    cwd: root,
    env: recordingEnv(dirs.tmp),
    timeoutMs,
  });
  fence.bundled?.();
  const { r, cpu } = await runWatched([...ONLY_STREAMS, ...argv], harness[1]!, dirs, root, {
    timeoutMs,
    progress: fence.progress,
  });
  let text: string;
  try {
    text = readFileSync(log, 'utf8');
  } catch {
    throw new UserError(
      `the recording of ${side} left no strace log: ${r.stderr.trim().split('\n').slice(-2).join(' | ')}`,
    );
  }
  const name = placeNamer(recordingPlaces({ side, root, work, logs, dirs, fence }));
  // The recorder's own fence is not the harness's start: it names the other side (or none, when the
  // base's recording was made alone on main's push), so it is left out, matched by its exact argv.
  const own = argv.slice(straceFor(log).length);
  const { runs: all, window } = startsAndWindow(readStraceLog(text), root, cacheRoot(recordingEnv(dirs.tmp)));
  // The harness's own CPU while the points' processes ran; the whole run's when none did.
  const harnessCpu = cpu && (window ? cpuBetween(cpu.series, window.start, window.end) : cpu.whole);
  const fenceAt = all.findIndex((run) => run.argv.length === own.length && run.argv.every((a, i) => a === own[i]));
  const starts = all.filter((_, i) => i !== fenceAt);
  const runs = withoutRepeatedInsides(
    starts,
    starts.map((run) => normalizeRun(standIns(run), name)),
  );
  return {
    transcript: {
      schema: 1,
      kind: 'transcript',
      side: { root, commit: commitInfo(root).sha },
      bench: benchArgs.map(name),
      runs,
    },
    exit: r.code,
    ...(existsSync(join(dirs.out, 'results.json'))
      ? { results: readFileSync(join(dirs.out, 'results.json'), 'utf8') }
      : {}),
    ...(existsSync(join(dirs.out, RAW_SAMPLES_FILE))
      ? { raw: readFileSync(join(dirs.out, RAW_SAMPLES_FILE), 'utf8') }
      : {}),
    said: r.stderr.trim().split('\n').slice(-3).join('\n'),
    ...(harnessCpu !== undefined ? { harnessCpu } : {}),
  };
}
