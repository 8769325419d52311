// Which lines a Trends or Sweeps chart draws by default, and the sentence that says so: pure, checked here;
// site-widths.e2e.test.ts checks in chromium that no chart draws more than eight by default.
import { describe, expect, it } from 'vitest';
import { MAX_SHOWN } from '../../harness/src/report/overview-model.js';
import { type Candidate, newest, shownLines, shownSentence } from '../src/views/shown-lines.js';

const line = (label: string, last: number | null, extra: Partial<Candidate> = {}): Candidate => ({
  label,
  values: [1, last],
  direction: 'smaller',
  reference: false,
  changed: false,
  ...extra,
});

describe('a Trends chart of many lines', () => {
  const many = Array.from({ length: 14 }, (_, i) => line(`v${String(i).padStart(2, '0')}`, 10 + i));
  it('draws at most eight by default', () => {
    expect(MAX_SHOWN).toBe(8);
    expect(shownLines(many).filter(Boolean)).toHaveLength(8);
  });
  it('draws the reference and the changed lines first, then the best and the worst inwards', () => {
    const lines = [...many, line('c', 5, { reference: true }), line('moved', 30, { changed: true })];
    const shown = shownLines(lines);
    const drawn = lines.filter((_, i) => shown[i]).map((l) => l.label);
    expect(drawn).toEqual(['v00', 'v01', 'v02', 'v11', 'v12', 'v13', 'c', 'moved']);
  });
  it('ranks by the direction: bigger is better puts the biggest first', () => {
    const lines = [line('a', 1), line('b', 2), line('c', 3)].map((l) => ({ ...l, direction: 'bigger' as const }));
    expect(shownLines(lines, 1)).toEqual([false, false, true]);
  });
  it('leaves a line with no value in the window in the legend', () => {
    expect(shownLines([line('a', 1), { ...line('gone', null), values: [null, null] }])).toEqual([true, false]);
  });
  it('draws every line of a chart of eight or fewer', () => {
    expect(shownLines(many.slice(0, 8)).every(Boolean)).toBe(true);
  });
});

describe('the sentence under a Trends chart', () => {
  it('names each drawn line with its own value and the rest as one range', () => {
    const lines = [line('c', 0.001, { reference: true }), line('a', 0.002), line('b', 0.003), line('d', 0.004)];
    const s = shownSentence(lines, [true, true, false, false], 's');
    expect(s).toBe(
      "Drawn, at each line's newest commit: c 1.00 ms (reference), a 2.00 ms. 2 more lines in the legend (greyed; 3.00 ms to 4.00 ms at each line's newest commit): click a name to draw it.",
    );
    expect(s).not.toMatch(/and \d+ more/);
  });
  it('says one line and one value when one is left out', () => {
    expect(shownSentence([line('a', 2), line('b', 3)], [true, false], 'ms', 'at the largest bs')).toMatch(
      /1 more line in the legend \(greyed; 3.* at the largest bs\)/,
    );
  });
  it('takes the newest value a line has in the window', () => {
    expect(newest([1, 2, null])).toBe(2);
    expect(newest([null])).toBeUndefined();
  });
});
