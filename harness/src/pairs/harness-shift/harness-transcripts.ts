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
import type { Results as ResultsDoc } from '../../formats/results-format.js';
import { Results } from '../../formats/results-format.js';
import type { TranscriptVerdict } from '../../formats/transcript-format.js';
import { harnessLoad } from './harness-load.js';
import { compareTranscripts } from './transcript-compare.js';
import { compareNumbers, type NumbersComparison } from './transcript-numbers.js';
import { type Recording, recordHarness } from './transcript-record.js';

const KEPT_DIFFERENCES = 50;

function resultsOf(r: Recording): ResultsDoc | undefined {
  if (r.results === undefined) return undefined;
  try {
    const parsed = Results.safeParse(JSON.parse(r.results));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The numbers of two recordings, or why they could not be compared (as one move). */
function numbersOf(base: Recording, head: Recording): NumbersComparison {
  const [a, b] = [resultsOf(base), resultsOf(head)];
  if (a && b) return compareNumbers(a, b);
  const missing = [a ? '' : 'base', b ? '' : 'head'].filter(Boolean).join(' and ');
  return {
    same: false,
    compared: 0,
    notReplayed: 0,
    moves: [{ what: `no readable results.json from the ${missing}'s recorded bench`, benchmarks: 0 }],
  };
}

/** The verdict of two recordings already made. */
function verdictOf(bench: readonly string[], base: Recording, head: Recording, seconds: number): TranscriptVerdict {
  const runs = compareTranscripts(base.transcript.runs, head.transcript.runs);
  const numbers = numbersOf(base, head);
  const inPoints = runs.differences.every((d) => d.kind !== 'harness')
    ? [...new Set(runs.differences.flatMap((d) => d.points))].sort()
    : undefined;
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
      ...(inPoints && inPoints.length <= 5000 && inPoints.every((p) => p.length <= 300) ? { inPoints } : {}),
    },
    numbers: {
      same: numbers.same,
      compared: numbers.compared,
      notReplayed: numbers.notReplayed,
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

export interface BothRecordings {
  base: Recording;
  head: Recording;
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
): Promise<BothRecordings> {
  const started = performance.now();
  const [b, h] = [realpathSync(sides.base), realpathSync(sides.head)];
  // Each recorded harness may read the other checkout (nothing stops a harness from reading the
  // machine) but not change it; each one's logs are hidden from both (recordHarness).
  const pair = mkdtempSync(join(tmpdir(), 'jsio-transcripts-'));
  const [logs, baseWork, headWork] = ['logs', 'base', 'head'].map((n) => join(pair, n)) as [string, string, string];
  for (const d of [logs, baseWork, headWork]) mkdirSync(d);
  try {
    // Neither recorded harness sees the other's folder (its results are the other's numbers) or the logs.
    const [base, head] = await Promise.all([
      storedBase ??
        recordHarness(b, bench, timeoutMs, { logs, work: baseWork, hidden: [headWork], readOnly: [h], player }),
      recordHarness(h, bench, timeoutMs, { logs, work: headWork, hidden: [baseWork], readOnly: [b], player }),
    ]);
    const seconds = (performance.now() - started) / 1000;
    const verdict = verdictOf(bench, base, head, Math.round(seconds * 10) / 10);
    return { base, head, verdict: storedBase ? { ...verdict, baseStored: true } : verdict };
  } finally {
    rmSync(pair, { recursive: true, force: true });
  }
}
