// A fit's count per operation is the difference of two sizes' totals over their operations'. Two
// totals whose difference is negative, or no more than the repeats' own spread, measure no cost:
// the point keeps the two totals and says "not measurable at this span" instead of a number.
// Fixtures: wc-c's real totals (137,259 at 256 reads, 141,611 at 512) and Deno's readsync totals
// from the smoke run that showed "-212,126 instructions per read".
import { describe, expect, it } from 'vitest';
import { pointCounts, spanOf } from '../../src/counts/count-rule.js';

describe('spanOf', () => {
  it('a difference above the repeats’ spread is a cost per operation', () => {
    expect(spanOf({ ops: 256, totals: [137_259] }, { ops: 512, totals: [141_611, 141_611] })).toEqual({
      perOp: 17,
    });
  });

  it('a negative difference is not measurable, with both totals', () => {
    // Deno's readsync at 16 and 64 MiB: the larger size counted 162.9 M fewer (a collection moved).
    expect(spanOf({ ops: 256, totals: [314_800_000] }, { ops: 1024, totals: [151_900_000, 151_893_000] })).toEqual({
      unmeasurable: {
        why: 'negative',
        small: { ops: 256, instructions: 314_800_000 },
        large: { ops: 1024, instructions: 151_896_500 },
        spread: 7_000,
      },
    });
  });

  it('a difference within the repeats’ spread is not measurable, and says the spread', () => {
    const s = spanOf(
      { ops: 256, totals: [100_000_000, 100_300_000] },
      { ops: 1024, totals: [100_400_000, 100_200_000] },
    );
    expect(s).toEqual({
      unmeasurable: {
        why: 'within-spread',
        small: { ops: 256, instructions: 100_150_000 },
        large: { ops: 1024, instructions: 100_300_000 },
        spread: 300_000,
      },
    });
  });
});

describe('pointCounts', () => {
  const fitRuns = (small: number, large: number[]) => [
    { size: 'small' as const, instructions: small, x: 256 },
    ...large.map((instructions) => ({ size: 'large' as const, instructions, x: 1024 })),
  ];

  it('keeps a measurable count per operation', () => {
    expect(pointCounts(fitRuns(137_259, [150_315, 150_315]))).toMatchObject({ perOp: 17, spread: 0, repeats: 1 });
  });

  it('gives no count per operation where the larger size counted fewer, only the two totals', () => {
    const w = pointCounts(fitRuns(152_400_000, [150_000_000, 150_000_100]))!;
    expect(w.perOp).toBeUndefined();
    expect(w.unmeasurable).toEqual({
      why: 'negative',
      small: { ops: 256, instructions: 152_400_000 },
      large: { ops: 1024, instructions: 150_000_050 },
      spread: 100,
    });
  });

  it('gives no count per operation where the difference is within the larger size’s repeats', () => {
    const w = pointCounts(fitRuns(100_000_000, [99_900_000, 100_300_000]))!;
    expect(w.perOp).toBeUndefined();
    expect(w.unmeasurable?.why).toBe('within-spread');
  });
});
