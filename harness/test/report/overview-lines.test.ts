// The Overview's first picture is not a tangle (report/overview-model.ts): at most MAX_SHOWN lines
// are drawn by default (the references and the lines the answer names), and the answer gives each
// line it names its own value, or a group's range, never "x and N more" for different values.
import { describe, expect, it } from 'vitest';
import { Overview } from '../../src/formats/manifest-format.js';
import { MAX_SHOWN, overviewModel } from '../../src/report/overview-model.js';

type P = Parameters<typeof overviewModel>[2][number];
const point = (variant: string, bs: number, value: number, spread: number): P => ({
  variant,
  params: { bs },
  status: 'ok',
  metrics: {
    read_cost: {
      value,
      unit: 'ns',
      direction: 'smaller',
      samples: [value * (1 - spread), value, value * (1 + spread)],
    },
  },
});

const wc = Overview.parse({
  x: 'bs',
  metric: 'read_cost',
  references: [{ variant: 'c', label: 'C' }],
  answer: { kind: 'reference', to: 'c' },
});

describe('the lines an Overview chart draws', () => {
  // Fourteen variants, their intervals wide (three samples each) and overlapping: one group.
  const variants = Array.from({ length: 14 }, (_, i) => `v${String(i).padStart(2, '0')}`);
  const runs = [4096, 65536].flatMap((bs) => [
    point('c', bs, 100, 0.01),
    ...variants.map((v, i) => point(v, bs, 110 + i * 25, 0.6)),
  ]);
  const m = overviewModel(wc, { bs: { unit: 'B' } }, runs)!;
  const lines = m.panels[0]!.lines;

  it(`draws at most ${MAX_SHOWN} by default, the reference and the named ones among them`, () => {
    const shown = lines.filter((l) => !l.hidden);
    expect(shown.length).toBeLessThanOrEqual(MAX_SHOWN);
    expect(shown.map((l) => l.label)).toContain('C (c)');
    expect(lines.length).toBe(15);
    for (const name of ['v00', 'v13']) expect(shown.map((l) => l.label)).toContain(name);
  });

  it('says a large group as the range of its values, with the lines at its ends', () => {
    expect(m.answer).not.toMatch(/and \d+ more/);
    expect(m.answer).toMatch(
      /^At 64 KiB, read_cost is 1\.10x–4\.35x of C's for 14 lines whose intervals overlap \(v00 to v13\)\.$/,
    );
  });

  it('names a small group each with its own value', () => {
    const few = overviewModel(wc, { bs: { unit: 'B' } }, [
      point('c', 65536, 100, 0.01),
      point('bun', 65536, 107, 0.2),
      point('deno', 65536, 150, 0.2),
      point('node', 65536, 440, 0.01),
    ])!;
    expect(few.answer).toBe("At 64 KiB, read_cost is 1.07x of C's for bun and 1.50x for deno, and 4.40x for node.");
    expect(few.panels[0]!.lines.every((l) => !l.hidden)).toBe(true);
  });
});
