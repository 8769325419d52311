/**
 * `npm run calibrate`: this machine's figures for the paired PR diff, measured with the real
 * runner (docs/reading-results.md, "How far to trust a paired diff"), and the per-point noise
 * thresholds that `pairs`, `compare` and the site's change detection read (noise.json, stored
 * per machine).
 *
 * - A/A: two git worktrees of the same commit, diffed `repeats` times. Every point's verdict is
 *   a trial: "slower" or "faster" is a false positive. Each point's A/A pairs also feed the
 *   bootstrap replay of analysis/paired-calibration.ts (false-positive rate of the rule on this
 *   noise, the minimal detectable effect at the pairs the point got, its calibrated threshold).
 * - Planted: a third worktree whose wc C variant spins after every read() for ~5% of the read
 *   cost the A/A diff measured, diffed against the first `repeats` times: the share of wc C
 *   points called "slower" is the detection power.
 * - With `busy`, a CPU-bound process (`yes > /dev/null`) runs for the whole calibration.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, symlinkSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { calibratePoint, type PointCalibration, type Rate, rateOf } from '../analysis/paired-calibration.js';
import { DEFAULT_PLAN } from '../analysis/paired-sequential.js';
import { plantWcSlowdown } from '../calibrate/plant.js';
import { writeFileAtomic } from '../lib/atomic.js';
import { UserError } from '../lib/errors.js';
import { runProcess } from '../lib/exec.js';
import { formatValue } from '../lib/format.js';
import { markdownTable } from '../lib/markdown.js';
import type { PairedComparison } from '../model/comparison.js';
import { NOISE_SCHEMA, type NoiseFile } from '../model/noise.js';
import { publishNoise } from '../store/store.js';
import { type PairsOptions, type PairsOutcome, runPairs } from './pairs.js';

export interface PairedCalibrationOptions extends Omit<PairsOptions, 'base' | 'head' | 'seed'> {
  root: string;
  out: string;
  /** A store to publish noise.json into (<store>/<machine>/noise.json), as calibrate.yml does. */
  store?: string;
  repeats: number;
  /** Nanoseconds of busy-waiting per read in the planted copy; default ~5% of the measured read cost. */
  plantNs?: number;
  busy?: boolean;
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

export interface PairedCalibration {
  machine: string;
  commit: string;
  repeats: number;
  busy: boolean;
  load: { start: number; end: number };
  /** Minutes of wall time per A/A diff (whole runner: set-up, builds, pairs). */
  diffMinutes: number[];
  falsePositives: Rate;
  points: PointFigures[];
  planted?: { benchmark: string; ns: number; factor: number; slower: Rate; diffMinutes: number[]; ratios: number[] };
}

