/**
 * A harness change decided exactly: both checkouts' harnesses recorded running the same bench
 * (transcript-record.ts, both at once: recording is not timing, so they may share the cores), then
 * compared twice — the programs each started (transcript-compare.ts) and the numbers each made
 * from the same raw hyperfine output (transcript-numbers.ts). Equal on both counts, the two
 * harnesses measure the same, and no time needs to be spent showing it.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TranscriptVerdict } from '../../formats/transcript-format.js';
import { harnessLoad } from './harness-load.js';
import { parsedResults, RECORDING_LOGS, REDUCE_MIN_MS, type Reduction, reduceBy, reduceFolders } from './reduction.js';
import { compareTranscripts } from './transcript-compare.js';
import { compareNumbers, type NumbersComparison } from './transcript-numbers.js';
import { type Recording, recordHarness } from './transcript-record.js';
import { replayable } from './transcript-replay.js';
import { type TrendResult, trendMoves } from './trend-moves.js';

const KEPT_DIFFERENCES = 50;

/** The numbers of two recordings, or why they could not be compared (as one move). */
function numbersOf(
  base: Recording,
  head: Recording,
  reduction: Reduction | undefined,
  ranDifferently: (id: string) => boolean,
): NumbersComparison {
  // A point whose runs differ (one more warm-up, another command) was handed other raw output by
  // the player in each recording: its replayed numbers differ whatever the analyses do. Only the
  // reduction (the same raw samples on both sides) compares how such a point's numbers are made.
  const whole = parsedResults(base.results);
  const [a, b] = [whole, parsedResults(head.results)].map(
    (r) => r && { ...r, benchmarks: r.benchmarks.filter((x) => !ranDifferently(x.id)) },
  );
  if (!whole || !a || !b) {
    const missing = [a ? '' : 'base', b ? '' : 'head'].filter(Boolean).join(' and ');
    return {
      same: false,
      compared: 0,
      notReplayed: 0,
      moves: [{ what: `no readable results.json from the ${missing}'s recorded bench`, benchmarks: 0 }],
    };
  }
  const replayed = compareNumbers(a, b);
  // A base whose harness keeps no raw samples: only the replayed numbers can be compared.
  if (!reduction) return replayed;
  const r = reduction.exit === 0 ? parsedResults(reduction.results) : undefined;
  if (!r) {
    const how = `exited ${reduction.exit ?? 'on a signal'}${reduction.said ? `: ${reduction.said.split('\n').pop()}` : ''}`;
    const what = `the head's harness could not make numbers from the base's raw samples (bench --reduce ${how}), so ${replayed.notReplayed} self-timed benchmarks' numbers were not compared`;
    return {
      ...replayed,
      same: false,
      unreduced: true,
      moves: [...replayed.moves, { what, benchmarks: replayed.notReplayed }],
    };
  }
  // Every number both analyses made from the same raw samples, and what only the replayed run shows
  // (the head's own parsing of hyperfine's output).
  const reduced = compareNumbers(whole, r, true);
  const seen = new Set(reduced.moves.map((m) => m.what));
  const moves = [...reduced.moves, ...replayed.moves.filter((m) => !seen.has(m.what))];
  return {
    same: moves.length === 0,
    compared: replayed.compared + reduced.compared,
    notReplayed: 0,
    reduced: whole.benchmarks.length,
    moves,
  };
}

/**
 * The points some difference in their own processes is in, and no difference of another kind, nor
 * one of their build (`experiment/variant/`: the pairs would time one build on both sides).
 */
function programOnly(runs: ReturnType<typeof compareTranscripts>): string[] {
  const other = new Set(runs.differences.filter((d) => d.kind !== 'program').flatMap((d) => d.points));
  const own = [...new Set(runs.differences.filter((d) => d.kind === 'program').flatMap((d) => d.points))];
  const builds = own.filter((p) => p.endsWith('/'));
  return own.filter((p) => !other.has(p) && !builds.some((b) => p !== b && p.startsWith(b))).sort();
}

/** The verdict of two recordings already made. */
function verdictOf(
  bench: readonly string[],
  recorded: { base: Recording; head: Recording; reduction: Reduction | undefined },
  seconds: number,
): TranscriptVerdict {
  const { base, head } = recorded;
  const runs = compareTranscripts(base.transcript.runs, head.transcript.runs);
  const differing = runs.differences.flatMap((d) => d.points);
  // A build's difference names `experiment/variant/`: every point of that variant.
  const ranDifferently = (id: string) => differing.some((p) => p === id || (p.endsWith('/') && id.startsWith(p)));
  const numbers = numbersOf(base, head, recorded.reduction, ranDifferently);
  const inPoints = runs.differences.every((d) => d.kind !== 'harness')
    ? [...new Set(runs.differences.flatMap((d) => d.points))].sort()
    : undefined;
  const replay = inPoints ? replayable(base.transcript.runs, head.transcript.runs, programOnly(runs)).replay : [];
  return {
    bench: [...bench],
    runs: {
      same: runs.same,
      alike: runs.alike,
      differences: runs.differences
        .slice(0, KEPT_DIFFERENCES)
        .map((d) => ({ what: d.what.slice(0, 600), runs: d.runs, kind: d.kind, points: d.points.length })),
      more: Math.max(0, runs.differences.length - KEPT_DIFFERENCES),
      // Past the schema's cap, the points are not listed: every point is timed.
      ...(inPoints && inPoints.length <= 5000 && inPoints.every((p) => p.length <= 300)
        ? { inPoints, ...(replay.length ? { replay } : {}) }
        : {}),
    },
    numbers: {
      same: numbers.same,
      compared: numbers.compared,
      notReplayed: numbers.notReplayed,
      ...(numbers.reduced !== undefined ? { reduced: numbers.reduced } : {}),
      ...(numbers.unreduced ? { unreduced: true as const } : {}),
      moves: numbers.moves.slice(0, KEPT_DIFFERENCES).map((m) => ({
        what: m.what.slice(0, 600),
        benchmarks: m.benchmarks,
        ...(m.range ? { range: [m.range[0], m.range[1]] as [number, number] } : {}),
      })),
    },
    harnessLoad: harnessLoad(base.harnessCpu, head.harnessCpu),
    exits: { base: base.exit, head: head.exit },
    seconds,
  };
}

