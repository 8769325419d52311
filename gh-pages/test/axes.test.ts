// Tick labels are unique and meaningful: pure functions, so checked exhaustively here
// and in chromium by site-day.e2e.test.ts.
import { describe, expect, it } from 'vitest';
import { axisUnit, commitLabels, commitSplits, xAxis, xTickLabels, yTickLabels } from '../src/charts/axes.js';

describe('commit ticks', () => {
  const day = ['2026-11-24T09:00:00Z', '2026-11-24T10:30:00Z', '2026-11-24T12:00:00Z'];
  it('are whole commits, as many as fit', () => {
    expect(commitSplits(3, -0.5, 2.5, 900)).toEqual([0, 1, 2]);
    expect(commitSplits(100, 0, 99, 450).length).toBeLessThanOrEqual(5);
  });
  it('show the date, the time when commits share a day, the order when they share a minute', () => {
    expect(commitLabels(['2026-11-23T09:00:00Z', '2026-11-24T09:00:00Z'], [0, 1])).toEqual(['11-23', '11-24']);
    expect(commitLabels(day, [0, 1, 2])).toEqual(['11-24 09:00', '11-24 10:30', '11-24 12:00']);
    expect(commitLabels([day[0]!, day[0]!], [0, 1])).toEqual(['#1 11-24', '#2 11-24']);
  });
});

describe('x axis of a parameter', () => {
  it('ticks at the measured values: sizes for bytes, whole counts, the unit said once', () => {
    const bs = xAxis('bs', [4096, 16384, 65536], 'B', 900);
    expect(bs.splits.map(bs.format)).toEqual(['4 KiB', '16 KiB', '64 KiB']);
    expect(bs.label).toBe('bs');
    const n = xAxis('n', [0, 10, 20], 'transforms', 900);
    expect(n.splits.map(n.format)).toEqual(['0', '10', '20']);
    expect(n.label).toBe('n (transforms)');
    expect(xAxis('files', [10, 100], 'files', 900).label).toBe('files');
  });
});

describe('ticks uPlot left out (null on a crowded log axis)', () => {
  it('are blank, never "null" or an exception', () => {
    const axis = axisUnit([1e-7, 1e-4], 's');
    expect(yTickLabels([1e-7, null, 1e-6, null, 1e-5], axis, true)).toEqual(['0.10', '', '1.00', '', '10.0']);
    expect(yTickLabels([null, 2e-6, null], axis, false)).toEqual(['', '2.00', '']);
    expect(xTickLabels([256, null, 4096, null, 65536], xAxis('bs', [256, 65536], 'B', 420).format)).toEqual([
      '256 B',
      '',
      '4 KiB',
      '',
      '64 KiB',
    ]);
    expect(commitLabels(['2026-11-23T09:00:00Z', '2026-11-24T09:00:00Z'], [0, null, 1])).toEqual([
      '11-23',
      '',
      '11-24',
    ]);
  });
});

describe('y tick labels', () => {
  it('gain digits until no two read alike', () => {
    const axis = axisUnit([1.0, 1.02], 's');
    const labels = yTickLabels([1.0, 1.005, 1.01, 1.015, 1.02], axis, false);
    expect(new Set(labels).size).toBe(5);
  });
  it('label decades only on a log axis that spans two', () => {
    const axis = axisUnit([1, 100], 'ms');
    expect(yTickLabels([1, 2, 5, 10, 20, 50, 100], axis, true).filter(Boolean)).toEqual(['1.00', '10.0', '100']);
  });
});
