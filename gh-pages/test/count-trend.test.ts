// Counted work on the Trends view: which metric is drawn beside a timing, how a line and a commit
// say their count is no figure to act on, and the note under a work chart.
import { describe, expect, it } from 'vitest';
import type { CountFacts } from '../../harness/src/formats/parts/store-layout.js';
import { COUNT_METRICS, HARNESS_METRICS, harnessMetric } from '../../harness/src/model/metrics.js';
import { countChartNote, countLabel, countMetric, factNote, isCountMetric } from '../src/views/count-trend.js';

const decides: CountFacts = { role: 'decides', deterministic: true, settings: 'as compiled' };
const unsteady: CountFacts = { ...decides, deterministic: false };
const evidence: CountFacts = { ...decides, role: 'evidence', because: 'a cold-cache point' };

describe('countMetric', () => {
  it('draws per operation where there is one, else per run, else nothing', () => {
    expect(countMetric(['wall_time', 'instructions', 'instructions_per_op'])).toBe('instructions_per_op');
    expect(countMetric(['wall_time', 'instructions'])).toBe('instructions');
    expect(countMetric(['wall_time', 'syscalls.total'])).toBeUndefined();
  });

  it("takes the counted metrics from the harness's catalogue: its kind work, per operation by its flag", () => {
    expect(COUNT_METRICS).toEqual(Object.keys(HARNESS_METRICS).filter((m) => harnessMetric(m)?.kind === 'work'));
    expect(COUNT_METRICS).toEqual(['instructions', 'instructions_per_op']);
    // The catalogue declares per run first; the flag, not the order, makes per operation the one drawn.
    expect(countMetric([...COUNT_METRICS])).toBe('instructions_per_op');
    expect(COUNT_METRICS.filter((m) => harnessMetric(m)?.perOperation)).toEqual(['instructions_per_op']);
  });

  it('knows work by the metric catalogue, not by name', () => {
    expect(['instructions', 'instructions_per_op', 'wall_time', 'syscalls.total'].map(isCountMetric)).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});

describe('a count that is no figure to act on', () => {
  it('is said per commit in the tooltip', () => {
    expect([decides, unsteady, evidence, null].map(factNote)).toEqual([
      null,
      'not deterministic: its repeated counts disagreed',
      'evidence only: a cold-cache point',
      null,
    ]);
  });

  it('marks a line by its newest count', () => {
    expect(countLabel('c', [decides, decides])).toBe('c');
    expect(countLabel('node-stream (node20)', [decides, unsteady, null])).toBe(
      'node-stream (node20) (not deterministic)',
    );
    expect(countLabel('node-stream (node20)', [unsteady, decides])).toBe('node-stream (node20)');
    expect(countLabel('c-pool', [evidence])).toBe('c-pool (evidence only)');
    expect(countLabel('c', undefined)).toBe('c');
  });
});

describe('countChartNote', () => {
  it('says what counts cover, their settings, and which lines are no trend to act on', () => {
    const note = countChartNote([
      { label: 'c', counts: [decides, decides] },
      {
        label: 'node-stream (node20)',
        counts: [
          { ...decides, settings: 'V8 made predictable' },
          { ...unsteady, settings: 'V8 made predictable' },
        ],
      },
      { label: 'c-pool', counts: [evidence] },
    ]);
    expect(note).toContain('kernel work is not in them (the system calls stand for it)');
    expect(note).toContain('A step is called only beyond 1% between two counts that decide and repeated.');
    expect(note).toContain('Counted with: as compiled (c, c-pool); V8 made predictable (node-stream (node20)).');
    expect(note).toContain('Evidence only, no trend to act on: c-pool.');
    expect(note).toContain('Counts that did not repeat (no step is called on them): node-stream (node20) at 1 commit.');
  });

  it('says nothing of evidence or repeats where every count decides and repeated', () => {
    const note = countChartNote([{ label: 'c', counts: [decides] }]);
    expect(note).not.toContain('Evidence');
    expect(note).not.toContain('did not repeat');
  });
});
