/**
 * The summary of a run as data: per experiment, the manifest's chosen point as a table (metrics
 * and ratios to reference rows), the experiment's questions answered, its slope fits, and every
 * benchmark that was skipped or failed. Pure and free of Node imports: summary.md, the terminal
 * and the site's overview all render this one model.
 */

import { countingSentence } from '../counts/counting-text.js';
import type { Manifest, ManifestAnalysis } from '../formats/manifest-format.js';
import type { Benchmark, Results, SlopeFit } from '../formats/results-format.js';
import { formatParam, formatRatio, formatValue } from '../lib/format.js';
import { harnessMetric } from '../model/metrics.js';
import { labelWith, matchesAt, RUNTIME_PARAM } from '../model/select.js';
import { type Answer, type AnswerScenario, answerComparison, answerScenarios } from './answers.js';
import { ratioReference, ratioTarget } from './ratios.js';

/** What the model needs of an experiment: its manifest's presentation fields (or the results' copy of them). */
export interface ExperimentView {
  id: string;
  title: string;
  question: string;
  parameters: Record<string, { unit?: string }>;
  summary?: Manifest['summary'];
  analyses?: readonly ManifestAnalysis[];
}

export interface Table {
  headers: string[];
  /** Cells as plain text; renderers escape them for their medium. */
  rows: string[][];
  align: ('l' | 'r')[];
}

export interface AnswerModel {
  question: string;
  metric: string;
  comparison: string;
  scenarios: AnswerScenario[];
}

interface Problem {
  status: 'skipped' | 'failed';
  /** The benchmark id, or the variant and how many points share the reason. */
  where: string;
  reason: string;
  hint?: string;
}

export interface ExperimentSummary {
  id: string;
  title: string;
  question: string;
  /** "bs = 64 KiB": where the table is taken; undefined when the manifest has no summary. */
  at?: string;
  table?: Table;
  answers: AnswerModel[];
  slopes: { title: string; table: Table }[];
  counts: { total: number; ok: number; skipped: number; failed: number };
  problems: Problem[];
}

export interface SummaryModel {
  runId: string;
  partial: boolean;
  profile: string;
  machine: { id: string; cpu: string; cores: number };
  commit: { sha: string; dirty: boolean; subject: string };
  experiments: ExperimentSummary[];
  /** How the counting stage used the stored counts (counts/counting-text.ts), when it counted. */
  counting?: string;
  toolchains: string;
}

/** A row label: the variant, plus any parameter not fixed by `at` (e.g. the node version). */
function rowLabel(b: Pick<Benchmark, 'variant' | 'params'>, at: Record<string, unknown>): string {
  // A parameter `at` fixes to one value is implied; one it lists several values for is shown.
  const extra = Object.entries(b.params).filter(
    ([k]) => !(k in at) || (Array.isArray(at[k]) && (at[k] as unknown[]).length > 1),
  );
  // A parameter the variant does not take (its `ignores`) is said, not silently implied.
  const notApplicable = Object.keys(at)
    .filter((k) => !(k in b.params) && k !== RUNTIME_PARAM)
    .map((k) => `${k} n/a`);
  return labelWith(b.variant, extra, notApplicable);
}

/** Column headers of the experiments' own metrics (the harness's are the catalogue's `column`). */
const EXPERIMENT_COLUMNS: Record<string, string> = {
  read_cost: 'cost per read',
  io_throughput: 'I/O throughput',
  io_seconds: 'I/O time',
  pipeline_seconds: 'pipeline time',
  scan_seconds: 'scan time',
  lines_per_s: 'lines/s',
};

/** A summary table's column header for a metric. */
function metricLabel(name: string): string {
  return EXPERIMENT_COLUMNS[name] ?? harnessMetric(name)?.column ?? name;
}

export const FINDINGS = {
  lower: 'lower',
  higher: 'higher',
  same: 'no significant difference',
  untestable: 'too few samples to test',
} as const;

const alignFirstLeft = (n: number): ('l' | 'r')[] => Array.from({ length: n }, (_, i) => (i === 0 ? 'l' : 'r'));

/** One table per slope analysis: slope (scaled to the manifest's unit), intercept, R^2. */
function slopeTables(
  exp: Pick<ExperimentView, 'id' | 'analyses'>,
  fits: readonly SlopeFit[],
): { title: string; table: Table }[] {
  const out: { title: string; table: Table }[] = [];
  for (const a of exp.analyses ?? []) {
    const mine = fits.filter((f) => f.experiment === exp.id && f.x === a.x && f.metric === a.metric);
    if (!mine.length) continue;
    const unit = a.unit ?? `${mine[0]?.unit ?? ''} per ${a.x}`;
    const scaled = (v: number) =>
      a.scale === 1 ? v.toPrecision(4) : (v * a.scale).toFixed(Math.abs(v * a.scale) >= 100 ? 0 : 2);
    const per = a.per;
    const perCell = (f: SlopeFit) => (per && f.per ? ((f.slope / f.per) * per.scale).toPrecision(3) : '—');
    const headers = [
      'variant',
      `slope (${unit})`,
      ...(per ? [per.unit] : []),
      `intercept (${metricLabel(a.metric)})`,
      'R²',
      `${a.x} values`,
    ];
    const rows = mine.map((f) => [
      rowLabel(f, {}),
      scaled(f.slope),
      ...(per ? [perCell(f)] : []),
      formatValue(f.intercept, f.unit),
      f.r2.toFixed(3),
      f.xs.join(', '),
    ]);
    out.push({
      title: a.title ?? `${metricLabel(a.metric)} over ${a.x}: least-squares slope per variant`,
      table: { headers, rows, align: alignFirstLeft(headers.length) },
    });
  }
  return out;
}

