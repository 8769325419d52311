// The paired runner's schedule with a fake executor and a fake clock: which points get pairs,
// when they stop, what a failure or an interrupt leaves, all without a process (milliseconds).
// The real executor is exercised end to end by pairs.test.ts.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prng } from '../../../src/analysis/two-sample.js';
import type { Job } from '../../../src/model/job.js';
import { planAtLevel } from '../../../src/pairs/decide/multiplicity.js';
import { pairOrder } from '../../../src/pairs/decide/pair-statistics.js';
import { decidePoint, type MeasuredPair, type PointSoFar } from '../../../src/pairs/decide/point.js';
import { pairRecord, pointRow } from '../../../src/pairs/decide/rows.js';
import { DEFAULT_PLAN } from '../../../src/pairs/decide/sequential.js';
import { Budget, CONTROL_SHARE } from '../../../src/pairs/engine/budget.js';
import type { Batch, PairExecutor, PointPlan, Prepare } from '../../../src/pairs/engine/executor.js';
import { notReached } from '../../../src/pairs/engine/pairs-outcome.js';
import { runPairsPoints, type ScheduleOptions } from '../../../src/pairs/engine/scheduler.js';
import { loadExperiment } from '../../../src/plan/experiments.js';
import { expand } from '../../../src/plan/plan.js';
import { ROOT } from '../../helpers/cli.js';
import { jobOf } from '../../helpers/jobs.js';

const wc = loadExperiment(join(ROOT, 'programs', 'wc'));
const wcJob = (bs: number): Job => jobOf(expand([wc], 'smoke', { variants: ['c'], params: { bs: [bs] } })[0]!);

/** A whole-process point (no sizes: judged on wall time) or a fit point (wc's two sizes). */
function point(id: string, kind: 'process' | 'fit', changed = false): PointPlan {
  const job = wcJob(kind === 'fit' ? 65536 : 4096);
  const j = kind === 'fit' ? job : { ...job, sizes: undefined };
  return { id, base: j, head: j, kind, changed, impact: changed ? 'affected' : 'control' };
}

const tp = loadExperiment(join(ROOT, 'programs', 'threadpool'));
const tpJob = jobOf(
  expand([tp], 'smoke', { variants: ['node-promises'], params: { cache: ['warm'], pool: [4], work: ['read'] } })[0]!,
  { input: { ok: true, dir: '/in', facts: { file_bytes: 100, jobs: 1 } } },
);
/** A self-timed point (threadpool's): judged on its p50 latency, its batch time reported beside it. */
const selfPoint = (id: string): PointPlan => ({
  id,
  base: tpJob,
  head: tpJob,
  kind: 'self',
  changed: true,
  impact: 'affected',
});

interface Fake {
  /** Head's slowdown per point (1 = A/A). */
  factor?: Record<string, number>;
  /** Head's slowdown of a self-timed point's batch time only. */
  batch?: Record<string, number>;
  /** Noise of one process (relative). */
  noise?: number;
  /** Fake seconds one pair takes. */
  secondsPerPair?: number;
  failPrepare?: string[];
  /** Point id -> the pair count at which its batch fails. */
  failAt?: Record<string, number>;
  /** A fit whose large size is no slower than its small one. */
  flatFit?: string[];
  onMeasure?: (id: string, from: number, count: number) => void;
}

