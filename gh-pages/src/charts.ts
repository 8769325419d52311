/** uPlot charts: trends across commits (with change points), sweeps over a parameter, overview pictures. */
import uPlot from 'uplot';
import { formatValue } from '../../harness/src/lib/format.js';

const COLORS = [
  '#1f77b4',
  '#d62728',
  '#2ca02c',
  '#ff7f0e',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#17becf',
  '#7f7f7f',
  '#bcbd22',
  '#393b79',
  '#637939',
];
export const color = (i: number) => COLORS[i % COLORS.length]!;
/** Reference lines (C, the pipe's ceiling): dark and neutral, distinct from the variants. */
const REFERENCE_COLORS = ['#111827', '#6b7280', '#a16207'];

/**
 * One unit for a whole axis, chosen from the largest value it shows: ticks are plain numbers in
 * that unit and the unit is said once, in the axis label (never "0.0 µs" beside "ms").
 */
export interface AxisUnit {
  label: string;
  scale: number;
  format: (v: number) => string;
}

const SCALED: Record<string, [number, string][]> = {
  s: [
    [1, 's'],
    [1e-3, 'ms'],
    [1e-6, 'µs'],
    [1e-9, 'ns'],
  ],
  ms: [
    [1e3, 's'],
    [1, 'ms'],
    [1e-3, 'µs'],
  ],
  ns: [
    [1e6, 'ms'],
    [1e3, 'µs'],
    [1, 'ns'],
  ],
  B: [
    [2 ** 30, 'GiB'],
    [2 ** 20, 'MiB'],
    [2 ** 10, 'KiB'],
    [1, 'B'],
  ],
  'MB/s': [
    [1e3, 'GB/s'],
    [1, 'MB/s'],
  ],
};

export function axisUnit(values: readonly (number | null | undefined)[], unit: string): AxisUnit {
  const max = Math.max(
    0,
    ...values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v)).map(Math.abs),
  );
  const steps = SCALED[unit];
  const [scale, label] = steps?.find(([f]) => max >= f) ?? steps?.at(-1) ?? [1, unit];
  const format = (v: number) => {
    const x = v / scale;
    const a = Math.abs(x);
    return a === 0 ? '0' : a >= 100 ? x.toFixed(0) : a >= 10 ? x.toFixed(1) : a >= 1 ? x.toFixed(2) : x.toPrecision(2);
  };
  return { label, scale, format };
}

/** The x axis of a parameter: one unit for the whole axis, named in its label. */
export function xAxis(
  param: string,
  xs: readonly number[],
  unit?: string,
): { label: string; format: (v: number) => string } {
  const min = Math.min(...xs.filter((v) => v > 0));
  const steps = unit ? SCALED[unit] : undefined;
  const [scale, name] = steps?.find(([f]) => min >= f) ?? steps?.at(-1) ?? [1, unit ?? ''];
  const format = (v: number) => {
    const q = v / scale;
    return Number.isInteger(q) ? String(q) : q >= 10 ? q.toFixed(0) : q.toPrecision(2);
  };
  return { label: name ? `${param} (${name})` : param, format };
}

/** On a log axis only powers of ten are labelled (uPlot also ticks 2..9 of each decade). */
function isDecade(v: number): boolean {
  if (v <= 0) return false;
  const e = Math.log10(v);
  return Math.abs(e - Math.round(e)) < 1e-9;
}

export interface TrendLine {
  label: string;
  values: (number | null)[];
  ranges: (number | null)[];
}

export interface TrendInput {
  title: string;
  unit: string;
  log: boolean;
  /** One entry per commit (x = position, so gaps in time do not squash the chart). */
  commits: { sha: string; date: string; subject: string }[];
  lines: TrendLine[];
  /** Change points per line: indexes into commits; "program" marks a changed program. */
  changes: { line: number; index: number; kind?: 'perf' | 'program' }[];
  commitUrl: (sha: string) => string | undefined;
}

