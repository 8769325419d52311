/** uPlot charts: trends across commits (with change points) and sweeps over a parameter. */
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
  /** Change points per line: indexes into commits; "definition" marks a redefined benchmark. */
  changes: { line: number; index: number; kind?: 'perf' | 'definition' }[];
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
        ctx.setLineDash([4, 4]);
        ctx.lineWidth = 1.5 * devicePixelRatio;
        for (const c of input.changes) {
          const x = u.valToPos(c.index - 0.5, 'x', true);
          ctx.strokeStyle = c.kind === 'definition' ? '#5f6b7a' : color(c.line);
          ctx.setLineDash(c.kind === 'definition' ? [] : [4, 4]);
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
        { values: (_u, ticks) => ticks.map((t) => formatValue(t, input.unit)), size: 80, grid: { stroke: '#eef1f5' } },
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

export interface SweepInput {
  title: string;
  param: string;
  unit: string;
  logX: boolean;
  log: boolean;
  xs: number[];
  lines: { label: string; values: (number | null)[]; dashed?: boolean; colorIndex: number }[];
}

export function sweepChart(el: HTMLElement, input: SweepInput, width: number): uPlot {
  return new uPlot(
    {
      title: input.title,
      width,
      height: 320,
      scales: { x: { time: false, distr: input.logX ? 3 : 1, log: 2 }, y: { distr: input.log ? 3 : 1 } },
      axes: [
        { label: input.param, grid: { stroke: '#eef1f5' } },
        { values: (_u, ticks) => ticks.map((t) => formatValue(t, input.unit)), size: 80, grid: { stroke: '#eef1f5' } },
      ],
      series: [
        { label: input.param },
        ...input.lines.map((l) => ({
          label: l.label,
          stroke: color(l.colorIndex),
          width: 2,
          dash: l.dashed ? [6, 4] : undefined,
          points: { show: true },
        })),
      ],
    },
    [input.xs, ...input.lines.map((l) => l.values)],
    el,
  );
}