/** A fake executor over a fake clock: values drawn from a seeded generator, time advanced per pair. */
function fake(f: Fake = {}) {
  const clock = { ms: 0 };
  const rand = prng(42);
  const calls: { id: string; from: number; count: number }[] = [];
  const wall = (x: number) => ({ wall_time: { value: x, unit: 's', direction: 'smaller' as const } });
  const draw = (mean: number) => mean * (1 + (f.noise ?? 0.02) * (rand() - 0.5));
  const exec: PairExecutor = {
    async prepare(p): Promise<Prepare> {
      clock.ms += 1000;
      if (f.failPrepare?.includes(p.id)) return { ok: false, failed: { side: 'head', reason: 'wrong answer' } };
      return {
        ok: true,
        prepared: {
          counters: [],
          secondsPerPair: f.secondsPerPair ?? 0.5,
          ...(p.kind === 'fit' ? { sizes: { small: 100, large: 1000 } } : {}),
        },
      };
    },
    async measure(p, from, count): Promise<Batch> {
      calls.push({ id: p.id, from, count });
      f.onMeasure?.(p.id, from, count);
      clock.ms += count * (f.secondsPerPair ?? 0.5) * 1000;
      const at = f.failAt?.[p.id];
      if (at !== undefined && from + count > at) return { ok: false, failed: { side: 'base', reason: 'crashed' } };
      const k = f.factor?.[p.id] ?? 1;
      const ms = (x: number) => ({ value: x, unit: 'ms', direction: 'smaller' as const });
      const self = (lead: number, batch: number) => ({
        ...wall(draw(0.05)),
        latency_p50: ms(draw(2 * lead)),
        batch_ms: ms(draw(10 * batch)),
      });
      const pairs = Array.from({ length: count }, (_, i): MeasuredPair => {
        const order = pairOrder(7, from + i);
        if (p.kind === 'self') return { order, base: self(1, 1), head: self(k, f.batch?.[p.id] ?? 1) };
        if (p.kind !== 'fit') return { order, base: wall(draw(0.1)), head: wall(draw(0.1 * k)) };
        const large = f.flatFit?.includes(p.id) ? 0.01 : 0.1;
        const side = (m: number) => ({ small: draw(0.01), large: draw(0.01 + (large - 0.01) * m) });
        const fit = { base: side(1), head: side(k) };
        return { order, base: wall(fit.base.large), head: wall(fit.head.large), fit };
      });
      return { ok: true, pairs };
    },
  };
  const opts = (over: Partial<ScheduleOptions> = {}): ScheduleOptions => ({
    plan: DEFAULT_PLAN,
    budget: new Budget(600, undefined, () => clock.ms),
    minEffectOf: () => 0.02,
    interrupted: () => false,
    log: () => {},
    ...over,
  });
  return { exec, opts, calls, clock };
}