async function worktree(root: string, dir: string, log: (m: string) => void, made: string[]): Promise<string> {
  if (!existsSync(dir)) {
    made.push(dir);
    const r = await runProcess(['git', '-C', root, 'worktree', 'add', '--detach', dir, 'HEAD']);
    if (r.code !== 0) throw new UserError(`git worktree add ${dir} failed: ${r.stderr.trim()}`);
    log(`calibrate: worktree ${dir} at HEAD`);
  }
  // esbuild bundles resolve packages from the program's checkout; the worktree borrows this one's.
  if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

const load = () => Number(loadavg()[0]!.toFixed(2));

export async function calibratePairs(
  opts: PairedCalibrationOptions,
): Promise<{ result: PairedCalibration; markdown: string }> {
  const log = opts.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const root = resolve(opts.root);
  const head = await runProcess(['git', '-C', root, 'rev-parse', 'HEAD']);
  if (head.code !== 0) throw new UserError(`${root} is not a git checkout: calibration needs worktrees of one commit`);
  // Worktrees this calibration adds are removed at the end (git keeps a record of each).
  const made: string[] = [];
  const a = await worktree(root, join(opts.out, 'aa-base'), log, made);
  const b = await worktree(root, join(opts.out, 'aa-head'), log, made);
  let busy: ChildProcess | undefined;
  if (opts.busy) {
    busy = spawn('bash', ['-c', 'exec yes > /dev/null'], { stdio: 'ignore' });
    log(`calibrate: a CPU-bound load runs for the whole calibration (pid ${busy.pid})`);
  }
  const loadStart = load();
  try {
    const diff = async (
      base: string,
      headDir: string,
      seed: number,
      filters = opts.filters,
    ): Promise<PairsOutcome & { minutes: number }> => {
      const t = performance.now();
      const r = await runPairs({ ...opts, filters, base, head: headDir, seed });
      return { ...r, minutes: (performance.now() - t) / 60_000 };
    };
    const aa: (PairsOutcome & { minutes: number })[] = [];
    for (let i = 0; i < opts.repeats; i++) {
      log(`calibrate: A/A diff ${i + 1}/${opts.repeats}`);
      aa.push(await diff(a, b, 1000 + i));
    }
    const called = (p: PairedComparison['points'][number]) =>
      p.lead.verdict === 'slower' || p.lead.verdict === 'faster';
    const all = aa.flatMap((r) => r.comparison.points);
    const ids = [...new Set(all.map((p) => p.benchmark))];
    const points: PointFigures[] = ids.map((id) => {
      const mine = all.filter((p) => p.benchmark === id);
      // The pairs of every A/A diff, in run order, one record per point (log-ratios, head/base).
      const d = aa.flatMap((r) =>
        (r.record.find((x) => x.benchmark === id)?.pairs ?? [])
          .filter((p) => p.base > 0 && p.head > 0)
          .map((p) => Math.log(p.head / p.base)),
      );
      const meanPairs = mine.reduce((s, p) => s + p.pairs, 0) / mine.length;
      return {
        benchmark: id,
        metric: mine[0]!.lead.metric,
        aaCalled: mine.filter(called).length,
        aaTrials: mine.length,
        meanPairs,
        ...(d.length >= 10
          ? {
              calibration: calibratePoint(d, {
                pairsGot: Math.max(DEFAULT_PLAN.looks[0]!, Math.round(meanPairs)),
                trials: 400,
                seed: 7,
              }),
            }
          : {}),
      };
    });
    const result: PairedCalibration = {
      machine: aa[0]?.comparison.head.machine ?? 'unknown',
      commit: head.stdout.trim(),
      repeats: opts.repeats,
      busy: Boolean(opts.busy),
      load: { start: loadStart, end: 0 },
      diffMinutes: aa.map((r) => Number(r.minutes.toFixed(2))),
      falsePositives: rateOf(all.filter(called).length, all.length),
      points,
    };
    // Planted: ~5% of wc C's measured per-read cost, per read.
    const wcC = all.filter((p) => p.experiment === 'wc' && p.variant === 'c' && p.lead.metric !== 'wall_time');
    // The largest block size's point (64 KiB in the PR profile): the issue's target.
    const target = wcC.sort((x, y) => y.lead.baseMedian - x.lead.baseMedian)[0];
    const readNs = target?.lead.baseMedian;
    const ns = opts.plantNs ?? (readNs ? 0.05 * readNs : undefined);
    if (ns !== undefined && opts.plantNs !== 0) {
      const planted = await worktree(root, join(opts.out, 'planted'), log, made);
      await runProcess(['git', '-C', planted, 'checkout', '--', 'programs/wc/wc-c.c']);
      plantWcSlowdown(planted, ns);
      const runs: (PairsOutcome & { minutes: number })[] = [];
      for (let i = 0; i < opts.repeats; i++) {
        log(`calibrate: planted diff ${i + 1}/${opts.repeats} (${ns.toFixed(0)} ns per read)`);
        // Only the planted point is measured: the others would only spend the time.
        runs.push(
          await diff(a, planted, 2000 + i, {
            ...opts.filters,
            experiments: ['wc'],
            variants: ['c'],
            params: { ...opts.filters.params, ...(target ? { bs: [target.params.bs!] } : {}) },
          }),
        );
      }
      const ps = runs.flatMap((r) => r.comparison.points).filter((p) => p.benchmark === target?.benchmark);
      result.planted = {
        benchmark: target?.benchmark ?? 'wc/c',
        ns: Math.round(ns),
        factor: readNs ? 1 + ns / readNs : Number.NaN,
        slower: rateOf(ps.filter((p) => p.lead.verdict === 'slower').length, ps.length),
        diffMinutes: runs.map((r) => Number(r.minutes.toFixed(2))),
        ratios: ps.map((p) => Number(p.lead.ratio.toFixed(4))),
      };
    }
    result.load.end = load();
    const markdown = render(result);
    writeFileAtomic(join(opts.out, 'calibration.json'), `${JSON.stringify(result, null, 1)}\n`);
    writeFileAtomic(join(opts.out, 'calibration.md'), markdown);
    // Thresholds for `npm run pairs -- --noise` (or --noise-store, from the store), compare and the site.
    const noise: NoiseFile = {
      schema: NOISE_SCHEMA,
      machine: result.machine,
      created: new Date().toISOString(),
      method: 'paired',
      repeats: opts.repeats,
      thresholds: Object.fromEntries(
        points
          .filter((p) => p.calibration && Number.isFinite(p.calibration.threshold))
          .map((p) => [`${p.benchmark} ${p.metric}`, p.calibration!.threshold]),
      ),
    };
    writeFileAtomic(join(opts.out, 'noise.json'), `${JSON.stringify(noise, null, 1)}\n`);
    if (opts.store) publishNoise(opts.store, noise);
    return { result, markdown };
  } finally {
    if (busy?.pid) busy.kill('SIGKILL');
    for (const dir of made) await runProcess(['git', '-C', root, 'worktree', 'remove', '--force', dir]);
  }
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const rate = (r: Rate) => `${pct(r.rate)} (${r.trials} trials; 95% ${pct(r.interval[0])}–${pct(r.interval[1])})`;

function render(c: PairedCalibration): string {
  const rows = c.points.map((p) => [
    p.benchmark,
    p.metric,
    `${p.aaCalled}/${p.aaTrials}`,
    p.meanPairs.toFixed(1),
    p.calibration ? pct(p.calibration.scale) : 'n/a',
    p.calibration ? pct(p.calibration.falsePositives.rate) : 'n/a',
    p.calibration ? (Number.isFinite(p.calibration.mde) ? pct(p.calibration.mde) : '∞') : 'n/a',
    p.calibration ? pct(p.calibration.power.rate) : 'n/a',
    p.calibration ? (Number.isFinite(p.calibration.threshold) ? pct(p.calibration.threshold) : '∞') : 'n/a',
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
    '_noise per pair: robust scale of the log-ratios; FPR (replay), power and threshold: block-bootstrap replays of the A/A pairs through the sequential rule (analysis/paired-calibration.ts); MDE: at the mean pairs the point got._',
  ];
  return `${lines.join('\n')}\n`;
}
