/**
 * The paired calibration's figures from its diffs (calibration/calibrate-machine.ts runs them): per point,
 * how often the A/A diffs called it and what a bootstrap replay of its A/A pairs says (false
 * positives of the rule, MDE, power, threshold); the planted slowdown's detection rate; the
 * noise.json of the machine; and calibration.md.
 */

import { NOISE_SCHEMA, type NoiseFile } from '../formats/noise-format.js';
import type { PairsComparison, PairsPoint } from '../formats/pairs-format.js';
import { formatValue } from '../lib/format.js';
import { markdownTable } from '../lib/markdown.js';
import { WALL_TIME } from '../pairs/decide/point.js';
import type { PairRecord } from '../pairs/decide/rows.js';
import { DEFAULT_PLAN } from '../pairs/decide/sequential.js';
import { calibratePoint, type PointCalibration, type Rate, rateOf } from './aa-replay.js';

/** One diff as calibration reads it: its comparison, its pair record, and its wall time. */
export interface CalibrationDiff {
  comparison: PairsComparison;
  record: PairRecord[];
  minutes: number;
}

interface PointFigures {
  benchmark: string;
  metric: string;
  /** A/A diffs that called this point changed, of the diffs that measured it. */
  aaCalled: number;
  aaTrials: number;
  meanPairs: number;
  calibration?: PointCalibration;
}

export interface PlantedFigures {
  benchmark: string;
  ns: number;
  factor: number;
  slower: Rate;
  diffMinutes: number[];
  ratios: number[];
}

export interface PairsCalibration {
  machine: string;
  commit: string;
  repeats: number;
  busy: boolean;
  load: { start: number; end: number };
  /** Minutes of wall time per A/A diff (whole runner: set-up, builds, pairs). */
  diffMinutes: number[];
  falsePositives: Rate;
  points: PointFigures[];
  planted?: PlantedFigures;
}

const judgedChanged = (p: PairsPoint) => p.lead.verdict === 'slower' || p.lead.verdict === 'faster';
const minutes = (ds: readonly CalibrationDiff[]) => ds.map((r) => Number(r.minutes.toFixed(2)));

/** Per point: its A/A verdicts of a change, and a replay of its A/A pairs (log-ratios, head/base) once it has 10 or more. */
function pointFigures(aa: readonly CalibrationDiff[]): PointFigures[] {
  const all = aa.flatMap((r) => r.comparison.points);
  return [...new Set(all.map((p) => p.benchmark))].map((id) => {
    const mine = all.filter((p) => p.benchmark === id);
    const d = aa.flatMap((r) =>
      (r.record.find((x) => x.benchmark === id)?.pairs ?? [])
        .filter((p) => p.base > 0 && p.head > 0)
        .map((p) => Math.log(p.head / p.base)),
    );
    const meanPairs = mine.reduce((s, p) => s + p.pairs, 0) / mine.length;
    const pairsGot = Math.max(DEFAULT_PLAN.looks[0]!, Math.round(meanPairs));
    return {
      benchmark: id,
      metric: mine[0]!.lead.metric,
      aaCalled: mine.filter(judgedChanged).length,
      aaTrials: mine.length,
      meanPairs,
      ...(d.length >= 10 ? { calibration: calibratePoint(d, { pairsGot, trials: 400, seed: 7 }) } : {}),
    };
  });
}

/** The figures of the A/A diffs (the planted ones and the final load are added by the caller). */
export function aaFigures(
  aa: readonly CalibrationDiff[],
  c: { commit: string; repeats: number; busy: boolean; loadStart: number },
): PairsCalibration {
  const all = aa.flatMap((r) => r.comparison.points);
  return {
    machine: aa[0]?.comparison.head.machine ?? 'unknown',
    commit: c.commit,
    repeats: c.repeats,
    busy: c.busy,
    load: { start: c.loadStart, end: 0 },
    diffMinutes: minutes(aa),
    falsePositives: rateOf(all.filter(judgedChanged).length, all.length),
    points: pointFigures(aa),
  };
}

