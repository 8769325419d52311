// PR_FAIL_ON=broken,slower,slower>50% silently kept the last of its two regression rules. Two
// rules for regressions conflict: the rule is refused in one line naming both.
import { describe, expect, it } from 'vitest';
import { parseGateRule } from '../../../src/pairs/decide/merge-gate.js';

describe('the merge rule', () => {
  it.each([
    ['broken,slower,slower>50%', 'slower and slower>50%'],
    ['slower>5%,slower>10%', 'slower>5% and slower>10%'],
  ])('refuses %s: conflicting regression rules', (text, both) => {
    expect(() => parseGateRule(text)).toThrow(`--fail-on ${JSON.stringify(text)}: conflicting rules ${both}; give one`);
  });

  it('still takes one regression rule', () => {
    expect(parseGateRule('broken,slower>50%')).toEqual({ text: 'broken,slower>50%', broken: true, slower: 0.5 });
  });
});
