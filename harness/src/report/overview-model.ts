/**
 * The Overview's picture of an experiment, as data: the manifest's `overview` says which metric
 * against which parameter answers the experiment's question, which variants are reference lines,
 * and how to put the answer in one sentence; this computes the panels, lines, intervals and the
 * sentence from one run's benchmarks. Pure and free of Node imports (bundled into the site).
 */

import { medianInterval } from '../analysis/median-interval.js';
import { fitLine } from '../analysis/slope.js';
import type { Overview } from '../formats/manifest-format.js';
import type { OverviewLine, OverviewModel, OverviewPanel } from '../formats/parts/overview-vocabulary.js';
import { compareText } from '../lib/compare-text.js';
import type { Direction } from '../model/metrics.js';
import { labelWith, matchesAt } from '../model/select.js';
import { answerSentence } from './overview-answer.js';

export type { OverviewModel };

interface Point {
  variant: string;
  params: Record<string, number | string>;
  status: string;
  metrics: Record<string, { value: number; unit: string; direction: Direction; samples?: number[] }>;
}

const lineKey = (b: Point, drop: readonly string[]) =>
  labelWith(
    b.variant,
    Object.entries(b.params).filter(([k]) => !drop.includes(k)),
  );

function pickMetric(spec: Overview, points: readonly Point[]): string | undefined {
  const candidates = Array.isArray(spec.metric) ? spec.metric : [spec.metric];
  // The first metric that at least two points report (a fit that could not resolve leaves none).
  return candidates.find((m) => points.filter((p) => p.metrics[m] && Number.isFinite(p.metrics[m]!.value)).length >= 2);
}

/** The model, or undefined when the run has nothing to draw for it. */
export function overviewModel(
  spec: Overview,
  parameters: Record<string, { unit?: string }>,
  benchmarks: readonly Point[],
  label: (metric: string) => string = (m) => m,
): OverviewModel | undefined {
  const ok = benchmarks.filter((b) => b.status === 'ok' && matchesAt(b, spec.at, 'matches'));
  const metric = pickMetric(spec, ok);
  if (!metric) return undefined;
  const { unit, direction } = ok.find((b) => b.metrics[metric])!.metrics[metric]!;
  const panelValues = spec.panels
    ? [...new Set(ok.map((b) => b.params[spec.panels!]).filter((v) => v !== undefined))].sort()
    : [undefined];
  const refs = new Map(spec.references.map((r) => [r.variant, r.label]));
  const xUnit = parameters[spec.x]?.unit;
  const panels: OverviewPanel[] = [];
  const colors = new Map<string, number>();
  for (const pv of panelValues) {
    const mine = ok.filter((b) => pv === undefined || b.params[spec.panels!] === pv || !(spec.panels! in b.params));
    const xs = [...new Set(mine.map((b) => b.params[spec.x]).filter((x): x is number => typeof x === 'number'))].sort(
      (a, b) => a - b,
    );
    if (!xs.length) continue;
    const drop = [spec.x, ...(spec.panels ? [spec.panels] : []), ...Object.keys(spec.at)];
    const lines = panelLines(spec, metric, mine, xs, { drop, refs, colors, labelOf: label });
    panels.push({ title: pv === undefined ? '' : String(pv), xs, lines });
  }
  if (!panels.length) return undefined;
  const allXs = panels.flatMap((p) => p.xs);
  const model: OverviewModel = {
    // The manifest's title names its first metric; a fallback metric (a fit that could not resolve) is named instead.
    title:
      spec.title && metric === (Array.isArray(spec.metric) ? spec.metric[0] : spec.metric)
        ? spec.title
        : `${label(metric)} against ${spec.x}`,
    x: spec.x,
    ...(xUnit ? { xUnit } : {}),
    metric,
    unit,
    direction,
    logX: allXs.every((x) => x > 0) && Math.max(...allXs) / Math.min(...allXs) >= 16,
    panels,
    answer: '',
    suspects: [],
  };
  const { answer, suspects, named } = answerSentence(spec, model, label);
  return { ...model, panels: panels.map((p) => visible(p, named)), answer, suspects };
}

