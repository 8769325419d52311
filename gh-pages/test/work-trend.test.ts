// Counted work on the Trends view: which metric is drawn beside a timing, how a line and a commit
// say their count is no figure to act on, and the note under a work chart.
import { describe, expect, it } from 'vitest';
import type { CountFacts } from '../../harness/src/formats/parts/store-layout.js';
import { HARNESS_METRICS } from '../../harness/src/model/metrics.js';
import { factNote, isWork, workChartNote, workLabel, workMetric } from '../src/views/work-trend.js';
import { WORK_METRICS } from '../src/work-metric.js';

const decides: CountFacts = { role: 'decides', deterministic: true, settings: 'as compiled' };
const unsteady: CountFacts = { ...decides, deterministic: false };
const evidence: CountFacts = { ...decides, role: 'evidence', because: 'a cold-cache point' };

describe('workMetric', () => {
  it('draws per operation where there is one, else per run, else nothing', () => {
    expect(workMetric(['wall_time', 'instructions', 'instructions_per_op'])).toBe('instructions_per_op');
    expect(workMetric(['wall_time', 'instructions'])).toBe('instructions');
    expect(workMetric(['wall_time', 'syscalls.total'])).toBeUndefined();
  });

  it('names every work metric of the catalogue, and no other', () => {
    const work = Object.entries(HARNESS_METRICS).filter(([, m]) => m.kind === 'work');
    expect([...WORK_METRICS].sort()).toEqual(work.map(([name]) => name).sort());
  });

  it('knows work by the metric catalogue, not by name', () => {
    expect(['instructions', 'instructions_per_op', 'wall_time', 'syscalls.total'].map(isWork)).toEqual([
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
    expect(workLabel('c', [decides, decides])).toBe('c');
    expect(workLabel('node-stream (node20)', [decides, unsteady, null])).toBe(
      'node-stream (node20) (not deterministic)',
    );
    expect(workLabel('node-stream (node20)', [unsteady, decides])).toBe('node-stream (node20)');
    expect(workLabel('c-pool', [evidence])).toBe('c-pool (evidence only)');
    expect(workLabel('c', undefined)).toBe('c');
  });
});

describe('workChartNote', () => {
  it('says what counts cover, their settings, and which lines are no trend to act on', () => {
    const note = workChartNote([
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
    const note = workChartNote([{ label: 'c', counts: [decides] }]);
    expect(note).not.toContain('Evidence');
    expect(note).not.toContain('did not repeat');
  });
});
