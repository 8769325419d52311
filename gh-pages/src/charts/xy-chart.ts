/** A metric over a parameter: one line per variant, intervals as whiskers, reference lines thin. */
import type uPlot from 'uplot';
import { axisUnit, xAxis, xTickLabels, yTickLabels } from './axes.js';
import { recordStyles, recordTicks, referenceStyle, type SeriesStyle, seriesStyle } from './palette.js';
import { isShown, shownRecorder } from './shown.js';
import { UPlot } from './uplot-module.js';

interface XYLine {
  label: string;
  values: (number | null)[];
  /** The interval around each value (the 95% interval of its median), drawn as whiskers. */
  low?: (number | null)[];
  high?: (number | null)[];
  dashed?: boolean;
  /** The line's style; negative: a reference line's. */
  colorIndex: number;
  /** A reference line (C, the pipe's ceiling): thinner, grey, dotted. */
  reference?: boolean;
  /** Drawn only once its name in the legend is clicked. */
  hidden?: boolean;
}

export interface XYInput {
  title: string;
  param: string;
  unit: string;
  logX: boolean;
  log: boolean;
  xs: number[];
  lines: XYLine[];
  /** The parameter's unit: bytes are written as sizes (4 KiB), counts as whole numbers. */
  xUnit?: string;
  height?: number;
  /**
   * The values the y unit is chosen from, when the chart is one of several panels: panels side by
   * side read in one unit (never ms beside s).
   */
  unitFrom?: readonly (number | null)[];
  /** Said under the chart in place of the count of lines left in the legend: what is drawn, with values. */
  caption?: string;
}

/** Lines two orders of magnitude apart are read on a log axis (the Overview and Sweeps agree). */
export function wide(values: readonly (number | null)[]): boolean {
  const pos = values.filter((v): v is number => v !== null && v > 0);
  return pos.length > 1 && Math.max(...pos) / Math.min(...pos) >= 30;
}

function whiskers(
  input: XYInput,
  styles: readonly SeriesStyle[],
  pos: (v: number | null | undefined) => number | null,
) {
  return {
    hooks: {
      draw: (u: uPlot) => {
        const ctx = u.ctx;
        ctx.save();
        ctx.lineWidth = 1.5 * devicePixelRatio;
        input.lines.forEach((l, i) => {
          if (!l.low || !l.high || !isShown(u, i)) return;
          ctx.strokeStyle = styles[i]!.stroke;
          ctx.setLineDash(l.dashed ? [3, 2] : []);
          // Overlaid commits are nudged apart so their whiskers do not hide each other.
          const nudge = (l.dashed ? 4 : -4) * devicePixelRatio;
          const cap = 3 * devicePixelRatio;
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
            ctx.moveTo(px - cap, y0);
            ctx.lineTo(px + cap, y0);
            ctx.moveTo(px - cap, y1);
            ctx.lineTo(px + cap, y1);
            ctx.stroke();
          });
        });
        ctx.restore();
      },
    },
  };
}

export function xyChart(el: HTMLElement, input: XYInput, width: number): uPlot {
  const axis = axisUnit(input.unitFrom ?? input.lines.flatMap((l) => [...l.values, ...(l.high ?? [])]), input.unit);
  const x = xAxis(input.param, input.xs, input.xUnit, width);
  const series: uPlot.Series[] = [{ label: x.label, value: (_u, v, _s, idx) => (idx == null ? '' : x.format(v)) }];
  const data: (number | null)[][] = [input.xs];
  const pos = (v: number | null | undefined) => (v === null || v === undefined || (input.log && v <= 0) ? null : v);
  const styles = input.lines.map((l) => {
    const base = l.colorIndex < 0 ? referenceStyle(-l.colorIndex - 1) : seriesStyle(l.colorIndex);
    return l.dashed ? { ...base, dash: [6, 4] } : base;
  });
  recordStyles(el, styles);
  el.dataset.xlabel = x.label;
  input.lines.forEach((l, i) => {
    series.push({
      label: l.label,
      stroke: styles[i]!.stroke,
      width: l.reference ? 1.5 : 2,
      ...(styles[i]!.dash ? { dash: styles[i]!.dash } : {}),
      points: { show: !l.reference },
      show: !l.hidden,
      // Until the cursor is on the chart the legend shows no value (never a "--" placeholder).
      value: (_u, v, _s, idx) => (idx == null || v == null ? '' : axis.format(v)),
    });
    data.push(l.values.map(pos));
  });
  const [lo, hi] = [Math.min(...input.xs), Math.max(...input.xs)];
  // Room beyond the first and last points: their markers and whiskers are drawn whole.
  const xRange: uPlot.Range.Function = input.logX
    ? () => [lo / 1.25, hi * 1.25]
    : () => [lo - (hi - lo || 1) * 0.04, hi + (hi - lo || 1) * 0.04];
  const u = new (UPlot())(
    {
      title: input.title,
      width,
      height: input.height ?? 320,
      scales: {
        x: { time: false, distr: input.logX ? 3 : 1, log: 2, range: xRange },
        y: { distr: input.log ? 3 : 1 },
      },
      axes: [
        {
          label: x.label,
          grid: { stroke: '#eef1f5' },
          splits: () => x.splits,
          values: (_u: uPlot, ticks: number[]) => recordTicks(el, 'x', xTickLabels(ticks, x.format)),
        },
        {
          label: axis.label,
          values: (_u, ticks) => recordTicks(el, 'y', yTickLabels(ticks, axis, input.log)),
          size: 60,
          grid: { stroke: '#eef1f5' },
        },
      ],
      series,
      plugins: [whiskers(input, styles, pos), shownRecorder(el)],
    },
    data as uPlot.AlignedData,
    el,
  );
  const hidden = input.lines.filter((l) => l.hidden).length;
  if (hidden || input.caption) {
    const hint = document.createElement('p');
    hint.className = 'muted legend-hint';
    hint.textContent =
      input.caption ??
      `${hidden} more ${hidden === 1 ? 'line' : 'lines'} in the legend (greyed): click a name to draw it.`;
    el.appendChild(hint);
  }
  return u;
}
