// A confidence level prints with the digits it needs, and never as "100%" (a confirmed
// release change was printed "100% CI" for a 99.95% interval).
import { describe, expect, it } from 'vitest';
import { formatConfidence } from '../../src/lib/format.js';
import type { Candidate } from '../../src/releases/judge/changes.js';
import { changeText } from '../../src/releases/sweeps/find-changes.js';

describe('formatConfidence', () => {
  it('keeps the digits that tell the level apart from 100%', () => {
    expect(formatConfidence(0.95)).toBe('95');
    expect(formatConfidence(0.975)).toBe('97.5');
    expect(formatConfidence(0.99)).toBe('99');
    expect(formatConfidence(0.9995)).toBe('99.95');
    expect(formatConfidence(0.999964)).toBe('99.9964');
    expect(formatConfidence(0.99999999)).not.toBe('100');
  });

  it('reaches the text of a confirmed release change', () => {
    const series = {
      family: 'deno' as const,
      line: 'deno',
      experiment: 'threadpool',
      variant: 'deno',
      params: { work: 'read', cache: 'warm' },
      metric: 'latency_p50',
      unit: 'ms',
      direction: 'smaller' as const,
      points: [],
    };
    const c: Candidate = { series, from: '2.6.6', to: '2.6.7', ratio: 1.45, before: 12.9, after: 24.1 };
    const conf = {
      pairs: 10,
      change: 0.727,
      ci: [0.417, 1.217] as [number, number],
      level: formatConfidence(0.9995),
      verdict: 'slower',
      confirmed: true,
    };
    expect(changeText(c, conf)).toBe(
      'deno 2.6.6 → 2.6.7: threadpool deno work read cache warm latency_p50 +73% (99.95% CI +42% … +122%), confirmed by 10 pairs (the release timeline showed +45%)',
    );
  });
});
