// The comment names a path only the base's trace saw, as the reason its point is affected: the
// trusted plan's reasons carried into the diff's impact plan (widenToTrusted), then rendered.
import { describe, expect, it } from 'vitest';
import type { DiffPlan } from '../../../src/formats/diff-plan-format.js';
import { renderPairsComparison } from '../../../src/pairs/comment/comment.js';
import { type ImpactPlan, reasonLine } from '../../../src/pairs/decide/impact.js';
import { widenToTrusted } from '../../../src/pairs/diff/what-to-measure.js';
import { pairsComparison, pairsPoint } from '../../helpers/pairs.js';

describe('a path seen only by tracing in the comment', () => {
  it('is the reason its point is affected, with the path, escaped', () => {
    const own: ImpactPlan = { measure: new Map(), affected: new Map(), notAffected: [] };
    const trusted: DiffPlan = {
      schema: 3,
      kind: 'pairs-plan',
      base: { root: '/b', commit: 'a' },
      head: { root: '/h', commit: 'b' },
      profile: 'quick',
      affected: [{ benchmark: 'wc/c/bs=4096', reasons: ['seen only by tracing: programs/wc/x|y.json'] }],
      control: [],
      notAffected: [],
      harnessChange: { changed: false, files: [], why: '' },
    };
    widenToTrusted(own, trusted, () => {});
    const c = pairsComparison([pairsPoint({ benchmark: 'wc/c/bs=4096', impact: 'affected' })]);
    c.notAffected = [];
    c.affectedBecause = [...own.affected].map(([benchmark, reasons]) => ({ benchmark, reason: reasonLine(reasons) }));
    const md = renderPairsComparison(c);
    expect(md).toContain("the base's analysis: seen only by tracing: programs/wc/x\\|y.json — 1 point: wc/c");
  });
});