function tooltipPlugin(input: TrendInput, tip: HTMLElement): uPlot.Plugin {
  return {
    hooks: {
      setCursor: (u) => {
        const i = u.cursor.idx;
        if (i === null || i === undefined || u.cursor.left === undefined || u.cursor.left < 0) {
          tip.hidden = true;
          return;
        }
        const c = input.commits[i];
        if (!c) return;
        const rows = input.lines
          .map((l, j) => {
            const v = l.values[i];
            if (v === null || v === undefined) return '';
            const r = l.ranges[i];
            return `<div><span class="swatch" style="background:${color(j)}"></span>${escapeHtml(l.label)}: <b>${formatValue(v, input.unit)}</b>${r ? ` ± ${formatValue(r, input.unit)}` : ''}</div>`;
          })
          .join('');
        const url = input.commitUrl(c.sha);
        tip.innerHTML = `<div class="tip-head">${url ? `<a href="${escapeHtml(url)}" target="_blank" rel="noopener">${c.sha.slice(0, 10)}</a>` : c.sha.slice(0, 10)} · ${escapeHtml(c.date.slice(0, 10))}</div><div class="tip-subject">${escapeHtml(c.subject)}</div>${rows}`;
        tip.hidden = false;
        const left = Math.min(u.cursor.left + 16, u.over.clientWidth - 260);
        tip.style.left = `${Math.max(0, left)}px`;
        tip.style.top = `${(u.cursor.top ?? 0) + 10}px`;
      },
    },
  };
}

