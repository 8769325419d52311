// A change's two profiles: the functions whose self time changed, or why there are none. Self
// times from V8's profiler and from perf do not compare; a release profiled with perf because its
// runtime refused V8's flags says so.
import { describe, expect, it } from 'vitest';
import { changeProfile } from '../../src/releases/sweeps/profile-change.js';

const c = { from: '2.6.6', to: '2.6.7' };
const times = (entries: [string, number][]) => new Map(entries);

describe('changeProfile', () => {
  it('compares the self times of two profiles by one tool, saying why that tool was used', () => {
    const p = changeProfile(
      c,
      {
        tool: 'perf',
        times: times([['uv__work_done', 10]]),
        note: "2.6.6: V8's --cpu-prof: profiled run exited with status 1, so perf ran",
      },
      { tool: 'perf', times: times([['uv__work_done', 30]]) },
    );
    expect(p.tool).toBe('perf');
    expect(p.functions.map((f) => f.name)).toEqual(['uv__work_done']);
    expect(p.note).toMatch(/^2\.6\.6: V8's --cpu-prof: profiled run exited with status 1, so perf ran$/);
  });

  it('does not compare a V8 profile with a perf one', () => {
    const p = changeProfile(
      c,
      { tool: 'perf', times: times([['a', 10]]), note: '2.6.6: refused' },
      { tool: 'v8-cpu-prof', times: times([['a', 30]]) },
    );
    expect(p.functions).toEqual([]);
    expect(p.note).toMatch(/different tools \(2\.6\.6: perf, 2\.6\.7: v8-cpu-prof; 2\.6\.6: refused\)/);
  });

  it("says why when a release has no profile, and keeps a note within the store's cap", () => {
    const p = changeProfile(c, { tool: 'v8-cpu-prof', note: `2.6.6: ${'x'.repeat(2000)}` }, undefined);
    expect(p).toMatchObject({ tool: 'v8-cpu-prof', functions: [] });
    expect(p.note?.length).toBe(1000);
  });
});
