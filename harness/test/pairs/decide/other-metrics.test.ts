// A point's other timed metrics judged at the diff-wide level: which metrics a point reports
// beside its lead (a rate over a time repeats that time's evidence), a moved metric called beside
// a lead that held, a lead decided early taking its next look while another metric looks moved,
// and, in seeded simulations of whole A/A diffs, the diff-wide false-call level holding with the
// other metrics counted. No processes, no timing.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prng } from '../../../src/analysis/two-sample.js';
import {
  FALSE_POSITIVE_LEVEL,
  planAtLevel,
  pointLevels,
  SECONDARY_SHARE,
} from '../../../src/pairs/decide/multiplicity.js';
import { judgeOthers, moved, type OtherMetricsPlan } from '../../../src/pairs/decide/other-metrics.js';
import { pairOrder } from '../../../src/pairs/decide/pair-statistics.js';
import { decidePoint, type MeasuredPair, type PointSoFar } from '../../../src/pairs/decide/point.js';
import { DEFAULT_PLAN } from '../../../src/pairs/decide/sequential.js';
import { leadMetric, otherMetrics } from '../../../src/pairs/engine/lead-metric.js';
import { processValues } from '../../../src/pairs/engine/pair-engine.js';
import { loadExperiment } from '../../../src/plan/experiments.js';
import { expand } from '../../../src/plan/plan.js';
import { ROOT } from '../../helpers/cli.js';
import { jobOf } from '../../helpers/jobs.js';

const gaussian = (r: () => number) => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
const ms = (value: number) => ({ value, unit: 'ms', direction: 'smaller' as const });

/**
 * A threadpool-like point's pairs: p50 latency (the lead) and batch time share one machine noise
 * per process (so they move together by chance), plus their own; `batch` multiplies the head's
 * batch time only, `lead` its latency.
 */
function pairs(seed: number, n: number, f: { lead?: number; batch?: number; sd?: number } = {}): MeasuredPair[] {
  const r = prng(seed);
  const sd = f.sd ?? 0.03;
  const side = (lead: number, batch: number) => {
    const shared = sd * gaussian(r);
    return {
      latency_p50: ms(2 * lead * Math.exp(shared + sd * gaussian(r))),
      batch_ms: ms(10 * batch * Math.exp(shared + sd * gaussian(r))),
      wall_time: { value: 0.05 * Math.exp(shared + sd * gaussian(r)), unit: 's', direction: 'smaller' as const },
    };
  };
  return Array.from({ length: n }, (_, i) => ({
    order: pairOrder(seed, i),
    base: side(1, 1),
    head: side(f.lead ?? 1, f.batch ?? 1),
  }));
}

const LEAD = { metric: 'latency_p50', unit: 'ms', direction: 'smaller' as const };

/** The plans of a point that has one share `alpha` of the diff's level. */
function others(alpha: number): OtherMetricsPlan {
  const [levels] = pointLevels([{ kind: 'self' }], alpha);
  return {
    leadPlan: planAtLevel(DEFAULT_PLAN, levels!.lead),
    plan: planAtLevel(DEFAULT_PLAN, levels!.others),
    metrics: [
      { metric: 'batch_ms', minEffect: 0.02 },
      { metric: 'wall_time', minEffect: 0.02 },
    ],
  };
}

/** The point's pairs through the rule until it stops (as the scheduler asks, with budget to spare). */
function sample(seed: number, f: Parameters<typeof pairs>[2], o: OtherMetricsPlan, judgeOthersToo = true) {
  const all = pairs(seed, 60, f);
  let point: PointSoFar = {
    kind: 'self',
    lead: LEAD,
    minEffect: 0.02,
    pairs: [],
    ...(judgeOthersToo ? { others: o } : {}),
  };
  for (;;) {
    const d = decidePoint(point, 1000, o.leadPlan);
    if (d.step.action === 'stop') return { point, stop: d.step };
    point = { ...point, pairs: all.slice(0, point.pairs.length + d.step.more) };
  }
}