/**
 * A chart draws at most this many lines by default: fourteen crossing lines answer nothing. The
 * rest stay one click away in the chart's legend.
 */
export const MAX_SHOWN = 8;

/**
 * Which lines a panel draws by default: the references, then the lines the answer names (a line's
 * dashed companions with it); when the answer names none, the first ones up to MAX_SHOWN.
 */
function visible(p: OverviewPanel, named: readonly string[]): OverviewPanel {
  // A line and its dashed companions (p99 beside p50) share a colour: they come and go together.
  const keys = [...new Set(p.lines.map((l) => l.colorIndex))];
  const size = (k: number) => p.lines.filter((l) => l.colorIndex === k).length;
  const refs = keys.filter((k) => p.lines.some((l) => l.colorIndex === k && l.reference));
  const answered = keys.filter(
    (k) => !refs.includes(k) && p.lines.some((l) => l.colorIndex === k && named.includes(l.label)),
  );
  const rest = named.length ? [] : keys.filter((k) => !refs.includes(k));
  const shown = new Set<number>();
  let count = 0;
  for (const k of [...refs, ...answered, ...rest])
    if (count + size(k) <= MAX_SHOWN || !shown.size) {
      shown.add(k);
      count += size(k);
    }
  return { ...p, lines: p.lines.map((l) => (shown.has(l.colorIndex) ? l : { ...l, hidden: true })) };
}

/**
 * One panel's lines: per metric (the answer's, then the dashed `also` ones), one line per variant
 * and remaining parameters, with its medians' intervals, its slope when asked, and its colour
 * (kept across panels in `colors`).
 */
function panelLines(
  spec: Overview,
  metric: string,
  mine: readonly Point[],
  xs: readonly number[],
  {
    drop,
    refs,
    colors,
    labelOf,
  }: {
    drop: readonly string[];
    refs: ReadonlyMap<string, string | undefined>;
    colors: Map<string, number>;
    labelOf: (metric: string) => string;
  },
): OverviewLine[] {
  const lines: OverviewLine[] = [];
  for (const m of [metric, ...spec.also]) {
    const groups = new Map<string, Point[]>();
    for (const b of mine.filter((x) => x.metrics[m])) {
      const k = lineKey(b, drop);
      groups.set(k, [...(groups.get(k) ?? []), b]);
    }
    for (const [label, pts] of [...groups].sort(([a], [b]) => compareText(a, b))) {
      const flat = pts.every((p) => !(spec.x in p.params));
      const at = (x: number) => pts.find((p) => p.params[spec.x] === x) ?? (flat ? pts[0] : undefined);
      const values = xs.map((x) => at(x)?.metrics[m]?.value ?? null);
      const ci = xs.map((x) => {
        const s = at(x)?.metrics[m]?.samples;
        return s && s.length > 1 ? medianInterval(s) : undefined;
      });
      const variant = pts[0]!.variant;
      const refLabel = refs.get(variant);
      // Reference lines get their own (negative) colour indexes, the rest count up from 0.
      if (!colors.has(label)) {
        const taken = [...colors.values()];
        colors.set(
          label,
          refLabel !== undefined ? -1 - taken.filter((c) => c < 0).length : taken.filter((c) => c >= 0).length,
        );
      }
      const known: [number, number][] = xs.flatMap((x, i) => (values[i] !== null ? [[x, values[i]!]] : []));
      const slope = spec.slope && !flat && known.length >= 2 ? fitLine(known) : undefined;
      lines.push({
        label: `${refLabel ? `${refLabel} (${label})` : label}${m !== metric ? ` ${labelOf(m)}` : ''}`,
        variant,
        metric: m,
        values,
        low: ci.map((c) => c?.low ?? null),
        high: ci.map((c) => c?.high ?? null),
        reference: refLabel !== undefined || flat,
        dashed: m !== metric,
        flat,
        ...(slope ? { slope: { value: slope.slope, r2: slope.r2 } } : {}),
        colorIndex: colors.get(label)!,
      });
    }
  }
  return lines;
}
