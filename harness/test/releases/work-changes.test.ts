// Changes of counted work between releases, over fixtures: each release's counted runs of wc's
// readsync point (a fit: per read, start-up cancelled), a step beyond the tolerance at one
// release, a drift inside it, a release whose repeats disagree, an evidence point and the C
// reference that are never called; bisection through the builds between.
import { describe, expect, it } from 'vitest';
import type { CountedRun } from '../../src/counts/count-rule.js';
import type { ReleaseEntry, WorkPoint } from '../../src/formats/release-store-format.js';
import {
  countText,
  detectWorkChanges,
  workBisectStep,
  workCounts,
  workLabel,
  workPercent,
  workSeries,
} from '../../src/releases/judge/work-changes.js';

/** A fit's counted runs: start-up plus `perRead` per read at 2,048 and 16,384 reads; `jitter` on the repeat. */
const fitRuns = (perRead: number, jitter = 0): CountedRun[] => [
  { size: 'small', instructions: 40_000_000 + perRead * 2048, x: 2048 },
  { size: 'own', instructions: 40_000_000 + perRead * 16384, x: 16384 },
  { size: 'own', instructions: 40_000_000 + perRead * 16384 + jitter, x: 16384 },
];

const point = (variant: string, runs: CountedRun[], over: Partial<WorkPoint> = {}): WorkPoint => ({
  experiment: 'wc',
  variant,
  params: { bs: 4096 },
  reference: false,
  counts: { status: 'ok', settings: 'V8 made predictable', role: 'decides', runs },
  ...over,
});

function entry(version: string, perRead: number, jitter = 0, profile = 'quick'): ReleaseEntry {
  return {
    family: 'node',
    line: 'node20',
    version,
    date: '2026-01-01T00:00:00.000Z',
    profile,
    measured: '2026-11-28T00:00:00.000Z',
    commit: 'f'.repeat(40),
    experiments: ['wc'],
    problems: [],
    values: [],
    work: [
      point('readsync', fitRuns(perRead, jitter)),
      // C beside it, and a point whose counts are evidence: shown, never called.
      point('c', fitRuns(17 + Number(version.split('.')[1])), { reference: true }),
      {
        ...point('stream', fitRuns(perRead * (1 + Number(version.split('.')[1]) / 10))),
        counts: { status: 'ok', settings: 's', role: 'evidence', because: 'threads decide it', runs: fitRuns(1) },
      },
    ],
  };
}

// 20.2 → 20.3: +3.0% per read (a change); 20.3 → 20.4: +0.2% (the same work); 20.5's repeats
// disagree by far more than the tolerance (passed over); 20.6 steps up from 20.4's.
const entries = [
  entry('20.2.0', 15_243),
  entry('20.3.0', 15_700),
  entry('20.4.0', 15_731),
  entry('20.5.0', 15_731, 30_000_000),
  entry('20.6.0', 16_500),
];

describe('work changes between releases', () => {
  it('counts per read where the point is a fit (start-up cancelled), per run where it is not', () => {
    const fit = workCounts(fitRuns(15_243, 14_336));
    expect(fit.metric).toBe('instructions_per_op');
    expect(fit.counts).toEqual([15_243, 15_244]);
    const plain = workCounts([
      { size: 'own', instructions: 5_000_000 },
      { size: 'own', instructions: 5_000_100 },
    ]);
    expect(plain).toEqual({ metric: 'instructions', counts: [5_000_000, 5_000_100] });
  });

  it('follows the JavaScript points whose counts decide, in version order', () => {
    const series = workSeries([...entries].reverse(), 'quick');
    expect(series.map((s) => [s.variant, s.metric])).toEqual([['readsync', 'instructions_per_op']]);
    expect(series[0]!.points.map((p) => p.version)).toEqual(['20.2.0', '20.3.0', '20.4.0', '20.5.0', '20.6.0']);
    expect(workSeries(entries, 'smoke')).toEqual([]);
  });

  it('a step beyond the tolerance is a change; a drift inside it is not', () => {
    const { changes } = detectWorkChanges(workSeries(entries, 'quick'));
    expect(changes.map((c) => [c.from, c.to, c.before, c.after])).toEqual([
      ['20.2.0', '20.3.0', 15_243, 15_700],
      ['20.4.0', '20.6.0', 15_731, 16_500],
    ]);
    expect(changes[0]!.change).toBeCloseTo(457 / 15_243, 6);
    expect(changes[1]!.fromCounts).toEqual([15_731, 15_731]);
  });

  it('a release whose repeats disagree is passed over: it neither calls nor hides a change', () => {
    const { changes, undecided } = detectWorkChanges(workSeries(entries, 'quick'));
    expect(undecided.map((u) => u.version)).toEqual(['20.5.0']);
    expect(undecided[0]!.spread).toBeGreaterThan(0.005);
    expect(changes.some((c) => c.from === '20.5.0' || c.to === '20.5.0')).toBe(false);
  });

  it('points not counted in a release (unavailable, measured before counts) leave no gap to call', () => {
    const unavailable = entry('20.3.0', 99_999);
    unavailable.work = [{ ...point('readsync', []), counts: { status: 'unavailable', reason: 'valgrind missing' } }];
    const before = { ...entry('20.4.0', 15_243) };
    delete before.work;
    const series = workSeries([entry('20.2.0', 15_243), unavailable, before, entry('20.5.0', 15_250)], 'quick');
    expect(series[0]!.points.map((p) => p.version)).toEqual(['20.2.0', '20.5.0']);
    expect(detectWorkChanges(series).changes).toEqual([]);
  });

  it('bisects through the builds: the last with the same work, the first beyond the tolerance', () => {
    const c = { from: '20.2.0', to: '20.3.0', fromCounts: [15_243, 15_243] };
    const between = ['20.2.0', '20.2.1', '20.2.2', '20.2.3', '20.3.0'];
    expect(workBisectStep(c, between, new Map())).toEqual({ kind: 'measure', version: '20.2.2' });
    // 20.2.2 moved 0.1%: still the same work.
    const m = new Map<string, number[]>([['20.2.2', [15_258, 15_258]]]);
    expect(workBisectStep(c, between, m)).toEqual({ kind: 'measure', version: '20.2.3' });
    m.set('20.2.3', [15_700, 15_700]);
    expect(workBisectStep(c, between, m)).toEqual({ kind: 'narrowed', from: '20.2.2', to: '20.2.3', steps: 2 });
    // A build whose repeats disagree, or that was measured without counts, cannot say: passed over.
    const unsure = new Map<string, number[]>([
      ['20.2.1', [15_243, 18_000]],
      ['20.2.2', []],
      ['20.2.3', [15_700, 15_700]],
    ]);
    expect(workBisectStep(c, between, unsure)).toEqual({ kind: 'narrowed', from: '20.2.0', to: '20.2.3', steps: 1 });
  });

  it('says a change to a hundredth of a percent under 1%, beside a tolerance of 0.5%', () => {
    expect(workPercent(2447.85 / 2460.75)).toBe('-0.52%');
    expect(workPercent(1.031)).toBe('+3.1%');
  });

  it('says a count the way people read it', () => {
    expect(countText(15_243.4)).toBe('15,243');
    expect(countText(17.04)).toBe('17.0');
    expect(workLabel('instructions_per_op', 'reads')).toBe('instructions per read');
    expect(workLabel('instructions_per_op')).toBe('instructions per operation');
    expect(workLabel('instructions')).toBe('instructions per run');
  });
});
