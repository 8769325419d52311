// Values as the site, summaries and comments print them: thousands grouped as en-US writes them
// (without ICU, which a fresh page pays for at its first chart), units scaled.
import { describe, expect, it } from 'vitest';
import { compareText } from '../../src/lib/compare-text.js';
import { formatValue, groupDigits } from '../../src/lib/format.js';

describe('groupDigits', () => {
  it('writes an integer as toLocaleString("en-US") does, at every size', () => {
    for (const n of [0, 7, 999, 1000, -1000, 1234567, -987654321, 2 ** 53, 1e21])
      expect(groupDigits(n)).toBe(n.toLocaleString('en-US'));
  });
});

describe('formatValue of counts and rates', () => {
  it('groups whole counts and rounded large rates', () => {
    expect(formatValue(1045, 'calls')).toBe('1,045');
    expect(formatValue(12, 'count')).toBe('12');
    expect(formatValue(1234567.4, 'lines/s')).toBe('1,234,567 lines/s');
    expect(formatValue(2048, 'files')).toBe('2,048 files');
    expect(formatValue(12.345678, 'files')).toBe('12.35 files');
  });
});

describe('compareText', () => {
  it('orders by code point, whatever the locale', () => {
    expect(['node-b', 'Z', 'bun', 'node', 'c'].sort(compareText)).toEqual(['Z', 'bun', 'c', 'node', 'node-b']);
    expect(compareText('a', 'a')).toBe(0);
  });
});
