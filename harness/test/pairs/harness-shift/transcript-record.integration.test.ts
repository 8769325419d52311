// `npm run transcript`: what a checkout's harness runs, recorded with real strace from outside the
// harness, inside real bubblewrap; the same checkout recorded twice runs the same programs the same
// way, and a harness change to how a command is wired is named exactly (no timing involved).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PairsComparison } from '../../../src/formats/pairs-format.js';
import {
  measuresTheSame,
  needsNoTiming,
  pointsToTime,
  readVerdictFile,
} from '../../../src/formats/transcript-format.js';
import { cacheRoot } from '../../../src/machine/cache-root.js';
import { readRecordingFile, storeRecording } from '../../../src/store/recording-store.js';
import { runCli } from '../../helpers/cli.js';
import { removeScratch } from '../../helpers/scratch.js';
import { borrowNodeModules, cloneWorkingTree, plantedClone } from '../../helpers/working-tree.js';

let dir: string;
let base: string;
let head: string;
let centre: string;
let warmups: string;
let busy: string;
let handed: string;
let items: string;
let timedCommands: string;
let pointEnv: string;
const BENCH = ['--', '--profile', 'smoke', '--experiments', 'wc', '--variants', 'c'];
/** BENCH with these wc variants at one block size. */
const atOneSize = (variants: string) => [...BENCH.slice(0, -1), variants, '--param', 'bs=65536'];

function record(side: string, name: string, more: string[] = [], env: NodeJS.ProcessEnv = {}): string {
  const out = join(dir, `${name}.json`);
  const r = runCli(['transcript', '--side', side, '--out', out, ...more, ...BENCH], env);
  expect(r.status, r.stderr).toBe(0);
  return out;
}

/**
 * What differs between two jobs of one machine (main's push, a pull request's diff): the run's
 * ids, the runner's folders, HOME. The harness's cache stays where it is (a cold one only refills it).
 */
const job = (n: number): NodeJS.ProcessEnv => ({
  GITHUB_RUN_ID: String(n),
  RUNNER_TEMP: join(dir, `runner-${n}`),
  HOME: join(dir, `home-${n}`),
  JSIO_CACHE: cacheRoot(),
  PATH: `${join(dir, `runner-${n}`, 'bin')}:${process.env.PATH}`,
});
const compare = (a: string, b: string, ...flags: string[]) =>
  runCli(['transcript', '--base', a, '--head', b, ...flags]);

/** A clone of the base at `into` with one text of `file` replaced (which must be there), committed. */
function planted(into: string, file: string, from: string, to: string): void {
  plantedClone(base, into, file, from, to);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'jsio-transcript-test-'));
  base = join(dir, 'base');
  head = join(dir, 'head');
  for (const d of ['runner-1', 'home-1', 'runner-2', 'home-2']) mkdirSync(join(dir, d));
  cloneWorkingTree(base);
  borrowNodeModules(base);
  // A harness change that survives minification: every command the harness runs in bash is stricter.
  planted(
    head,
    'harness/src/run/common.ts',
    '`set -o pipefail; ${command}`',
    '`set -o pipefail -o nounset; ${command}`',
  );
  // A change to how numbers are made, not to what runs: the reported centre of a timed metric.
  centre = join(dir, 'centre');
  planted(centre, 'harness/src/run/normalize.ts', 'value: stats.median,', 'value: stats.mean,');
  // A change to how hyperfine drives the runs, not to what it runs: one more warm-up per point.
  warmups = join(dir, 'warmups');
  const slots = 'interleavedSlots(sizes.length, s.runs, s.warmup)';
  planted(warmups, 'harness/src/run/hyperfine-runner.ts', slots, slots.replace('s.warmup)', 's.warmup + 1)'));
  // A change to a self-timed point's numbers only: its per-item percentiles leave out the first item.
  items = join(dir, 'items');
  const all = 'const all = percentiles(each.flat());';
  planted(items, 'harness/src/run/normalize.ts', all, 'const all = percentiles(each.flat().slice(1));');
  // A change to the commands hyperfine times, and to nothing else of what runs.
  timedCommands = join(dir, 'timed-commands');
  planted(
    timedCommands,
    'harness/src/run/hyperfine-runner.ts',
    '`set -o pipefail; ${commandLine(sizes[i]!)}`',
    '`set -o pipefail -o nounset; ${commandLine(sizes[i]!)}`',
  );
  // A variable set in the sandboxes of the points without a build (Node's), and nowhere else.
  pointEnv = join(dir, 'point-env');
  planted(
    pointEnv,
    'harness/src/plan/jobs.ts',
    '  if (!sandbox || !build) return sandbox;\n',
    "  if (!sandbox) return sandbox;\n  if (!build) return Object.freeze({ ...sandbox, env: Object.freeze({ ...sandbox.env, MALLOC_ARENA_MAX: '2' }) });\n",
  );
  // One more descriptor handed to every process the harness starts (its sandboxes included).
  handed = join(dir, 'handed');
  const wiring = "stdio: ['ignore', 'pipe', 'pipe'],";
  planted(handed, 'harness/src/lib/exec.ts', wiring, "stdio: ['ignore', 'pipe', 'pipe', 'pipe'],");
  // Work of the harness's own between jobs, changing nothing that runs: a busy loop before each job,
  // of 2.5 s of CPU, not of wall time (a loaded machine must not shorten the work planted).
  busy = join(dir, 'busy-loop');
  const start = 'export async function measureJob(job: Job, tools: Tools): Promise<RawSamples> {';
  planted(
    busy,
    'harness/src/run/measure.ts',
    start,
    `${start}\n  for (const t = process.cpuUsage().user; process.cpuUsage().user - t < 2_500_000; );`,
  );
}, 300_000);
afterAll(() => removeScratch(dir));