/**
 * A run that waits for a signal (`go`) before it starts, and can be called off before it does:
 * `cancel` makes a run not yet started never start, and waits for one that has.
 */
function stagedReduction() {
  let go!: () => void;
  let off = false;
  const signal = new Promise<void>((resolve) => {
    go = resolve;
  });
  return {
    go,
    after: <T>(run: () => Promise<T>): Promise<T | undefined> => signal.then(() => (off ? undefined : run())),
    cancel: async (started: Promise<unknown> | undefined): Promise<void> => {
      off = true;
      go();
      await started?.catch(() => undefined);
    },
  };
}

export interface BothRecordings {
  base: Recording;
  head: Recording;
  /** The head's analysis of the base's raw samples (absent when the base kept none). */
  reduction?: Reduction;
  /** Both analyses of main's timed run of the base, when it was kept and the numbers differ. */
  trend?: TrendResult;
  verdict: TranscriptVerdict;
}

/**
 * Records `bench BENCH` of both checkouts at once and compares what they ran and computed;
 * `player` is the recorder's checkout when repeated sandboxes are played back (transcript-record.ts).
 * With `storedBase` (the base's recording that main made on its push: stored-recording.ts), only
 * the head is recorded, and compared with it.
 */
export async function recordBoth(
  sides: { base: string; head: string },
  bench: readonly string[],
  timeoutMs: number,
  player?: string,
  storedBase?: Recording,
  progress?: (side: 'base' | 'head', line: string) => void,
): Promise<BothRecordings> {
  const started = performance.now();
  const [b, h] = [realpathSync(sides.base), realpathSync(sides.head)];
  // Each recorded harness may read the other checkout (nothing stops a harness from reading the
  // machine) but not change it; each one's logs are hidden from both (recordHarness).
  const pair = mkdtempSync(join(tmpdir(), 'jsio-transcripts-'));
  const [logs, baseWork, headWork] = [RECORDING_LOGS, 'base', 'head'].map((n) => join(pair, n)) as [
    string,
    string,
    string,
  ];
  for (const d of [logs, baseWork, headWork]) mkdirSync(d);
  const reducing = reduceFolders(pair, 'reduce');
  for (const d of reducing) mkdirSync(d);
  // With the base's recording stored, the head's analysis of its raw samples need not wait for the
  // head's recording: it starts once the head's harness is bundled (two runs of one checkout must
  // not bundle it at once), beside the recording, whose harness CPU is its own process's time.
  const early = storedBase?.raw !== undefined ? stagedReduction() : undefined;
  try {
    // Neither recorded harness sees the other's folder (its results are the other's numbers) or the logs.
    const told = (side: 'base' | 'head') => (progress ? { progress: (l: string) => progress(side, l) } : {});
    const headFence = { logs, work: headWork, hidden: [baseWork, ...reducing], readOnly: [b], player, ...told('head') };
    const both = Promise.all([
      storedBase ??
        recordHarness(b, bench, timeoutMs, {
          logs,
          work: baseWork,
          hidden: [headWork],
          readOnly: [h],
          player,
          ...told('base'),
        }),
      recordHarness(h, bench, timeoutMs, early ? { ...headFence, bundled: early.go } : headFence),
    ]);
    const reduceWith = (raw: string, ms: number) =>
      reduceBy(h, { name: 'reduce', other: b, bench, raw, pair, player, hidden: ['base', 'head'] }, ms);
    const reducedEarly = early?.after(() => reduceWith(storedBase!.raw!, timeoutMs));
    const [base, head] = await both.catch(async (e: unknown) => {
      await early?.cancel(reducedEarly);
      throw e;
    });
    const left = Math.max(REDUCE_MIN_MS, timeoutMs - (performance.now() - started));
    const reduction = reducedEarly ? await reducedEarly : base.raw ? await reduceWith(base.raw, left) : undefined;
    const exact = verdictOf(bench, { base, head, reduction }, 0);
    // Which values move is exact; how far, on main's real runs of the base when it kept them.
    const measured = storedBase?.measured;
    const trend =
      measured && !exact.numbers.same && !exact.numbers.unreduced
        ? await trendMoves(
            { base: b, head: h },
            measured,
            { pair, player },
            Math.max(REDUCE_MIN_MS, timeoutMs - (performance.now() - started)),
          )
        : undefined;
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    const numbers = trend?.trend ? { ...exact.numbers, trend: trend.trend } : exact.numbers;
    const verdict = { ...exact, numbers, seconds };
    return {
      base,
      head,
      ...(reduction ? { reduction } : {}),
      ...(trend ? { trend } : {}),
      verdict: storedBase ? { ...verdict, baseStored: true } : verdict,
    };
  } finally {
    rmSync(pair, { recursive: true, force: true });
  }
}
