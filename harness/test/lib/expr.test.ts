// The manifests' arithmetic language and command templates.
import { describe, expect, it } from 'vitest';
import { evaluate, fillTemplate, referencedNames } from '../../src/lib/expr.js';

describe('evaluate', () => {
  it.each([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['max(1, floor(min(100, bs * 3) / bs))', 3],
    ['ceil(bytes / bs)', 4],
    ['-bs + 10 % 4', -30],
    ['pow(2, log2(bs))', 32],
  ])('%s = %d', (src, want) => {
    expect(evaluate(src, { bs: 32, bytes: 100 })).toBe(want);
  });

  it('names an unknown variable and lists the known ones', () => {
    expect(() => evaluate('bs * n', { bs: 1 })).toThrow('expression "bs * n": unknown name "n" (known: bs)');
  });

  it('refuses code', () => {
    expect(() => evaluate('process.exit(1)', {})).toThrow(/unknown function "process.exit"/);
    expect(() => evaluate('1; 2', {})).toThrow(/unexpected character/);
  });

  it('lists referenced names, not functions', () => {
    expect(referencedNames('floor(max_bytes / bs) + count')).toEqual(['max_bytes', 'bs', 'count']);
  });
});

describe('fillTemplate', () => {
  it('quotes values', () => {
    expect(fillTemplate('{bin} {bs}', { bin: '/a b/c', bs: 4096 }, (s) => `'${s}'`)).toBe("'/a b/c' '4096'");
  });

  it('names an unknown placeholder', () => {
    expect(() => fillTemplate('{nope}', { bs: 1 }, (s) => s)).toThrow(
      'command template "{nope}": unknown placeholder {nope} (known: bs)',
    );
  });
});
