// Another timed metric that moved beside a lead that held is a finding of the diff: named beside
// the lead ("also: batch_ms +5.1 % (+3.0 … +7.3 %)") in the first line's tail, at the top and in
// the point's row; no "No regression found" while it stands; a regression rule counts it. An older
// artifact's folded metrics (fixed-size comparisons at 5 %, no diff-wide level) are never read as
// such findings.
import { describe, expect, it } from 'vitest';
import { PairsComparison, type PairsMetric, type PairsPoint } from '../../../src/formats/pairs-format.js';
import { renderPairsComparison } from '../../../src/pairs/comment/comment.js';
import { parseGateRule } from '../../../src/pairs/decide/merge-gate.js';
import { summarize } from '../../../src/pairs/decide/summarize.js';
import { pairsComparison, pairsPoint } from '../../helpers/pairs.js';

const metric = (over: Partial<PairsMetric>): PairsMetric => ({
  metric: 'wall_time',
  unit: 's',
  direction: 'smaller',
  baseMedian: 0.05,
  headMedian: 0.05,
  ratio: 1,
  ci: [0.99, 1.01],
  confidence: 0.98,
  p: 0.5,
  verdict: 'unchanged',
  ...over,
});

/** threadpool's p50 latency held; its batch time (and the rates the program derives from it) did not. */
function threadpool(over: Partial<PairsPoint> = {}): PairsPoint {
  return pairsPoint({
    benchmark: 'threadpool/node-promises/cache=warm,pool=4,work=read',
    experiment: 'threadpool',
    variant: 'node-promises',
    params: { cache: 'warm', pool: 4, work: 'read' },
    kind: 'self',
    impact: 'affected',
    changed: true,
    stop: 'decided',
    pairs: 40,
    counters: [],
    lead: metric({ metric: 'latency_p50', unit: 'ms', baseMedian: 1.2, headMedian: 1.21, verdict: 'unchanged' }),
    folded: [
      metric({
        metric: 'batch_ms',
        unit: 'ms',
        ratio: 1.051,
        ci: [1.03, 1.073],
        confidence: 0.99995,
        verdict: 'slower',
      }),
      metric({ metric: 'wall_time', verdict: 'unchanged' }),
    ],
    also: ['batch_ms'],
    ...over,
  });
}

function comparison(points: PairsPoint[]): PairsComparison {
  const c = pairsComparison(points);
  c.schema = 3;
  c.notAffected = [];
  c.affectedBecause = points.map((p) => ({
    benchmark: p.benchmark,
    reason: 'changed: programs/threadpool/threadpool-common.js',
  }));
  return c;
}

describe('another timed metric that moved', () => {
  it('is named beside the lead at the top, in its row and after the first line; no all-clear', () => {
    const c = comparison([threadpool()]);
    expect(PairsComparison.safeParse(c).success).toBe(true);
    const md = renderPairsComparison(c);
    const lines = md.split('\n');
    expect(lines[0]).toBe(
      '## Performance: 1 affected · 0 not affected · 0 control — 0 slower · 0 faster · 1 unchanged · 0 inconclusive; another timed metric moved on 1 point',
    );
    expect(md).toContain('**Other timed metrics moved** on 1 point');
    expect(md).toContain(
      '- threadpool node-promises cache=warm pool=4 work=read: latency_p50 unchanged; also: batch_ms +5.1 % (+3.0 … +7.3 %)',
    );
    expect(md).toMatch(
      /\| unchanged within ±2\.0% · changed in this PR · also: batch_ms \+5\.1 % \(\+3\.0 … \+7\.3 %\) \|/,
    );
    expect(md).not.toContain('No regression found.');
    expect(md).toContain('No regression of a lead metric found, but another timed metric moved on 1 point');
    expect(summarize(c).calls.alsoMoved).toBe(1);
  });

  it('a regression rule counts it; the default rule does not', () => {
    const c = comparison([threadpool()]);
    expect(summarize(c).outcome.fail).toBe(false);
    const o = summarize(c, parseGateRule('slower')).outcome;
    expect(o).toMatchObject({ fail: true });
    expect(o.because).toContain('1 point with another timed metric confirmed slower');
    expect(summarize(c, parseGateRule('slower>10%')).outcome.fail).toBe(false);
  });

  it('a control point whose other metric moved is a control call', () => {
    const c = comparison([]);
    c.points = [threadpool({ impact: 'control', changed: undefined })];
    const s = summarize(c);
    expect(s.impact?.controlCalled).toBe(1);
    expect(s.calls.alsoMoved).toBe(0);
    // A called control withholds the all-clear too.
    const md = renderPairsComparison(c);
    expect(md).not.toContain('No regression found.');
    expect(md).toContain('but the control was called');
  });

  it("an older artifact's folded verdicts, or a name its folded rows do not call, are no finding", () => {
    const old = comparison([threadpool({ also: undefined })]);
    old.schema = 2;
    const md = renderPairsComparison(old);
    expect(md).not.toContain('also:');
    expect(md).toContain('No regression found.');
    // A name in `also` its folded rows do not call moved, or one that repeats another's evidence.
    const forged = comparison([
      threadpool({
        also: ['wall_time', 'files_per_s'],
        folded: [metric({ metric: 'files_per_s', verdict: 'slower', of: 'batch_ms' }), metric({})],
      }),
    ]);
    expect(renderPairsComparison(forged)).not.toContain('also:');
    expect(summarize(forged).calls.alsoMoved).toBe(0);
  });

  it('beside a changed workload it is said with the workload, not as a finding of its own', () => {
    const c = comparison([
      threadpool({
        workloadChanged: 'copies 20 → 40',
        lead: metric({ metric: 'latency_p50', ratio: 1.96, ci: [1.91, 2.01], verdict: 'slower' }),
      }),
    ]);
    const md = renderPairsComparison(c);
    expect(md.split('\n')[0]).toMatch(/— 0 slower · 0 faster · 0 unchanged · 0 inconclusive · 1 workload changed$/);
    expect(md).toContain(
      '- threadpool node-promises cache=warm pool=4 work=read: workload changed: +96 % (+91 … +101 %); also: batch_ms +5.1 % (+3.0 … +7.3 %) — copies 20 → 40',
    );
    expect(md).not.toContain('**Other timed metrics moved**');
    expect(summarize(c, parseGateRule('slower')).outcome.fail).toBe(false);
  });
});