describe('npm run transcript', () => {
  let first: string;

  let kept: string;

  it('records every program the harness starts, with where and how, in place-independent terms', () => {
    kept = join(dir, 'base-1.recording.json');
    // As main's push does: the whole recording is kept too, for the trend store.
    first = record(base, 'base-1', ['--recording', kept], job(1));
    const t = JSON.parse(readFileSync(first, 'utf8'));
    expect(t.kind).toBe('transcript');
    const programs = t.runs.filter((r: { argv: string[] }) => r.argv.some((a) => a.includes('/jsio/build/wc/c/c')));
    expect(programs.length).toBeGreaterThan(0);
    // Inside the sandbox at its fixed path; outside it, the checkout is named, never spelled.
    expect(JSON.stringify(t.runs)).not.toContain(base);
    expect(t.runs.some((r: { cwd: string }) => r.cwd.startsWith('/jsio/side'))).toBe(true);
    // The harness's own strace and Valgrind passes are recorded at their start, not run under strace.
    expect(t.runs.some((r: { exe: string }) => r.exe === '/usr/bin/strace')).toBe(true);
  });

  it("the same checkout in another job, the base's recording taken from the store: only the head is recorded, and it measures the same", () => {
    const store = join(dir, 'store');
    mkdirSync(store);
    storeRecording(store, readRecordingFile(kept));
    const twin = join(dir, 'twin-stored');
    execFileSync('git', ['clone', '-q', base, twin]);
    borrowNodeModules(twin);
    const out = join(dir, 'pair-stored');
    const r = runCli(
      ['transcript', '--base-side', base, '--head-side', twin, '--dir', out, '--store', store, ...BENCH],
      job(2),
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain("the base's recording from the trend store");
    // Where the recorded bench is, from its own progress lines (the first of each side at once).
    expect(r.stderr).toMatch(/^recording \(head\): \[1\/\d+\] wc › c › /m);
    const file = readVerdictFile(join(out, 'transcripts.json'));
    expect(file.base.stored).toBe(true);
    expect(file.verdict.baseStored).toBe(true);
    expect(r.stdout).toMatch(/the head recorded in \d+ s \(the base's recording is main's, from the trend store\)/);
    expect(file.verdict.runs.differences, JSON.stringify(file.verdict.runs.differences)).toEqual([]);
    expect(measuresTheSame(file.verdict)).toBe(true);
    // The stored recording keeps the base's raw samples: the head's analysis is handed them.
    expect(file.verdict.numbers.reduced).toBeGreaterThan(0);
    expect(compare(first, join(out, 'head.transcript.json')).stdout).toMatch(
      /^runs the same programs the same way: \d+ starts alike/,
    );
    // Recorded with other bench arguments, the stored one cannot stand for the base: both are recorded.
    const other = runCli(
      [
        'transcript',
        '--base-side',
        base,
        '--head-side',
        twin,
        '--dir',
        join(dir, 'pair-other'),
        '--store',
        store,
        '--timeout',
        '1',
        '--',
        '--profile',
        'smoke',
        '--experiments',
        'nothing-such',
      ],
      job(2),
    );
    expect(other.stderr).toContain('the stored recording of the base is not used (it was recorded with bench');
  });

  it("the head's reduction, run beside its recording: it cannot see the recordings' strace logs", () => {
    const store = join(dir, 'store-peek');
    mkdirSync(store);
    storeRecording(store, readRecordingFile(kept));
    // A head whose `bench --reduce` fails when the pair's folder shows it any recording's log
    // (<pair>/reduce/raw-samples.json is what it reduces; <pair>/logs holds the recordings' logs).
    const peek = join(dir, 'peek');
    planted(
      peek,
      'harness/src/cli/commands/bench.ts',
      'const { commit, benchmarks } = readRawSamples(resolve(file));',
      "if ((process as any).getBuiltinModule('node:fs').readdirSync(resolve(file, '..', '..', 'logs')).length) throw new Error('saw the logs');\n  const { commit, benchmarks } = readRawSamples(resolve(file));",
    );
    const out = join(dir, 'pair-peek');
    const r = runCli(
      ['transcript', '--base-side', base, '--head-side', peek, '--dir', out, '--store', store, ...BENCH],
      job(2),
    );
    expect(r.status, r.stderr).toBe(0);
    const v = readVerdictFile(join(out, 'transcripts.json')).verdict;
    expect(v.numbers.unreduced, JSON.stringify(v.numbers.moves)).toBeUndefined();
    expect(v.numbers.reduced).toBeGreaterThan(0);
  });

  it("main's timed run kept with the base's recording (--measured): a reported centre's moves are sized on those real runs, by both analyses", () => {
    // The base's timed run, as main's push makes it before recording: real hyperfine runs.
    const timed = join(dir, 'timed');
    const t = spawnSync(
      process.execPath,
      [
        join(base, 'harness', 'bootstrap.mjs'),
        'bench',
        ...BENCH.slice(1),
        '--no-store',
        '--counts',
        'none',
        '--out',
        timed,
      ],
      { cwd: base, encoding: 'utf8', env: { ...process.env, ...job(1) } },
    );
    expect(t.status, t.stderr).toBe(0);
    const rec = join(dir, 'measured.recording.json');
    // A timed run of another commit is refused, naming it, before anything is recorded.
    const wrong = runCli(['transcript', '--side', centre, '--recording', rec, '--measured', timed, ...BENCH], job(1));
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(/--measured .*timed: its results\.json is a run of [0-9a-f]{12}, not of the recorded/);
    expect(existsSync(rec)).toBe(false);
    record(base, 'base-measured', ['--recording', rec, '--measured', timed], job(1));
    const store = join(dir, 'store-measured');
    mkdirSync(store);
    storeRecording(store, readRecordingFile(rec));
    const out = join(dir, 'pair-measured');
    const r = runCli(
      ['transcript', '--base-side', base, '--head-side', centre, '--dir', out, '--store', store, ...BENCH],
      job(2),
    );
    expect(r.status, r.stderr).toBe(0);
    const trend = readVerdictFile(join(out, 'transcripts.json')).verdict.numbers.trend;
    expect(trend?.profile).toBe('smoke');
    // The head reports the mean where the base reported the median: on the real runs, by exactly
    // mean / median − 1 of each benchmark the base measured.
    const results = JSON.parse(readFileSync(join(timed, 'results.json'), 'utf8')) as {
      benchmarks: { metrics?: Record<string, { stats?: { mean: number; median: number } }> }[];
    };
    const shifts = results.benchmarks
      .map((b) => b.metrics?.wall_time?.stats)
      .filter((x) => x !== undefined && x.mean !== x.median)
      .map((x) => x!.mean / x!.median - 1);
    const moved = trend?.moves.find((m) => m.what === 'wall_time: reported value');
    expect(moved?.benchmarks).toBe(shifts.length);
    expect(moved?.range?.[0]).toBeCloseTo(Math.min(...shifts), 9);
    expect(moved?.range?.[1]).toBeCloseTo(Math.max(...shifts), 9);
    expect(r.stdout).toContain(
      "How far on real runs — both analyses of main's timed run of the base (its smoke profile",
    );
  });

  it('a harness change to how commands are wired: named, with how many starts it touches', () => {
    const r = compare(first, record(head, 'head'), '--json');
    expect(r.status, r.stderr).toBe(0);
    const c = JSON.parse(r.stdout);
    expect(c.same).toBe(false);
    const bash = c.differences.find((d: { what: string }) => d.what.startsWith('bash: '));
    expect(bash.what).toContain('→ `set -o pipefail -o nounset;');
    expect(bash.runs).toBeGreaterThan(0);
  });

  const both = (other: string, name: string, bench = BENCH) => {
    const out = join(dir, name);
    const r = runCli(['transcript', '--base-side', base, '--head-side', other, '--dir', out, ...bench]);
    expect(r.status, r.stderr).toBe(0);
    return { stdout: r.stdout, file: readVerdictFile(join(out, 'transcripts.json')), out };
  };

  it('both sides at once, the same harness: runs the same commands and computes the same numbers', () => {
    const twin = join(dir, 'twin');
    execFileSync('git', ['clone', '-q', base, twin]);
    borrowNodeModules(twin);
    const r = both(twin, 'pair-same');
    expect(r.stdout).toContain('**runs the same commands and computes the same numbers: measures the same, exact**');
    expect(measuresTheSame(r.file.verdict)).toBe(true);
    // The same harness on both sides: its own CPU time sampled on each, inside the bound.
    expect(r.file.verdict.harnessLoad?.within, JSON.stringify(r.file.verdict.harnessLoad)).toBe(true);
    expect(r.file.verdict.numbers.compared).toBeGreaterThan(0);
    for (const f of ['base.transcript.json', 'head.transcript.json', 'base.results.json', 'head.results.json'])
      expect(existsSync(join(r.out, f))).toBe(true);
  });

  it('another reported centre: runs the same, and the moved values are listed without timing anything', () => {
    const v = both(centre, 'pair-centre').file.verdict;
    expect(v.runs.same, JSON.stringify(v.runs.differences)).toBe(true);
    expect(v.numbers.same).toBe(false);
    const moved = v.numbers.moves.find((m) => m.what === 'wall_time: reported value');
    expect(moved?.benchmarks).toBeGreaterThan(0);
  });

  it("a change to a self-timed point's analysis only: both analyses handed the base's raw samples, the moves listed", () => {
    const selfTimed = ['--', '--profile', 'smoke', '--experiments', 'threadpool', '--variants', 'c-pool'];
    // Not built first: recorded at once on the tests' own cache, one side may build its program and
    // tools and the other find them built; a fill of the shared cache is not a difference.
    const v = both(items, 'pair-items', selfTimed).file.verdict;
    expect(v.runs.same, JSON.stringify(v.runs.differences)).toBe(true);
    // Without the raw samples these would be "not replayed", and the change would pass as measuring the same.
    expect(v.numbers.reduced).toBeGreaterThan(0);
    expect(v.numbers.notReplayed).toBe(0);
    expect(measuresTheSame(v)).toBe(false);
    expect(needsNoTiming(v)).toBe(true);
    const moved = v.numbers.moves.find((m) => /^latency_p\d+: reported value$/.test(m.what));
    expect(moved?.benchmarks, JSON.stringify(v.numbers.moves)).toBeGreaterThan(0);
  });

  it("a change to how a self-timed program's report line is read: the head reads the base's printed lines with its own parser, the moves listed", () => {
    const selfTimed = ['--', '--profile', 'smoke', '--experiments', 'threadpool', '--variants', 'c-pool'];
    const reader = join(dir, 'reader');
    planted(
      reader,
      'harness/src/run/common.ts',
      'return report.ok ? { ok: true, fields: report.fields, items } : report;',
      'return report.ok ? { ok: true, fields: { ...report.fields, batch_ms: (report.fields.batch_ms ?? 0) * 1.5 }, items } : report;',
    );
    const v = both(reader, 'pair-reader', selfTimed).file.verdict;
    expect(v.runs.same, JSON.stringify(v.runs.differences)).toBe(true);
    // Before the runs kept what the programs printed, the base's parsing stood for both: "the same".
    expect(measuresTheSame(v)).toBe(false);
    const moved = v.numbers.moves.find((m) => m.what.startsWith('batch_ms: reported value'));
    expect(moved?.range?.[0], JSON.stringify(v.numbers.moves)).toBeCloseTo(0.5, 9);
    expect(needsNoTiming(v)).toBe(true);
  });

  it("a head whose harness cannot reduce the base's raw samples: not the same, and timed (fail closed)", () => {
    const deaf = join(dir, 'deaf');
    planted(
      deaf,
      'harness/src/cli/commands/bench.ts',
      'readRawSamples(resolve(file))',
      "readRawSamples(resolve(file, 'x'))",
    );
    const v = both(deaf, 'pair-deaf').file.verdict;
    expect(v.runs.same, JSON.stringify(v.runs.differences)).toBe(true);
    expect(v.numbers.unreduced).toBe(true);
    expect(v.numbers.moves.some((m) => m.what.includes('could not make numbers'))).toBe(true);
    expect(needsNoTiming(v)).toBe(false);
  });

  it("a change to how commands are wired: runs differently, named, in the points' own processes", () => {
    const v = both(head, 'pair-wired').file.verdict;
    expect(measuresTheSame(v)).toBe(false);
    const bash = v.runs.differences.find((d) => d.what.startsWith('bash: ') && d.what.includes('-o nounset'));
    expect(bash?.kind).toBe('program');
    // Every difference is in the two points' sandboxes: only they need measuring.
    expect(pointsToTime(v)).toEqual(['wc/c/bs=4096', 'wc/c/bs=65536']);
  });

  it("a change to the commands hyperfine times: those points timed in pairs with each side's recorded commands, as a program change is", () => {
    const timedBench = atOneSize('c');
    const pair = both(timedCommands, 'pair-timed', timedBench);
    const v = pair.file.verdict;
    expect(pair.stdout).toContain(
      "**runs programs differently, in 1 point in its own timed commands or their environment only: timed in pairs with each side's recorded ones, as a program change is**",
    );
    expect(v.runs.differences.every((d) => d.kind === 'program')).toBe(true);
    const replay = v.runs.replay ?? [];
    expect(replay.map((r) => r.point)).toEqual(['wc/c/bs=65536']);
    // Both sizes of the fit, in the order hyperfine first ran them, each side's own.
    expect(replay[0]!.base).toHaveLength(2);
    for (const c of replay[0]!.base) expect(c).toMatch(/^set -o pipefail; .*\/jsio\/build\/wc\/c\/c 65536$/);
    expect(replay[0]!.head).toEqual(
      replay[0]!.base.map((c) => c.replace('set -o pipefail;', 'set -o pipefail -o nounset;')),
    );
    // Nothing left for the timed shift.
    expect(pointsToTime(v)).toEqual([]);

    // The diff, as pr.yml runs it with these recordings: the point is measured in pairs with the two
    // sides' recorded commands and counted by both harnesses; no round of whole benches is timed.
    const out = join(dir, 'pr-timed');
    const r = runCli([
      'pairs',
      '--base',
      base,
      '--head',
      timedCommands,
      '--budget',
      '0.5',
      '--seed',
      '3',
      '--control',
      '0',
      '--out',
      out,
      '--transcripts',
      join(pair.out, 'transcripts.json'),
      ...timedBench,
    ]);
    expect(r.status, r.stderr).toBe(0);
    const c = JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8')) as PairsComparison;
    const h = c.harnessShift!;
    expect(h.rounds).toBe(0);
    expect(h.experiments).toEqual([]);
    expect(h.paired).toEqual(['wc/c/bs=65536']);
    expect(h.work, r.stderr).toEqual([
      expect.objectContaining({ benchmark: 'wc/c/bs=65536', verdict: 'same', metric: 'instructions_per_op' }),
    ]);
    const point = c.points.find((p) => p.benchmark === 'wc/c/bs=65536');
    expect(point, r.stderr).toMatchObject({ impact: 'affected' });
    expect(point!.pairs).toBeGreaterThan(0);
    expect(c.untimed).toBeUndefined();
    expect(readFileSync(join(out, 'comparison.md'), 'utf8')).toContain(
      'Timed in pairs, as a program change is: wc/c/bs=65536',
    );
    expect(r.stderr).toContain("timed in pairs with each side's recorded ones: wc/c/bs=65536");
  });

  it("a variable in the sandboxes of some points: each side's environment listed, those points timed in pairs", () => {
    const envBench = atOneSize('c,node-pipe');
    const v = both(pointEnv, 'pair-env', envBench).file.verdict;
    const replay = v.runs.replay ?? [];
    // Node's points, not C's (its build's sandbox is untouched).
    expect(replay.length, JSON.stringify(v.runs.differences)).toBeGreaterThan(0);
    for (const r of replay) {
      expect(r.point).toMatch(/^wc\/node-pipe\//);
      expect(r.head).toEqual(r.base);
      expect(r.env?.head).toContainEqual(['MALLOC_ARENA_MAX', '2']);
      expect(r.env?.base.some(([k]) => k === 'MALLOC_ARENA_MAX')).toBe(false);
    }
    expect(pointsToTime(v)).toEqual([]);
  });

  it('one more warm-up: the driver of exactly the points it touches, nothing of the programs', () => {
    const v = both(warmups, 'pair-warmups').file.verdict;
    expect(v.runs.same).toBe(false);
    expect(v.runs.differences.length).toBeGreaterThan(0);
    // hyperfine's arguments, and the sandbox's that start it: all the driver's.
    for (const d of v.runs.differences) expect(d.kind, d.what).toBe('driver');
    expect(v.runs.differences.some((d) => d.what.startsWith('hyperfine: '))).toBe(true);
    expect(pointsToTime(v)).toEqual(['wc/c/bs=4096', 'wc/c/bs=65536']);
    // The player hands the two sides' other slots other made-up timings, but the analysis is the
    // same: made from the same raw samples, the numbers are equal, and none is said to move.
    expect(v.numbers.same, JSON.stringify(v.numbers.moves)).toBe(true);
    expect(v.numbers.reduced).toBeGreaterThan(0);
  });

  it("one more descriptor handed to the programs: their sandboxes' other descriptors, in the points' own processes", () => {
    const v = both(handed, 'pair-handed').file.verdict;
    expect(measuresTheSame(v)).toBe(false);
    const fds = v.runs.differences.find((d) => d.what.startsWith('bwrap: ') && d.what.includes('other descriptors'));
    expect(fds?.what, JSON.stringify(v.runs.differences)).toMatch(/other descriptors \(nothing\) → `3 (pipe|socket)`/);
    expect(fds?.kind).toBe('program');
  });

  it("a busy loop between jobs: the same runs, but the harness's own CPU time beyond the bound", () => {
    const v = both(busy, 'pair-busy').file.verdict;
    expect(v.runs.same, JSON.stringify(v.runs.differences)).toBe(true);
    expect(v.harnessLoad?.within, JSON.stringify(v.harnessLoad)).toBe(false);
    expect(v.harnessLoad!.head! - v.harnessLoad!.base!).toBeGreaterThan(4);
    expect(needsNoTiming(v)).toBe(false);
  });

  it('a recorded harness cannot change the other checkout it is recorded beside', () => {
    const intruder = join(dir, 'intruder');
    execFileSync('git', ['clone', '-q', base, intruder]);
    borrowNodeModules(intruder);
    const bootstrap = join(intruder, 'harness/bootstrap.mjs');
    const planted = join(base, 'planted-by-the-head.txt');
    // After the shebang: the intruder's harness must still run, or the test would prove nothing.
    const [shebang, ...rest] = readFileSync(bootstrap, 'utf8').split('\n');
    const plant = `import { writeFileSync as plant } from 'node:fs';\ntry { plant(${JSON.stringify(planted)}, 'x'); } catch {}`;
    writeFileSync(bootstrap, [shebang, plant, ...rest].join('\n'));
    execFileSync('git', ['-C', intruder, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qam', 'plant']);
    const v = both(intruder, 'pair-intruder').file.verdict;
    expect(v.exits.head).toBe(0);
    expect(existsSync(planted)).toBe(false);
  });

  it('refuses what it cannot do, in a line', () => {
    expect(runCli(['transcript', '--side', base]).stderr).toContain('needs --out FILE or --recording FILE');
    // A destination that cannot be written is refused before anything is recorded.
    const early = runCli(['transcript', '--side', base, '--recording', dir, ...BENCH]);
    expect(early.stderr).toContain('a directory, and a file is needed there');
    expect(early.stderr).not.toContain('under strace');
    const notOurs = runCli(['transcript', '--side', dir, '--out', join(dir, 'x.json')]);
    expect(notOurs.stderr).toContain('not a jsio-bench checkout');
    expect(existsSync(join(dir, 'x.json'))).toBe(false);
    expect(runCli(['transcript', '--base', first]).stderr).toContain('--base FILE --head FILE');
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"schema":1,"kind":"transcript"}');
    const r = compare(first, bad);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('bad.json');
    expect(runCli(['transcript', '--help']).stdout).toContain('--side DIR');
    // The pair's folder must be new or empty: nothing of anyone's is overwritten.
    const busy = join(dir, 'busy');
    mkdirSync(busy);
    writeFileSync(join(busy, 'mine.txt'), 'keep');
    const r2 = runCli(['transcript', '--base-side', base, '--head-side', head, '--dir', busy, ...BENCH]);
    expect(r2.stderr).toContain('not empty');
    expect(readFileSync(join(busy, 'mine.txt'), 'utf8')).toBe('keep');
    expect(runCli(['transcript', '--base-side', base, '--dir', busy]).stderr).toContain('needs --head-side DIR');
  });
});
