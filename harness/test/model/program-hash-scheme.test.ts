// A program hash names how it was computed: when the identity's definition changes (a new scheme),
// every hash changes at once with no program changed, and a trend must not mark that commit.
import { describe, expect, it } from 'vitest';
import { hashScheme, programChanges } from '../../src/formats/parts/store-layout.js';

describe('program hashes by scheme', () => {
  it('reads the scheme of a hash; a bare hash is the first scheme', () => {
    expect(hashScheme('0123456789ab')).toBe('i1');
    expect(hashScheme('i2-0123456789ab')).toBe('i2');
  });

  it('marks a change only between two hashes of one scheme', () => {
    expect(programChanges(['aaaaaaaaaaaa', 'i2-aaaa', 'i2-aaaa', 'i2-bbbb'])).toEqual([3]);
    expect(programChanges(['aaaaaaaaaaaa', 'bbbbbbbbbbbb', 'i2-aaaa'])).toEqual([1]);
    expect(programChanges(['i2-aaaa', null, 'i2-bbbb'])).toEqual([2]);
  });
});