describe("a point's other timed metrics", () => {
  it('are every metric its processes report beside the lead; a rate over a time repeats that time', () => {
    const exp = (id: string) => loadExperiment(join(ROOT, 'programs', id));
    // With its input generated: a job that cannot run has no rates.
    const facts = { file: 'data.bin', bytes: 65536, lines: 100, sum32: 7, copies: 20, file_bytes: 100, jobs: 1 };
    const job = (id: string, params: Record<string, (string | number)[]>, variant: string) =>
      jobOf(expand([exp(id)], 'smoke', { variants: [variant], params })[0]!, {
        input: { ok: true, dir: '/in', facts },
      });
    const tp = job('threadpool', { cache: ['warm'], pool: [4], work: ['read'] }, 'node-promises');
    const v = processValues(tp, {
      wall: 0.05,
      report: { files: 20, bytes: 2e6, jobs: 0, batch_ms: 3, files_per_s: 6000, mb_per_s: 600 },
      items: { latency: [1, 2, 3, 4] },
    });
    const lead = leadMetric(tp, v).metric;
    expect(lead).toBe('latency_p50');
    const tpOthers = otherMetrics(tp, lead, Object.keys(v));
    expect(tpOthers.map((m) => m.metric)).toContain('batch_ms');
    expect(tpOthers.map((m) => m.metric)).toContain('wall_time');
    expect(tpOthers.every((m) => m.of === undefined)).toBe(true);
    // records leads with its I/O throughput, a rate over io_seconds: that time is the lead's evidence.
    const rec = job('records', { op: ['read'], record: [4096], cache: ['warm'] }, 'c');
    expect(otherMetrics(rec, 'io_throughput', ['wall_time', 'io_throughput', 'io_seconds'])).toEqual([
      { metric: 'wall_time' },
      { metric: 'io_seconds', of: 'io_throughput' },
    ]);
    // streams leads with its pipeline time; its lines per second repeat it.
    const st = job('streams', { n: [1] }, 'core-transform');
    expect(otherMetrics(st, 'pipeline_seconds', ['wall_time', 'pipeline_seconds', 'lines_per_s'])).toEqual([
      { metric: 'wall_time' },
      { metric: 'lines_per_s', of: 'pipeline_seconds' },
    ]);
  });

  it('a point that has them gives them a fifth of its share; a whole process keeps all of its share', () => {
    const levels = pointLevels([{ kind: 'self' }, { kind: 'fit' }, { kind: 'process' }]);
    const share = FALSE_POSITIVE_LEVEL / 3;
    expect(levels[0]!.lead).toBeCloseTo(share * (1 - SECONDARY_SHARE), 12);
    expect(levels[1]!.others).toBeCloseTo(share * SECONDARY_SHARE, 12);
    expect(levels[2]).toEqual({ lead: share, others: 0 });
    const total = levels.reduce((a, l) => a + l.lead + l.others, 0);
    expect(total).toBeCloseTo(FALSE_POSITIVE_LEVEL, 12);
  });

  it('a batch time that moved beside a p50 latency that held is called, and named beside the lead', () => {
    const o = others(FALSE_POSITIVE_LEVEL / 14);
    const { point, stop } = sample(5, { batch: 1.3 }, o);
    expect(stop.verdict).not.toBe('slower');
    const judged = judgeOthers(point.pairs, LEAD.metric, o);
    const batch = judged.find((j) => j.metric === 'batch_ms')!;
    expect(batch.verdict).toBe('slower');
    expect(moved(batch)).toBe(true);
    expect(batch.analysis.ratio).toBeGreaterThan(1.2);
    expect(judged.find((j) => j.metric === 'wall_time')!.verdict).not.toBe('slower');
  });

  it('a lead decided at an early look takes the next while another metric looks moved, then stops', () => {
    // A point alone in its diff (a release pair): its quiet lead can decide "unchanged" at the
    // first look; the batch time, 8% slower, cannot be called at its level with 10 pairs (the
    // exact test's smallest p is 2/1024), but looks moved: the point goes on.
    const o = others(FALSE_POSITIVE_LEVEL);
    const first = pairs(11, 10, { batch: 1.08, sd: 0.002 });
    const d = decidePoint({ kind: 'self', lead: LEAD, minEffect: 0.02, pairs: first, others: o }, 1000, o.leadPlan);
    expect(d.step).toMatchObject({ action: 'continue', look: 1, more: 10 });
    // Without its other metrics the same lead stops there.
    const alone = decidePoint({ kind: 'self', lead: LEAD, minEffect: 0.02, pairs: first }, 1000, o.leadPlan);
    expect(alone.step).toMatchObject({ action: 'stop', verdict: 'unchanged', reason: 'decided' });
    // With no budget left it stops all the same.
    const broke = decidePoint({ kind: 'self', lead: LEAD, minEffect: 0.02, pairs: first, others: o }, 0, o.leadPlan);
    expect(broke.step.action).toBe('stop');
    const { point, stop } = sample(11, { batch: 1.08, sd: 0.002 }, o);
    expect(stop).toMatchObject({ verdict: 'unchanged', reason: 'decided' });
    expect(point.pairs.length).toBeGreaterThan(10);
    expect(judgeOthers(point.pairs, LEAD.metric, o).find((j) => j.metric === 'batch_ms')!.verdict).toBe('slower');
  });

  it('whole A/A diffs keep the diff-wide false-call level with the other metrics counted', () => {
    // 26 points of 3 correlated metrics each, noisy enough that moved-looking metrics keep points
    // sampling: the share of diffs with any call, lead or other, stays within the level.
    const points = 26;
    const diffs = 60;
    let diffsWithChange = 0;
    let sampledOn = 0;
    for (let d = 0; d < diffs; d++) {
      let changed = 0;
      for (let i = 0; i < points; i++) {
        const o = others(FALSE_POSITIVE_LEVEL / points);
        const seed = 10_007 * d + i;
        const { point, stop } = sample(seed, { sd: 0.06 }, o);
        if (stop.verdict === 'slower' || stop.verdict === 'faster') changed++;
        if (judgeOthers(point.pairs, LEAD.metric, o).some(moved)) changed++;
        if (point.pairs.length > sample(seed, { sd: 0.06 }, o, false).point.pairs.length) sampledOn++;
      }
      if (changed) diffsWithChange++;
    }
    expect(diffsWithChange / diffs).toBeLessThanOrEqual(FALSE_POSITIVE_LEVEL);
    // Some A/A points did take more looks for a metric that looked moved (the rule was exercised).
    expect(sampledOn).toBeGreaterThan(0);
  });
});