/** The point a planted wc C slowdown targets: the largest block size's (64 KiB in the PR profile), and its read cost. */
export function plantTarget(aa: readonly CalibrationDiff[]): PairsPoint | undefined {
  const wcC = aa
    .flatMap((r) => r.comparison.points)
    .filter((p) => p.experiment === 'wc' && p.variant === 'c' && p.lead.metric !== WALL_TIME.metric);
  return wcC.sort((x, y) => y.lead.baseMedian - x.lead.baseMedian)[0];
}

/** How often the planted diffs called the target slower, and by how much. */
export function plantedFigures(
  runs: readonly CalibrationDiff[],
  target: PairsPoint | undefined,
  ns: number,
): PlantedFigures {
  const readNs = target?.lead.baseMedian;
  const ps = runs.flatMap((r) => r.comparison.points).filter((p) => p.benchmark === target?.benchmark);
  return {
    benchmark: target?.benchmark ?? 'wc/c',
    ns: Math.round(ns),
    factor: readNs ? 1 + ns / readNs : Number.NaN,
    slower: rateOf(ps.filter((p) => p.lead.verdict === 'slower').length, ps.length),
    diffMinutes: minutes(runs),
    ratios: ps.map((p) => Number(p.lead.ratio.toFixed(4))),
  };
}

/** The machine's noise.json: each point's calibrated threshold for its lead metric. */
export function noiseFileOf(c: PairsCalibration, created = new Date().toISOString()): NoiseFile {
  return {
    schema: NOISE_SCHEMA,
    machine: c.machine,
    created,
    method: 'paired',
    repeats: c.repeats,
    thresholds: Object.fromEntries(
      c.points
        .filter((p) => p.calibration && Number.isFinite(p.calibration.threshold))
        .map((p) => [`${p.benchmark} ${p.metric}`, p.calibration!.threshold]),
    ),
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const rate = (r: Rate) => `${pct(r.rate)} (${r.trials} trials; 95% ${pct(r.interval[0])}–${pct(r.interval[1])})`;
const orNa = (c: PointCalibration | undefined, f: (c: PointCalibration) => number) =>
  c ? (Number.isFinite(f(c)) ? pct(f(c)) : '∞') : 'n/a';

export function renderCalibration(c: PairsCalibration): string {
  const rows = c.points.map((p) => [
    p.benchmark,
    p.metric,
    `${p.aaCalled}/${p.aaTrials}`,
    p.meanPairs.toFixed(1),
    p.calibration ? pct(p.calibration.scale) : 'n/a',
    p.calibration ? pct(p.calibration.falsePositives.rate) : 'n/a',
    orNa(p.calibration, (k) => k.mde),
    p.calibration ? pct(p.calibration.power.rate) : 'n/a',
    orNa(p.calibration, (k) => k.threshold),
  ]);
  const lines = [
    `## Paired-diff calibration on \`${c.machine}\``,
    '',
    `Commit ${c.commit.slice(0, 12)}; ${c.repeats} A/A diffs (two worktrees of that commit)${c.busy ? ', with a CPU-bound process running throughout' : ''}; load average ${c.load.start} at the start, ${c.load.end} at the end.`,
    '',
    `- **A/A false-positive rate**, points called slower or faster: ${rate(c.falsePositives)}.`,
    `- Wall time of one diff: ${c.diffMinutes.map((m) => `${m.toFixed(1)} min`).join(', ')}.`,
    ...(c.planted
      ? [
          `- **Planted slowdown** of ${c.planted.benchmark} (${formatValue(c.planted.ns, 'ns')} of busy-waiting per read, ≈ ×${c.planted.factor.toFixed(3)} per-read cost): called slower in ${rate(c.planted.slower)}; measured ratios ${c.planted.ratios.join(', ')}.`,
        ]
      : []),
    '',
    markdownTable(
      [
        'benchmark',
        'metric',
        'A/A called',
        'mean pairs',
        'noise per pair',
        'FPR (replay)',
        'MDE (80% power)',
        'power at +5%',
        'threshold',
      ],
      rows,
      ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
    '_noise per pair: robust scale of the log-ratios; FPR (replay), power and threshold: block-bootstrap replays of the A/A pairs through the sequential rule (calibration/aa-replay.ts); MDE: at the mean pairs the point got._',
  ];
  return `${lines.join('\n')}\n`;
}
