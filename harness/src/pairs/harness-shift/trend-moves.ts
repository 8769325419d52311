/**
 * How far a harness change moves the values on real runs. A recording's hyperfine is a player whose
 * timings are made up, so the values two analyses make from it show *which* values move, exactly,
 * but not how far. Main keeps the raw samples of each pushed commit's timed run with its stored
 * recording; both sides' analyses are handed those (each fenced as its recording was), and where
 * their values differ is what the trend will show after the merge.
 */
import { mkdirSync } from 'node:fs';
import type { TranscriptVerdict } from '../../formats/transcript-format.js';
import { parsedResults, type ReduceJob, reduceBy, reduceFolders } from './reduction.js';
import { compareNumbers } from './transcript-numbers.js';
import type { MeasuredRaw } from './transcript-record.js';

type Trend = NonNullable<TranscriptVerdict['numbers']['trend']>;

const KEPT_MOVES = 50;
const NAMES = { base: 'trend-base', head: 'trend-head' } as const;

export interface TrendResult {
  /** Undefined when either side could not make numbers from the measured samples. */
  trend?: Trend;
  /** Why there is none, in a line. */
  why?: string;
  seconds: number;
}

/**
 * Both analyses of `measured` (the base commit's timed run), in the pair's folder `pair`, beside
 * each other: the base's and the head's harness each reduce it, neither seeing the other's folders.
 */
export async function trendMoves(
  sides: { base: string; head: string },
  measured: MeasuredRaw,
  o: { pair: string; player: string | undefined },
  timeoutMs: number,
): Promise<TrendResult> {
  const started = performance.now();
  for (const name of Object.values(NAMES)) for (const d of reduceFolders(o.pair, name)) mkdirSync(d);
  const job = (side: 'base' | 'head'): ReduceJob => {
    const other = side === 'base' ? 'head' : 'base';
    return {
      name: NAMES[side],
      other: sides[other],
      bench: ['--profile', measured.profile],
      raw: measured.raw,
      pair: o.pair,
      player: o.player,
      // The recordings' folders, the first reduction's and the other side's own.
      hidden: ['base', 'head', 'reduce', 'reduce-logs', NAMES[other], `${NAMES[other]}-logs`],
    };
  };
  const [a, b] = await Promise.all([
    reduceBy(sides.base, job('base'), timeoutMs),
    reduceBy(sides.head, job('head'), timeoutMs),
  ]);
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const [ra, rb] = [a, b].map((r) => (r.exit === 0 ? parsedResults(r.results) : undefined));
  if (!ra || !rb) {
    const who = [
      ra ? '' : `the base's (exit ${a.exit ?? 'signal'})`,
      rb ? '' : `the head's (exit ${b.exit ?? 'signal'})`,
    ];
    return { why: `${who.filter(Boolean).join(' and ')} analysis could not reduce main's timed run`, seconds };
  }
  const moves = compareNumbers(ra, rb, true).moves;
  return {
    trend: {
      profile: measured.profile,
      benchmarks: ra.benchmarks.filter((x) => x.status !== 'skipped').length,
      moves: moves.slice(0, KEPT_MOVES).map((m) => ({
        what: m.what.slice(0, 600),
        benchmarks: m.benchmarks,
        ...(m.range ? { range: [m.range[0], m.range[1]] as [number, number] } : {}),
      })),
    },
    seconds,
  };
}