describe('paired schedule (fake executor)', () => {
  it('A/A: every point stops by the last look with balanced orders, and none is called changed', async () => {
    const { exec, opts } = fake();
    const out = await runPairsPoints([point('a', 'process'), point('b', 'fit')], exec, opts());
    expect(out.failures).toEqual([]);
    expect(out.measured.map((p) => p.plan.id)).toEqual(['a', 'b']);
    for (const p of out.measured) {
      expect(p.pairs.length).toBeLessThanOrEqual(DEFAULT_PLAN.looks.at(-1)!);
      expect(p.pairs.filter((q) => q.order === 'AB').length * 2).toBe(p.pairs.length);
      expect(['unchanged', 'inconclusive']).toContain(p.stop.verdict);
    }
    // A fit point is judged on its cost per operation, a whole process on its wall time.
    expect(out.measured.map((p) => p.lead.metric)).toEqual(['wall_time', 'read_cost']);
  });

  it('a planted 30% slowdown is called slower at the first look; the changed point is measured before the others', async () => {
    const order: string[] = [];
    const { exec, opts } = fake({ factor: { slow: 1.3 }, onMeasure: (id) => order.push(id) });
    const out = await runPairsPoints([point('same', 'process'), point('slow', 'process', true)], exec, opts());
    const slow = out.measured.find((p) => p.plan.id === 'slow')!;
    expect(slow.stop).toMatchObject({ verdict: 'slower', reason: 'decided' });
    expect(slow.pairs).toHaveLength(DEFAULT_PLAN.looks[0]!);
    expect(order.indexOf('same')).toBeGreaterThan(order.lastIndexOf('slow'));
  });

  it('the control gets its reserved share of the budget: not all of it alone, not nothing after noisy affected points', async () => {
    // Noisy, slow points (10 s a pair) never settle within ±2% before their last look: each tier
    // samples until its own time is spent.
    const alone = fake({ noise: 0.3, secondsPerPair: 10 });
    const docsOnly = await runPairsPoints([point('c1', 'process'), point('c2', 'process')], alone.exec, alone.opts());
    const spent = (out: typeof docsOnly, impact: string) =>
      out.measured.filter((p) => p.impact === impact).reduce((n, p) => n + p.spent, 0);
    expect(spent(docsOnly, 'control')).toBeGreaterThan(0);
    expect(spent(docsOnly, 'control')).toBeLessThanOrEqual(600 * CONTROL_SHARE);

    const both = fake({ noise: 0.3, secondsPerPair: 10 });
    const mixed = await runPairsPoints(
      [point('a1', 'process', true), point('a2', 'process', true), point('c1', 'process')],
      both.exec,
      both.opts(),
    );
    expect(spent(mixed, 'affected')).toBeGreaterThan(600 * (1 - CONTROL_SHARE) * 0.5);
    expect(spent(mixed, 'affected')).toBeLessThanOrEqual(600 * (1 - CONTROL_SHARE));
    expect(mixed.measured.find((p) => p.plan.id === 'c1')!.pairs.length).toBeGreaterThan(0);
    // The affected points were measured first, the control after them.
    const first = both.calls.findIndex((c) => c.id === 'c1');
    expect(both.calls.slice(first).every((c) => c.id === 'c1')).toBe(true);
  });

  it('a budget too small for the first look stops points as "budget", never past it', async () => {
    const { exec, opts, clock } = fake({ noise: 0.3, secondsPerPair: 1 });
    const out = await runPairsPoints(
      [point('a', 'process'), point('b', 'process')],
      exec,
      opts({ budget: new Budget(8, undefined, () => clock.ms) }),
    );
    const pairs = out.measured.reduce((n, p) => n + p.pairs.length, 0);
    expect(pairs).toBeLessThanOrEqual(8);
    expect(out.measured.map((p) => p.stop.reason)).toEqual(['budget', 'budget']);
    // Set-up (two prepares) is reported, and the pairs took no more than they were given.
    expect(out.setupSeconds).toBe(2);
    expect(clock.ms / 1000 - out.setupSeconds).toBeLessThanOrEqual(8);
  });

  it("the deadline sees the time set-up took, from the diff's start", async () => {
    const { exec, opts, clock } = fake();
    // The diff started 5 s before the schedule: set-up is those and the prepare's second.
    clock.ms = -5000;
    const budget = new Budget(600, 40, () => clock.ms);
    clock.ms = 0;
    const log: string[] = [];
    const out = await runPairsPoints([point('a', 'process')], exec, opts({ budget, log: (m) => log.push(m) }));
    expect(out.setupSeconds).toBe(6);
    expect(out.leftSeconds).toBe(40 - 6 - 30);
    expect(log).toContain(`pairs: ${budget.cutText(6, 4)}`);
  });

  it('a point that fails in set-up or in a batch is listed once and left out; the others go on', async () => {
    const { exec, opts } = fake({ failPrepare: ['bad-check'], failAt: { 'bad-run': 12 }, noise: 0.3 });
    const plans = [point('bad-check', 'process'), point('bad-run', 'process'), point('ok', 'process')];
    const out = await runPairsPoints(plans, exec, opts());
    expect(out.failures).toEqual([
      { id: 'bad-check', failed: { side: 'head', reason: 'wrong answer' } },
      { id: 'bad-run', failed: { side: 'base', reason: 'crashed' } },
    ]);
    expect(out.measured.map((p) => p.plan.id)).toEqual(['ok']);
  });

  it('an interrupt ends the schedule; measured points are judged on the pairs they have', async () => {
    let batches = 0;
    const { exec, opts, calls } = fake({ noise: 0.3, onMeasure: () => batches++ });
    const out = await runPairsPoints(
      [point('a', 'process'), point('b', 'process')],
      exec,
      opts({ interrupted: () => batches >= 1 }),
    );
    expect(calls).toHaveLength(1);
    expect(out.measured.map((p) => [p.plan.id, p.pairs.length, p.stop.action])).toEqual([['a', 10, 'stop']]);
    // The point the interrupt left without pairs is listed as not measured, so it keeps an answer.
    expect(notReached(out, { plans: [point('a', 'process'), point('b', 'process')] })).toEqual([
      {
        benchmark: 'b',
        side: 'base',
        status: 'skipped',
        reason: 'the diff was interrupted before this point was measured',
      },
      {
        benchmark: 'b',
        side: 'head',
        status: 'skipped',
        reason: 'the diff was interrupted before this point was measured',
      },
    ]);
  });

  it("another timed metric is judged at the point's share of the level, and named beside its lead when it moved", async () => {
    const { exec, opts } = fake({ batch: { moved: 1.3 }, noise: 0.04 });
    const levels = { lead: planAtLevel(DEFAULT_PLAN, 0.004), others: planAtLevel(DEFAULT_PLAN, 0.001) };
    const out = await runPairsPoints(
      [selfPoint('moved'), selfPoint('same')],
      exec,
      opts({ planOf: () => levels.lead, othersPlanOf: () => levels.others }),
    );
    const row = (id: string) => {
      const p = out.measured.find((q) => q.plan.id === id)!;
      expect(p.lead.metric).toBe('latency_p50');
      return pointRow({
        ...p,
        changed: true,
        benchmark: id,
        experiment: 'threadpool',
        variant: 'node-promises',
        params: {},
        placement: 'none',
      });
    };
    const moved = row('moved');
    expect(moved.lead.verdict).not.toBe('slower');
    expect(moved.also).toEqual(['batch_ms']);
    const batch = moved.folded.find((m) => m.metric === 'batch_ms')!;
    expect(batch).toMatchObject({ verdict: 'slower' });
    // Judged at its share of the level: the interval's level is far above a fixed 95 %.
    expect(batch.confidence).toBeGreaterThan(0.999);
    expect(row('same').also).toBeUndefined();
    // pairs.json keeps every metric of every pair, not only the lead's.
    const rec = pairRecord({
      ...out.measured[0]!,
      changed: true,
      benchmark: 'moved',
      experiment: 'threadpool',
      variant: 'node-promises',
      params: {},
      placement: 'none',
    });
    expect(rec.others.map((o) => o.metric).sort()).toEqual(['batch_ms', 'wall_time']);
    expect(rec.others[0]!.base).toHaveLength(rec.pairs.length);
  });

  it('a fit whose sizes are too close falls back to wall time and says why', async () => {
    const { exec, opts } = fake({ flatFit: ['flat'] });
    const out = await runPairsPoints([point('flat', 'fit')], exec, opts());
    const p = out.measured[0]!;
    expect(p.lead.metric).toBe('wall_time');
    expect(p.fitProblem).toBeTruthy();
  });
});

describe('the sequential decision of a point', () => {
  it('is a pure function of the pairs so far: same answer twice, its input untouched', () => {
    const rand = prng(3);
    const pairs = Array.from(
      { length: 20 },
      (_, i): MeasuredPair => ({
        order: pairOrder(1, i),
        base: { wall_time: { value: 1 + rand() * 0.02, unit: 's', direction: 'smaller' } },
        head: { wall_time: { value: 1.2 + rand() * 0.02, unit: 's', direction: 'smaller' } },
      }),
    );
    const p: PointSoFar = Object.freeze({
      kind: 'process',
      lead: Object.freeze({ metric: 'wall_time', unit: 's', direction: 'smaller' as const }),
      minEffect: 0.02,
      pairs: Object.freeze(pairs),
    });
    const a = decidePoint(p, 100, DEFAULT_PLAN);
    expect(decidePoint(p, 100, DEFAULT_PLAN)).toEqual(a);
    expect(a.step).toMatchObject({ action: 'stop', verdict: 'slower' });
    expect(decidePoint({ ...p, pairs: pairs.slice(0, 4) }, 100, DEFAULT_PLAN).step).toMatchObject({
      action: 'continue',
      more: 6,
    });
  });
});
