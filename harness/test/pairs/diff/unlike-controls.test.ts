// Which control points make a diff's counts untrusted: only one whose counts decide (deterministic
// runtimes) and that counted deterministically on each side yet differently. A control whose runtime's
// counts vary from run to run (evidence only) cannot say the sides count unalike.
import { describe, expect, it } from 'vitest';
import { unlikeControls } from '../../../src/pairs/diff/count-stage.js';
import type { PointWork } from '../../../src/pairs/engine/count-sides.js';

const counted = (role: 'decides' | 'evidence', kind: 'changed' | 'same'): PointWork => ({
  status: 'counted',
  metric: 'instructions',
  unit: 'instructions',
  base: [150_447_931, 150_799_093],
  head: [149_104_309, 148_983_709],
  verdict: { kind, base: 150_600_000, head: 149_000_000, change: kind === 'changed' ? -0.0105 : 0 },
  role,
  settings: 'test',
  seconds: 1,
  runs: { base: [], head: [] },
});

describe('unlike controls', () => {
  it('a deciding control that changed makes the counts untrusted; an evidence-only one does not', () => {
    const plans = [
      { id: 'records/c/op=write', impact: 'control' as const },
      { id: 'records/stream/runtime=bun', impact: 'control' as const },
      { id: 'wc/c/bs=4096', impact: 'affected' as const },
    ];
    const work = new Map<string, PointWork>([
      ['records/c/op=write', counted('decides', 'same')],
      ['records/stream/runtime=bun', counted('evidence', 'changed')],
      ['wc/c/bs=4096', counted('decides', 'changed')],
    ]);
    expect(unlikeControls(plans, work)).toEqual([]);
    work.set('records/c/op=write', counted('decides', 'changed'));
    expect(unlikeControls(plans, work).map((p) => p.id)).toEqual(['records/c/op=write']);
    work.set('records/c/op=write', { status: 'not-counted', reason: 'no valgrind' });
    expect(unlikeControls(plans, work)).toEqual([]);
  });
});
