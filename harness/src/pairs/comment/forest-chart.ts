/**
 * A small forest plot of the points a reader should look at: each row's paired ratio (●) and its
 * interval (─), on one axis, with no change marked (│). Plain text for a fenced code block: a
 * GitHub comment shows no SVG data URI and no script, and an image hosted elsewhere would be a
 * request the artifact chooses; text renders everywhere and cannot inject anything (labels are
 * reduced to a safe alphabet, and no line can close the fence).
 */

export interface ForestRow {
  label: string;
  ratio: number;
  ci: [number, number];
}

const WIDTH = 41;

/** The axis' half-width: the largest deviation shown, rounded up to 5%, 10%, 20%, 50% or 100%. */
function axisSpan(rows: readonly ForestRow[]): number {
  const dev = Math.max(0.05, ...rows.flatMap((r) => [r.ci[0], r.ci[1], r.ratio].map((x) => Math.abs(x - 1))));
  return [0.05, 0.1, 0.2, 0.5, 1].find((s) => dev <= s) ?? 1;
}

const pct = (r: number) => `${r >= 1 ? '+' : '−'}${(Math.abs(r - 1) * 100).toFixed(1)}%`;

/** Labels keep letters, digits and a few separators: the chart is code, and nothing in it may end the fence. */
const safeLabel = (s: string, n: number) =>
  s
    .replace(/[^\w .,=:/+-]/g, '?')
    .slice(0, n)
    .padEnd(n);

/** The chart's lines (without the fence), or none when no row has an interval. */
export function forestChart(rows: readonly ForestRow[], maxRows = 12): string[] {
  const shown = rows.filter((r) => [r.ratio, ...r.ci].every(Number.isFinite)).slice(0, maxRows);
  if (!shown.length) return [];
  const span = axisSpan(shown);
  const col = (r: number) => Math.round(((Math.max(-span, Math.min(span, r - 1)) + span) / (2 * span)) * (WIDTH - 1));
  const labelWidth = Math.min(44, Math.max(...shown.map((r) => r.label.length)));
  const zero = col(1);
  const lines = shown.map((r) => {
    const track: string[] = Array.from({ length: WIDTH }, (_, i) => (i === zero ? '│' : ' '));
    const [a, b] = [col(r.ci[0]), col(r.ci[1])];
    for (let i = a; i <= b; i++) track[i] = '─';
    // An interval beyond the axis is marked at its edge.
    if (r.ci[0] - 1 < -span) track[0] = '◂';
    if (r.ci[1] - 1 > span) track[WIDTH - 1] = '▸';
    // A centre beyond the axis is an arrow at its edge (the figures beside it say how far).
    const off = r.ratio - 1 > span ? '▸' : r.ratio - 1 < -span ? '◂' : '●';
    track[col(r.ratio)] = off;
    return `${safeLabel(r.label, labelWidth)} ${track.join('')} ${pct(r.ratio)} (${pct(r.ci[0])} … ${pct(r.ci[1])})`;
  });
  const axis = Array.from({ length: WIDTH }, () => ' ');
  const put = (at: number, text: string) => {
    const start = Math.max(0, Math.min(WIDTH - text.length, at - Math.floor(text.length / 2)));
    for (const [k, ch] of [...text].entries()) axis[start + k] = ch;
  };
  put(0, `−${span * 100}%`);
  put(zero, '0');
  put(WIDTH - 1, `+${span * 100}%`);
  return [`${' '.repeat(labelWidth)} ${axis.join('')}`, ...lines];
}