function changeMarkers(input: TrendInput): uPlot.Plugin {
  return {
    hooks: {
      draw: (u) => {
        const ctx = u.ctx;
        ctx.save();
        ctx.lineWidth = 1.5 * devicePixelRatio;
        for (const c of input.changes) {
          const x = u.valToPos(c.index - 0.5, 'x', true);
          ctx.strokeStyle = c.kind === 'program' ? '#5f6b7a' : color(c.line);
          ctx.setLineDash(c.kind === 'program' ? [] : [4, 4]);
          ctx.beginPath();
          ctx.moveTo(x, u.bbox.top);
          ctx.lineTo(x, u.bbox.top + u.bbox.height);
          ctx.stroke();
        }
        ctx.restore();
      },
    },
  };
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function trendChart(el: HTMLElement, input: TrendInput, width: number): uPlot {
  const tip = document.createElement('div');
  tip.className = 'tooltip';
  tip.hidden = true;
  const xs = input.commits.map((_, i) => i);
  const axis = axisUnit(
    input.lines.flatMap((l) => l.values),
    input.unit,
  );
  const data: uPlot.AlignedData = [
    xs,
    ...input.lines.map((l) => l.values.map((v) => (v === null || (input.log && v <= 0) ? null : v))),
  ];
  const u = new uPlot(
    {
      title: input.title,
      width,
      height: 240,
      cursor: { drag: { x: true, y: false } },
      scales: { x: { time: false }, y: { distr: input.log ? 3 : 1 } },
      legend: { show: true, live: false },
      axes: [
        {
          values: (_u, ticks) => ticks.map((t) => input.commits[Math.round(t)]?.date.slice(5, 10) ?? ''),
          grid: { stroke: '#eef1f5' },
        },
        {
          label: axis.label,
          values: (_u, ticks) => ticks.map((t) => (input.log && !isDecade(t) ? '' : axis.format(t))),
          size: 60,
          grid: { stroke: '#eef1f5' },
        },
      ],
      series: [
        { label: 'commit' },
        ...input.lines.map((l, i) => ({
          label: l.label,
          stroke: color(i),
          width: 1.5,
          points: { show: input.commits.length < 60 },
          spanGaps: false,
        })),
      ],
      plugins: [tooltipPlugin(input, tip), changeMarkers(input)],
    },
    data,
    el,
  );
  u.over.appendChild(tip);
  return u;
}

export interface XYLine {
  label: string;
  values: (number | null)[];
  /** The interval around each value (e.g. min..max of the samples), drawn as a band. */
  low?: (number | null)[];
  high?: (number | null)[];
  dashed?: boolean;
  colorIndex: number;
  /** A reference line (C, the pipe's ceiling): thinner, grey unless a colour is given. */
  reference?: boolean;
}

export interface XYInput {
  title: string;
  param: string;
  unit: string;
  logX: boolean;
  log: boolean;
  xs: number[];
  lines: XYLine[];
  /** The parameter's unit: bytes are shown in the one unit that keeps the smallest x at 1 or more. */
  xUnit?: string;
  height?: number;
}

/** A metric over a parameter: one line per variant, intervals as bands, reference lines thin. */
export function xyChart(el: HTMLElement, input: XYInput, width: number): uPlot {
  const axis = axisUnit(
    input.lines.flatMap((l) => [...l.values, ...(l.high ?? [])]),
    input.unit,
  );
  const x = xAxis(input.param, input.xs, input.xUnit);
  const series: uPlot.Series[] = [{ label: x.label }];
  const data: (number | null)[][] = [input.xs];
  const pos = (v: number | null | undefined) => (v === null || v === undefined || (input.log && v <= 0) ? null : v);
  const strokes = input.lines.map((l) =>
    l.colorIndex < 0 ? REFERENCE_COLORS[(-l.colorIndex - 1) % REFERENCE_COLORS.length]! : color(l.colorIndex),
  );
  input.lines.forEach((l, i) => {
    series.push({
      label: l.label,
      stroke: strokes[i],
      width: l.reference ? 1.5 : 2,
      dash: l.dashed ? [6, 4] : l.reference ? [2, 3] : undefined,
      points: { show: !l.reference },
    });
    data.push(l.values.map(pos));
  });
  // Intervals as whiskers at each point (the legend keeps one entry per line).
  const whiskers: uPlot.Plugin = {
    hooks: {
      draw: (u) => {
        const ctx = u.ctx;
        ctx.save();
        ctx.lineWidth = 1.5 * devicePixelRatio;
        input.lines.forEach((l, i) => {
          if (!l.low || !l.high || u.series[i + 1]?.show === false) return;
          ctx.strokeStyle = strokes[i]!;
          ctx.setLineDash(l.dashed ? [3, 2] : []);
          // Overlaid commits are nudged apart so their whiskers do not hide each other.
          const nudge = (l.dashed ? 4 : -4) * devicePixelRatio;
          input.xs.forEach((x, k) => {
            const lo = pos(l.low![k]);
            const hi = pos(l.high![k]);
            if (lo === null || hi === null) return;
            const px = u.valToPos(x, 'x', true) + nudge;
            const y0 = u.valToPos(lo, 'y', true);
            const y1 = u.valToPos(hi, 'y', true);
            ctx.beginPath();
            ctx.moveTo(px, y0);
            ctx.lineTo(px, y1);
            ctx.moveTo(px - 3 * devicePixelRatio, y0);
            ctx.lineTo(px + 3 * devicePixelRatio, y0);
            ctx.moveTo(px - 3 * devicePixelRatio, y1);
            ctx.lineTo(px + 3 * devicePixelRatio, y1);
            ctx.stroke();
          });
        });
        ctx.restore();
      },
    },
  };
  return new uPlot(
    {
      title: input.title,
      width,
      height: input.height ?? 320,
      scales: { x: { time: false, distr: input.logX ? 3 : 1, log: 2 }, y: { distr: input.log ? 3 : 1 } },
      axes: [
        {
          label: x.label,
          grid: { stroke: '#eef1f5' },
          values: (_u: uPlot, ticks: number[]) => ticks.map((t) => x.format(t)),
        },
        {
          label: axis.label,
          values: (_u, ticks) => ticks.map((t) => (input.log && !isDecade(t) ? '' : axis.format(t))),
          size: 60,
          grid: { stroke: '#eef1f5' },
        },
      ],
      series,
      plugins: [whiskers],
    },
    data as uPlot.AlignedData,
    el,
  );
}
