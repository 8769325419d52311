// Every verdict judged again from the pair record by the reader's statistics: what a measuring
// harness writes in comparison.json is a claim, and a false one is named and overruled.
import { describe, expect, it } from 'vitest';
import { parseGateRule } from '../../../src/pairs/decide/merge-gate.js';
import { NO_RECORDED_PAIRS, recomputeVerdicts } from '../../../src/pairs/decide/recompute.js';
import { summarize } from '../../../src/pairs/decide/summarize.js';
import { honestComparison, pairRecord, recordedPoint } from '../../helpers/pair-record.js';

const slow = 'wc/c/bs=4096';
const same = 'wc/c/bs=65536';

describe('recomputeVerdicts', () => {
  it('an honest comparison is judged the same: no disagreement', () => {
    const record = pairRecord([recordedPoint(slow, 1.1), recordedPoint(same, 1.0)]);
    const c = honestComparison(record);
    expect(c.points.map((p) => p.lead.verdict)).toEqual(['slower', 'unchanged']);
    expect(recomputeVerdicts(c, record).disagreements).toEqual([]);
  });

  it('a row that calls a 10 % slowdown unchanged is overruled and named; the rule then fails the check', () => {
    const record = pairRecord([recordedPoint(slow, 1.1), recordedPoint(same, 1.0)]);
    const c = honestComparison(record);
    c.points[0]!.lead = { ...c.points[0]!.lead, verdict: 'unchanged', ratio: 1 };
    expect(summarize(c, parseGateRule('slower')).outcome.fail).toBe(false);
    const r = recomputeVerdicts(c, record);
    expect(r.disagreements).toEqual([
      expect.stringMatching(
        /^wc\/c\/bs=4096: the measuring harness said wall_time unchanged .* where the pairs say wall_time slower \(\+10\.\d %\)/,
      ),
    ]);
    expect(r.comparison.points[0]!.lead.verdict).toBe('slower');
    expect(summarize(r.comparison, parseGateRule('slower')).outcome.fail).toBe(true);
  });

  it("a minimum effect inflated in the record is not taken: the reader's floor or calibration is", () => {
    const record = pairRecord([recordedPoint(slow, 1.1, 20, { minEffect: 0.5 })]);
    const c = honestComparison(record);
    expect(c.points[0]!.lead.verdict).toBe('slower');
    expect(c.points[0]!.minEffect).toBe(0.02);
    // A calibrated threshold above the change makes it no confirmed slowdown.
    expect(recomputeVerdicts(c, record, { threshold: () => 0.2 }).comparison.points[0]!.lead.verdict).not.toBe(
      'slower',
    );
  });

  it('a row without its pairs in the record leaves the rows, listed as not measured', () => {
    const record = pairRecord([recordedPoint(slow, 1.1), recordedPoint(same, 1.0)]);
    const c = honestComparison(record);
    const r = recomputeVerdicts(c, pairRecord([record.points[1]!]));
    expect(r.comparison.points.map((p) => p.benchmark)).toEqual([same]);
    expect(r.comparison.notMeasured).toEqual([expect.objectContaining({ benchmark: slow, reason: NO_RECORDED_PAIRS })]);
    expect(r.disagreements).toEqual([`${slow}: ${NO_RECORDED_PAIRS}`]);
    // Fewer recorded pairs than the row claims is no record of them either.
    const cut = pairRecord([{ ...record.points[0]!, pairs: record.points[0]!.pairs.slice(0, 10) }, record.points[1]!]);
    expect(recomputeVerdicts(c, cut).disagreements).toEqual([`${slow}: ${NO_RECORDED_PAIRS}`]);
  });

  it('counted work is judged from the recorded repeats, not from the verdict written beside them', () => {
    const record = pairRecord(
      [recordedPoint(slow, 1.0)],
      [
        {
          benchmark: slow,
          metric: 'instructions_per_op',
          base: [17, 17, 17],
          head: [20, 20, 20],
          role: 'decides',
          source: { base: 'counted', head: 'counted' },
          settings: 'none',
        },
      ],
    );
    const c = honestComparison(record);
    c.points[0]!.work = {
      status: 'counted',
      metric: 'instructions_per_op',
      unit: 'instructions',
      base: [17, 17, 17],
      head: [20, 20, 20],
      verdict: 'same',
      change: 0,
      spread: 0,
      tolerance: 0.005,
      role: 'decides',
      settings: 'none',
    };
    const r = recomputeVerdicts(c, record);
    expect(r.comparison.points[0]!.work).toMatchObject({ verdict: 'changed' });
    expect(r.disagreements).toEqual([expect.stringContaining('work same where the counts say changed')]);
    expect(summarize(r.comparison, parseGateRule('work>2%')).outcome.fail).toBe(true);
  });
});
