// URL state round-trips, so a permalink opens exactly the same view.
import { describe, expect, it } from 'vitest';
import { parseHash, type State, toHash } from '../src/state.js';

// The names are the caller's (views/index.ts's route gives its views').
const VIEWS = ['overview', 'trends', 'sweeps', 'compare', 'regressions'];

describe('URL state', () => {
  it.each<State>([
    { view: 'overview' },
    {
      view: 'trends',
      machine: 'bench-1-abc',
      experiment: 'wc',
      metric: 'wall_time',
      chart: 'wall_time|bs=65536',
      log: true,
    },
    { view: 'sweeps', machine: 'm', experiment: 'wc', commit: 'a'.repeat(40), vs: 'b'.repeat(40) },
    { view: 'compare', machine: 'm', base: 'abc', head: 'def' },
    { view: 'trends', machine: 'm', profile: 'smoke', experiment: 'wc', metric: 'read_cost', older: 2 },
    { view: 'regressions', machine: 'm', profile: 'standard', experiment: 'records' },
  ])('round-trips %j', (s) => {
    expect(parseHash(toHash(s), VIEWS)).toEqual(s);
  });

  it('falls back to the first view for unknown views', () => {
    expect(parseHash('#/nonsense?machine=x', VIEWS)).toEqual({ view: 'overview', machine: 'x' });
    expect(parseHash('', VIEWS)).toEqual({ view: 'overview' });
  });
});
