/**
 * The Overview's pictures: one chart per experiment (a panel per value of the manifest's `panels`),
 * drawn from the harness's overview model (report/overview-model.ts) with its computed answer.
 */

import type { Overview } from '../../../harness/src/formats/manifest-format.js';
import { formatValue } from '../../../harness/src/lib/format.js';
import { overviewModel } from '../../../harness/src/report/overview-model.js';
import { wide, xyChart } from '../charts.js';
import type { Benchmark, ExperimentInfo } from '../data.js';
import { type Html, html, setHtml } from '../html.js';
import { boxWidth } from './ctx.js';

/** Fills `host` with the experiment's answer and chart boxes; returns the function that draws them, if any. */
export function overviewCharts(
  id: string,
  overview: unknown,
  info: ExperimentInfo,
  benchmarks: readonly Benchmark[],
  host: HTMLElement,
  label: (metric: string) => string,
  /** Said right under the answer (the machine's cold-read latency beside a cold-cache answer). */
  note?: Html,
): (() => void) | undefined {
  const spec = overview as Overview | undefined;
  if (!spec) return undefined;
  const model = overviewModel(
    spec,
    (info.parameters ?? {}) as Record<string, { unit?: string }>,
    benchmarks.filter((b) => b.experiment === id),
    label,
  );
  if (!model) return undefined;
  setHtml(
    host,
    html`<p class="answer-line"><b>${model.answer}</b></p>${note ?? ''}${model.suspects.length ? html`<p class="suspect">Suspect, not headlined: ${model.suspects.join('; ')}.</p>` : ''}`,
  );
  const grid = document.createElement('div');
  grid.className = `panels n${model.panels.length}`;
  host.appendChild(grid);
  const boxes = model.panels.map((p) => {
    const box = document.createElement('div');
    box.className = 'chart overview-chart';
    box.dataset.panel = p.title;
    grid.appendChild(box);
    return box;
  });
  const xUnit = model.xUnit;
  // Panels side by side share their y axis's kind and unit: one log, one unit for all of them.
  const values = model.panels.flatMap((p) => p.lines.flatMap((l) => [...l.values, ...l.high]));
  const log = wide(model.panels.flatMap((p) => p.lines.flatMap((l) => l.values)));
  return () => {
    // Each box's own width: side by side where two fit, one under the other on a narrow screen.
    const each = boxes.map(boxWidth);
    model.panels.forEach((p, i) => {
      xyChart(
        boxes[i]!,
        {
          title: `${model.title}${p.title ? ` · ${p.title}` : ''}`,
          param: model.x,
          ...(xUnit ? { xUnit } : {}),
          unit: model.unit,
          logX: model.logX,
          // Lines two orders of magnitude apart (records: C against JavaScript) on a log axis.
          log,
          unitFrom: values,
          xs: p.xs,
          lines: p.lines.map((l) => ({
            label: l.slope
              ? `${l.label}: ${formatValue(l.slope.value, model.unit)}/${model.x} (R² ${l.slope.r2.toFixed(2)})`
              : l.label,
            values: l.values,
            low: l.low,
            high: l.high,
            colorIndex: l.colorIndex,
            dashed: l.dashed,
            reference: l.reference,
            ...(l.hidden ? { hidden: true } : {}),
          })),
          height: 280,
        },
        each[i]!,
      );
    });
  };
}
