// Counts both harnesses make of a point, compared and rendered (pure; the real counting is in
// measure-harness-shift.integration.test.ts).
import { describe, expect, it } from 'vitest';
import type { Benchmark } from '../../../src/formats/results-format.js';
import { countedValues, shiftWork } from '../../../src/pairs/harness-shift/shift-counts.js';
import { workLine } from '../../../src/pairs/harness-shift/shift-section.js';

const benchmarkOf = (metrics: Benchmark['metrics'], extra: Partial<Benchmark> = {}) =>
  ({ id: 'wc/c/bs=4096', status: 'ok', metrics, ...extra }) as unknown as Benchmark;
const per = (samples: number[]) => ({ value: samples[0]!, unit: 'instructions', samples }) as never;

describe('countedValues', () => {
  it("takes a fit's instructions per operation, else the run's instructions, with each repeat", () => {
    expect(countedValues(benchmarkOf({ instructions_per_op: per([17, 17]), instructions: per([900]) }))).toEqual({
      metric: 'instructions_per_op',
      values: [17, 17],
    });
    expect(countedValues(benchmarkOf({ instructions: per([900, 901]) }))).toEqual({
      metric: 'instructions',
      values: [900, 901],
    });
  });

  it('says why there is no count', () => {
    expect(countedValues(undefined)).toEqual({ reason: 'the point is missing from its results' });
    expect(countedValues(benchmarkOf({}, { status: 'failed', reason: 'exit 1' } as never))).toEqual({
      reason: 'failed: exit 1',
    });
    expect(
      countedValues(benchmarkOf({}, { counts: { status: 'unavailable', reason: 'no valgrind' } } as never)),
    ).toEqual({
      reason: 'no valgrind',
    });
    expect(countedValues(benchmarkOf({}))).toEqual({ reason: 'not counted' });
  });
});

describe('shiftWork', () => {
  const v = (values: number[]) => ({ metric: 'instructions_per_op', values });

  it('the same counts are the same work; different ones beyond the tolerance are a change', () => {
    expect(shiftWork('p', v([17]), v([17]))).toMatchObject({ verdict: 'same', base: 17, head: 17 });
    const changed = shiftWork('p', v([17]), v([3000]));
    expect(changed).toMatchObject({ verdict: 'changed', base: 17, head: 3000 });
    expect(workLine(changed)).toBe(
      '- p: ⚠️ work changed, 17 instructions per operation → 3,000 instructions per operation (+17547.1 %)',
    );
  });

  it("a count that does not decide (Node 20's per operation, a cold cache) is shown as evidence, never as a warning", () => {
    const node20 = countedValues(
      benchmarkOf({ instructions_per_op: per([4217]) }, {
        counts: { status: 'ok', role: 'evidence', because: "Node 20's <i>count</i> moves" },
      } as never),
    );
    expect(node20).toMatchObject({ evidence: "Node 20's <i>count</i> moves" });
    const w = shiftWork('wc/node-stream/bs=2048', node20, v([4174]));
    expect(w).toMatchObject({ verdict: 'changed', evidence: "Node 20's <i>count</i> moves" });
    expect(workLine(w)).toBe(
      "- wc/node-stream/bs=2048: work changed, 4,217 instructions per operation → 4,174 instructions per operation (−1.0 %) (evidence only: Node 20's &lt;i&gt;count&lt;/i&gt; moves)",
    );
  });

  it('repeats that disagree are not deterministic; a side without a count is not counted, with why', () => {
    expect(shiftWork('p', v([100, 200]), v([100, 100]))).toMatchObject({ verdict: 'not-deterministic' });
    const missing = shiftWork('p', v([17]), { reason: 'failed: <b>exit</b>' });
    expect(missing).toEqual({ benchmark: 'p', verdict: 'not-counted', reason: 'head: failed: <b>exit</b>' });
    // Strings from the results are escaped where they are rendered.
    expect(workLine(missing)).not.toContain('<b>');
    expect(shiftWork('p', v([17]), { metric: 'instructions', values: [17] })).toMatchObject({ verdict: 'not-counted' });
  });
});
