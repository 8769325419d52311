// The comment's first line answers for every affected point: its numbers add up to the points the
// pull request affected (added and removed ones included, the control apart), on comparisons as
// pairs writes them — broken points, failures on one side or both, points the budget never
// reached, changed workloads measured in pairs, points one side lacks, a control with its own
// failures — and on the issue's own diff. "No regression found" only when every one is answered.
import { describe, expect, it } from 'vitest';
import { prng } from '../../../src/analysis/two-sample.js';
import type { PairsComparison, PairsPoint } from '../../../src/formats/pairs-format.js';
import { PAIRS_VERDICTS } from '../../../src/model/verdicts.js';
import { renderPairsComparison } from '../../../src/pairs/comment/comment.js';
import { summarize } from '../../../src/pairs/decide/summarize.js';
import { pairsComparison, pairsPoint } from '../../helpers/pairs.js';

/** The first line's scope and its answers, as numbers. */
function firstLine(md: string): { affected?: number; answers: number[]; text: string } {
  const text = md.split('\n')[0]!;
  const [scope, rest] = text.includes(' — ') ? text.split(' — ') : [undefined, text.replace('## Performance: ', '')];
  const answers = rest!.split(' · ').map((part) => {
    const m = /^(?:❌ |⚠️ )?(\d+) [a-z]/.exec(part);
    expect(m, `"${part}" in "${text}"`).not.toBeNull();
    return Number(m![1]);
  });
  const affected = scope ? Number(/(\d+) affected/.exec(scope)![1]) : undefined;
  return { affected, answers, text };
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

function point(id: string, over: Partial<PairsPoint> = {}): PairsPoint {
  return {
    ...pairsPoint(),
    benchmark: id,
    experiment: id.split('/')[0]!,
    variant: id.split('/')[1]!,
    params: {},
    ...over,
  };
}

/** A seeded comparison of every kind of point pairs writes, and how many points it affected. */
function realistic(seed: number, impactPlan: boolean): { c: PairsComparison; affected: number } {
  const r = prng(seed);
  const n = (max: number) => Math.floor(r() * (max + 1));
  const c = pairsComparison([]);
  c.schema = 3;
  const affected: string[] = [];
  let k = 0;
  const id = (exp: string) => `${exp}/v${k}/p=${k++}`;
  // Measured affected points: a verdict, a changed workload, or no pairs (the budget's end).
  for (let i = n(12); i > 0; i--) {
    const b = id('scan');
    affected.push(b);
    const verdict = PAIRS_VERDICTS[n(3)]!;
    c.points.push(
      point(b, {
        impact: impactPlan ? 'affected' : undefined,
        changed: true,
        pairs: r() < 0.15 ? 0 : 20,
        lead: { ...pairsPoint().lead, verdict },
        ...(r() < 0.3 ? { workloadChanged: "the generated input's bytes" } : {}),
      }),
    );
  }
  const fail = (b: string, side: 'base' | 'head', status: 'failed' | 'skipped' = 'failed') =>
    c.notMeasured.push({ benchmark: b, side, status, reason: `${status} on ${side}` });
  // Broken (head only), fixed (base only), failed or skipped on both sides.
  for (let i = n(3); i > 0; i--) fail(affected[affected.push(id('wc')) - 1]!, 'head');
  for (let i = n(2); i > 0; i--) fail(affected[affected.push(id('wc')) - 1]!, 'base');
  for (let i = n(3); i > 0; i--) {
    const b = affected[affected.push(id('records')) - 1]!;
    const status = r() < 0.5 ? 'failed' : 'skipped';
    fail(b, 'base', status);
    fail(b, 'head', status);
  }
  for (let i = n(2); i > 0; i--) c.added.push({ benchmark: affected[affected.push(id('streams')) - 1]!, side: 'head' });
  for (let i = n(2); i > 0; i--)
    c.removed.push({ benchmark: affected[affected.push(id('streams')) - 1]!, side: 'base' });
  if (impactPlan) {
    // The control: measured, called now and then, and failing on a side too — never the PR's answers.
    for (let i = n(6); i > 0; i--) {
      const b = id('threadpool');
      c.points.push(
        point(b, { impact: 'control', lead: { ...pairsPoint().lead, verdict: r() < 0.2 ? 'faster' : 'unchanged' } }),
      );
    }
    if (r() < 0.5) fail(id('threadpool'), 'head');
    if (r() < 0.5) {
      const b = id('threadpool');
      fail(b, 'base');
      fail(b, 'head');
    }
    c.notAffected = Array.from({ length: n(300) }, () => ({ benchmark: id('wc'), reason: 'identical' }));
    // Older artifacts listed no reason for a removed point: it is affected all the same.
    const removed = new Set(c.removed.map((x) => x.benchmark));
    c.affectedBecause = affected
      .filter((b) => !removed.has(b) || r() < 0.5)
      .map((b) => ({ benchmark: b, reason: 'changed: programs/x' }));
  }
  return { c, affected: affected.length };
}

describe("the first line's numbers add up to the affected points", () => {
  it('on 300 seeded comparisons with an impact plan, and 300 that measured every point', () => {
    for (const impactPlan of [true, false])
      for (let seed = 1; seed <= 300; seed++) {
        const { c, affected } = realistic(seed, impactPlan);
        const md = renderPairsComparison(c);
        const line = firstLine(md);
        const s = summarize(c);
        if (impactPlan) {
          expect(line.affected, line.text).toBe(affected);
          expect(s.impact?.affected).toBe(affected);
        }
        expect(sum(line.answers), `seed ${seed}: ${line.text}`).toBe(affected);
        expect(s.calls.unanswered).toBe(0);
        // A control point failing on head only is no point broken by this PR.
        const brokenHere = new Set(c.notMeasured.filter((x) => x.side === 'head').map((x) => x.benchmark));
        for (const x of c.notMeasured.filter((y) => y.side === 'base')) brokenHere.delete(x.benchmark);
        const controlBroken = [...brokenHere].filter((b) => b.startsWith('threadpool/')).length;
        expect(s.brokenPoints).toBe(brokenHere.size - controlBroken);
        // The all-clear only when nothing regressed and every affected point was measured.
        if (md.includes('No regression found.'))
          expect(s.brokenPoints + s.calls.slower + (s.calls.notMeasured ?? 0)).toBe(0);
      }
  });

  it("the issue's diff: a comment in scan's generator, a threadpool workload changed, two points added, one removed", () => {
    const c = pairsComparison([]);
    c.schema = 3;
    const scanIds = Array.from({ length: 60 }, (_, i) => `scan/v${i % 6}/files=${i}`);
    // 50 measured (the generated bytes are the same), 10 just(js) points skipped on both sides.
    for (const b of scanIds.slice(0, 50))
      c.points.push(
        point(b, { impact: 'affected', changed: true, lead: { ...pairsPoint().lead, verdict: 'unchanged' } }),
      );
    for (const b of scanIds.slice(50))
      for (const side of ['base', 'head'] as const)
        c.notMeasured.push({ benchmark: b, side, status: 'skipped', reason: 'just(js) is not installed' });
    c.points.push(
      point('threadpool/c-pool/copies=200', {
        impact: 'affected',
        changed: true,
        kind: 'process',
        workloadChanged: 'input_file_bytes 1000 → 2000',
        lead: { ...pairsPoint().lead, ratio: 1.96, ci: [1.91, 2.01], verdict: 'slower' },
      }),
    );
    c.added = [
      { benchmark: 'scan/v9/files=1', side: 'head' },
      { benchmark: 'scan/v9/files=2', side: 'head' },
    ];
    c.removed = [{ benchmark: 'scan/v8/files=1', side: 'base' }];
    c.points.push(point('wc/c/bs=4096', { impact: 'control', counters: [] }));
    c.notAffected = [{ benchmark: 'wc/c/bs=16', reason: 'identical' }];
    c.affectedBecause = [...scanIds, 'threadpool/c-pool/copies=200', 'scan/v9/files=1', 'scan/v9/files=2'].map((b) => ({
      benchmark: b,
      reason: 'changed: programs/scan/generate.mjs',
    }));
    const md = renderPairsComparison(c);
    expect(md.split('\n')[0]).toBe(
      '## Performance: 64 affected · 1 not affected · 1 control — 0 slower · 0 faster · 50 unchanged · 0 inconclusive · 1 workload changed · 2 added · 1 removed · 10 not measured',
    );
    expect(sum(firstLine(md).answers)).toBe(64);
    // The changed workload is measured, said at the top with its change; a whole process of other work is no regression for `slower`.
    expect(md).toContain('**Workload changed** on 1 point');
    expect(md).toContain('- threadpool c-pool: workload changed: +96 % (+91 … +101 %) — input_file_bytes 1000 → 2000');
    expect(md.indexOf('**Workload changed**')).toBeLessThan(md.indexOf('**Merge check'));
    expect(summarize(c, { text: 'slower', broken: false, slower: 0 }).outcome.fail).toBe(false);
    // Ten points were not measured: no bare all-clear.
    expect(md).not.toContain('No regression found.');
    expect(md).toContain('No regression found among the 51 points measured; 10 affected points were not measured');
  });

  it('an affected point with no answer at all is said, counted, and stops the all-clear', () => {
    const c = pairsComparison([
      point('scan/a/x=1', { impact: 'affected', lead: { ...pairsPoint().lead, verdict: 'unchanged' } }),
    ]);
    c.notAffected = [];
    c.affectedBecause = [
      { benchmark: 'scan/a/x=1', reason: 'changed' },
      { benchmark: 'scan/b/x=1', reason: 'changed' },
    ];
    const md = renderPairsComparison(c);
    expect(md.split('\n')[0]).toBe(
      '## Performance: 2 affected · 0 not affected · 0 control — 0 slower · 0 faster · 1 unchanged · 0 inconclusive · ⚠️ 1 unanswered',
    );
    expect(md).toContain('**1 affected point got no answer**');
    expect(md).not.toContain('No regression found');
  });
});
