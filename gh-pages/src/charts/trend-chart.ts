/** A metric across commits: one line per series, change points marked, a tooltip per commit. */
import type uPlot from 'uplot';
import { formatValue } from '../../../harness/src/lib/format.js';
import { html, safeUrl, setHtml } from '../html.js';
import { axisUnit, commitLabels, commitSplits, yTickLabels } from './axes.js';
import { recordStyles, recordTicks, seriesStyle } from './palette.js';
import { isShown, shownRecorder } from './shown.js';
import { UPlot } from './uplot-module.js';

interface TrendLine {
  label: string;
  values: (number | null)[];
  ranges: (number | null)[];
  /** Said in the tooltip beside a commit's value (a count that is no figure to act on). */
  notes?: (string | null)[];
  /** Drawn only once its name in the legend is clicked. */
  hidden?: boolean;
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
  /** Commits whose numbers moved for a known reason (marks.json): drawn across every line, said in the tooltip. */
  marks?: readonly { index: number; kind: string; reason: string }[];
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
        const url = input.commitUrl(c.sha);
        const sha = c.sha.slice(0, 10);
        const rows = input.lines.map((l, j) => {
          const v = l.values[i];
          if (v === null || v === undefined || !isShown(u, j)) return '';
          const r = l.ranges[i];
          const note = l.notes?.[i];
          return html`<div><span class="swatch" data-line="${j}"></span>${l.label}: <b>${formatValue(v, input.unit)}</b>${r ? ` ± ${formatValue(r, input.unit)}` : ''}${note ? html` <i>(${note})</i>` : ''}</div>`;
        });
        const marked = (input.marks ?? [])
          .filter((m) => m.index === i)
          .map((m) => html`<div class="tip-mark"><b>${m.kind}</b>: ${m.reason}</div>`);
        setHtml(
          tip,
          html`<div class="tip-head">${url ? html`<a href="${safeUrl(url)}" target="_blank" rel="noopener">${sha}</a>` : sha} · ${c.date.slice(0, 16).replace('T', ' ')}</div><div class="tip-subject">${c.subject}</div>${marked}${rows}`,
        );
        // Colours through the CSSOM: the page's CSP refuses inline style attributes.
        for (const s of tip.querySelectorAll<HTMLElement>('.swatch'))
          s.style.background = seriesStyle(Number(s.dataset.line)).stroke;
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
          // A line left in the legend marks nothing until it is drawn.
          if (!isShown(u, c.line)) continue;
          const x = u.valToPos(c.index - 0.5, 'x', true);
          ctx.strokeStyle = c.kind === 'program' ? '#5f6b7a' : seriesStyle(c.line).stroke;
          ctx.setLineDash(c.kind === 'program' ? [] : [4, 4]);
          ctx.beginPath();
          ctx.moveTo(x, u.bbox.top);
          ctx.lineTo(x, u.bbox.top + u.bbox.height);
          ctx.stroke();
        }
        drawMarks(u, input.marks ?? []);
        ctx.restore();
      },
    },
  };
}

/** The colour of a known-reason mark: apart from the lines' palette and from "program changed" grey. */
const MARK_STROKE = '#b35c00';

/**
 * Known-reason marks: one dotted line across the plot where the commit's numbers moved (before it,
 * as a change point is drawn), its kinds written at the top, one under the other.
 */
function drawMarks(u: uPlot, marks: readonly { index: number; kind: string }[]): void {
  const ctx = u.ctx;
  ctx.strokeStyle = MARK_STROKE;
  ctx.fillStyle = MARK_STROKE;
  ctx.setLineDash([2, 3]);
  ctx.font = `${10 * devicePixelRatio}px sans-serif`;
  const kinds = new Map<number, string[]>();
  for (const m of marks) kinds.set(m.index, [...(kinds.get(m.index) ?? []), m.kind]);
  for (const [index, names] of kinds) {
    const x = u.valToPos(index - 0.5, 'x', true);
    ctx.beginPath();
    ctx.moveTo(x, u.bbox.top);
    ctx.lineTo(x, u.bbox.top + u.bbox.height);
    ctx.stroke();
    names.forEach((name, i) => {
      ctx.fillText(name, x + 3 * devicePixelRatio, u.bbox.top + (10 + 11 * i) * devicePixelRatio);
    });
  }
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
  const dates = input.commits.map((c) => c.date);
  const styles = input.lines.map((_, i) => seriesStyle(i));
  recordStyles(el, styles);
  // What the canvas shows of the marks, readable without pixels (as recordStyles does for lines).
  el.dataset.marks = (input.marks ?? []).map((m) => `${m.kind}@${m.index}`).join(' ');
  const u = new (UPlot())(
    {
      title: input.title,
      width,
      height: 240,
      cursor: { drag: { x: true, y: false } },
      // Half a commit of room at each end: the first and last markers are drawn whole.
      scales: {
        x: { time: false, range: (_u, min, max) => [min - 0.5, max + 0.5] },
        y: { distr: input.log ? 3 : 1 },
      },
      legend: { show: true, live: false },
      axes: [
        {
          splits: (u2, _i, min, max) => commitSplits(dates.length, min, max, u2.bbox.width / devicePixelRatio),
          values: (_u, ticks) => recordTicks(el, 'x', commitLabels(dates, ticks)),
          grid: { stroke: '#eef1f5' },
        },
        {
          label: axis.label,
          values: (_u, ticks) => recordTicks(el, 'y', yTickLabels(ticks, axis, input.log)),
          size: 60,
          grid: { stroke: '#eef1f5' },
        },
      ],
      series: [
        { label: 'commit' },
        ...input.lines.map((l, i) => ({
          label: l.label,
          stroke: styles[i]!.stroke,
          ...(styles[i]!.dash ? { dash: styles[i]!.dash } : {}),
          width: 1.5,
          points: { show: input.commits.length < 60 },
          show: !l.hidden,
          spanGaps: false,
        })),
      ],
      plugins: [tooltipPlugin(input, tip), changeMarkers(input), shownRecorder(el)],
    },
    data,
    el,
  );
  u.over.appendChild(tip);
  return u;
}