export function answerModel(a: Answer, benchmarks: readonly Benchmark[]): AnswerModel {
  return {
    question: a.question,
    metric: metricLabel(a.metric),
    comparison: answerComparison(a),
    scenarios: answerScenarios(a, benchmarks),
  };
}

function summaryTable(exp: ExperimentView, mine: readonly Benchmark[]): Pick<ExperimentSummary, 'at' | 'table'> {
  const s = exp.summary;
  if (!s) return {};
  const unitOf = (k: string) => exp.parameters[k]?.unit;
  const at = Object.entries(s.at)
    .map(([k, v]) => `${k} = ${(Array.isArray(v) ? v : [v]).map((x) => formatParam(x, unitOf(k))).join(', ')}`)
    .join(', ');
  const rows = mine.filter((b) => b.status === 'ok' && matchesAt(b, s.at, 'matches'));
  if (!rows.length) return { at };
  const headers = [
    'variant',
    ...s.metrics.map(metricLabel),
    ...s.ratios.map((r) => `${metricLabel(r.metric)} vs ${ratioTarget(r, unitOf)}`),
  ];
  const body = rows.map((b) => [
    rowLabel(b, s.at),
    ...s.metrics.map((name) => {
      const metric = b.metrics[name];
      return metric ? formatValue(metric.value, metric.unit) : '—';
    }),
    ...s.ratios.map((r) => {
      const mineValue = b.metrics[r.metric];
      const theirs = ratioReference(b, r, mine, s.at)?.metrics[r.metric];
      return mineValue && theirs ? formatRatio(mineValue.value / theirs.value) : '—';
    }),
  ]);
  return { at, table: { headers, rows: body, align: alignFirstLeft(headers.length) } };
}

/** One line per distinct (status, variant, reason): a missing runtime skips every point of a variant. */
function problems(exp: ExperimentView, mine: readonly Benchmark[]): Problem[] {
  const grouped = new Map<string, { b: Benchmark; n: number }>();
  for (const b of mine.filter((x) => x.status !== 'ok')) {
    const key = `${b.status}|${b.variant}|${JSON.stringify(Object.fromEntries(Object.entries(b.params).filter(([k]) => !(k in exp.parameters))))}|${b.reason}`;
    const g = grouped.get(key);
    if (g) g.n++;
    else grouped.set(key, { b, n: 1 });
  }
  return [...grouped.values()].map(({ b, n }) => ({
    status: b.status as Problem['status'],
    where: n > 1 ? `${rowLabel(b, exp.parameters)} (${n} points)` : b.id,
    reason: b.reason ?? 'no reason given',
    ...(b.hint ? { hint: b.hint } : {}),
  }));
}

export function experimentSummary(
  exp: ExperimentView,
  benchmarks: readonly Benchmark[],
  fits: readonly SlopeFit[] = [],
): ExperimentSummary {
  const mine = benchmarks.filter((b) => b.experiment === exp.id);
  const counts = { total: mine.length, ok: 0, skipped: 0, failed: 0 };
  for (const b of mine) counts[b.status]++;
  return {
    id: exp.id,
    title: exp.title,
    question: exp.question,
    ...summaryTable(exp, mine),
    answers: (exp.summary?.answers ?? []).map((a) => answerModel(a, mine)),
    slopes: slopeTables(exp, fits),
    counts,
    problems: problems(exp, mine),
  };
}

/** The view of an experiment from its manifest. */
export function viewOf(e: {
  id: string;
  manifest: Pick<Manifest, 'title' | 'question' | 'parameters' | 'summary' | 'analyses'>;
}): ExperimentView {
  const m = e.manifest;
  return {
    id: e.id,
    title: m.title,
    question: m.question,
    parameters: m.parameters,
    ...(m.summary ? { summary: m.summary } : {}),
    analyses: m.analyses,
  };
}

export function summaryModel(results: Results, experiments: readonly ExperimentView[]): SummaryModel {
  const r = results.run;
  const ids = new Set(results.benchmarks.map((b) => b.experiment));
  return {
    runId: r.id,
    partial: r.partial,
    profile: r.profile,
    machine: { id: r.machine.id, cpu: r.machine.cpu, cores: r.machine.cores },
    commit: { sha: r.commit.sha, dirty: r.commit.dirty, subject: r.commit.subject },
    experiments: experiments
      .filter((e) => ids.has(e.id))
      .map((e) => experimentSummary(e, results.benchmarks, results.analyses ?? [])),
    ...(r.counting ? { counting: countingSentence(r.counting) } : {}),
    toolchains: Object.entries(r.toolchains)
      .map(([k, v]) => `${k} ${v}`)
      .join('; '),
  };
}
