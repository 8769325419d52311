/**
 * summary.md: per experiment, the manifest's chosen point as a table (metrics and ratios to
 * reference variants), then every skipped or failed benchmark with its reason.
 */
import type { Experiment } from '../plan/experiments.js';
import type { Benchmark, Results, SlopeFit } from '../model/results.js';
import { formatParam, formatRatio, formatValue } from '../lib/format.js';
import { escapeCell, markdownTable } from '../lib/markdown.js';
import { type Answer, answerComparison, type AnswerScenario, answerScenarios } from './answers.js';
import { ratioReference, ratioTarget } from './ratios.js';

import { matchesAt } from '../model/select.js';

export { matchesAt };

/** Install hints stay copy-pasteable: a code span is literal (no mentions, links or HTML). */
function codeSpan(s: string): string {
  return `\`${s.replace(/[`\r\n]+/g, ' ')}\``;
}

/** A row label: the variant, plus any parameter not fixed by `at` (e.g. the node version). */
export function rowLabel(b: Pick<Benchmark, 'variant' | 'params'>, at: Record<string, unknown>): string {
  // A parameter `at` fixes to one value is implied; one it lists several values for is shown.
  const extra = Object.entries(b.params)
    .filter(([k]) => !(k in at) || (Array.isArray(at[k]) && (at[k] as unknown[]).length > 1))
    .map(([k, v]) => `${k} ${v}`);
  // A parameter the variant does not take (its `ignores`) is said, not silently implied.
  const notApplicable = Object.keys(at).filter((k) => !(k in b.params) && k !== 'node').map((k) => `${k} n/a`);
  const all = [...extra, ...notApplicable];
  return all.length ? `${b.variant} (${all.join(', ')})` : b.variant;
}

const METRIC_LABELS: Record<string, string> = {
  throughput: 'throughput',
  wall_time: 'time (median)',
  max_rss: 'max RSS',
};

function metricLabel(name: string): string {
  return METRIC_LABELS[name] ?? name.replace(/^syscalls\./, '') + (name.startsWith('syscalls.') ? ' calls' : '');
}

/** One table per slope analysis: slope (scaled to the manifest's unit), intercept, R^2. */
export function slopeTables(exp: Pick<Experiment, 'id' | 'manifest'>, fits: readonly SlopeFit[]): string[] {
  const out: string[] = [];
  for (const a of exp.manifest.analyses) {
    const mine = fits.filter((f) => f.experiment === exp.id && f.x === a.x && f.metric === a.metric);
    if (!mine.length) continue;
    const unit = a.unit ?? `${mine[0]?.unit ?? ''} per ${a.x}`;
    const scaled = (v: number) => (a.scale === 1 ? v.toPrecision(4) : (v * a.scale).toFixed(Math.abs(v * a.scale) >= 100 ? 0 : 2));
    const per = a.per;
    const perCell = (f: SlopeFit) => (per && f.per ? ((f.slope / f.per) * per.scale).toPrecision(3) : '—');
    const headers = ['variant', `slope (${unit})`, ...(per ? [per.unit] : []), `intercept (${metricLabel(a.metric)})`, 'R²', `${a.x} values`];
    const body = mine.map((f) => [rowLabel(f, {}), scaled(f.slope), ...(per ? [perCell(f)] : []), formatValue(f.intercept, f.unit), f.r2.toFixed(3), f.xs.join(', ')]);
    const title = a.title ?? `${metricLabel(a.metric)} over ${a.x}: least-squares slope per variant`;
    out.push(`${title}:`, '', markdownTable(headers, body, headers.map((_, i) => (i === 0 ? 'l' : 'r'))), '');
  }
  return out;
}

export const FINDINGS = { lower: 'lower', higher: 'higher', same: 'no significant difference', untestable: 'too few samples to test' } as const;

/** One question: a line per scenario, each variant's ratio and whether it is significant. */
export function answerLines(a: Answer, benchmarks: readonly Benchmark[]): string[] {
  const scenarios = answerScenarios(a, benchmarks);
  const head = `**${escapeCell(a.question)}** ${metricLabel(a.metric)}, ${escapeCell(answerComparison(a))}:`;
  if (!scenarios.length) return [head, '', `No pair of points measured for it in this run.`, ''];
  const line = (s: AnswerScenario) => `- ${s.scenario ? `${escapeCell(s.scenario)}: ` : ''}${s.items.map((i) => `${escapeCell(i.variant)} ${formatRatio(i.ratio)} (${FINDINGS[i.finding]})`).join('; ')}`;
  return [head, '', ...scenarios.map(line), ''];
}

export function experimentSummary(exp: Pick<Experiment, 'id' | 'manifest'>, benchmarks: readonly Benchmark[], fits: readonly SlopeFit[] = []): string {
  const m = exp.manifest;
  const mine = benchmarks.filter((b) => b.experiment === exp.id);
  const out: string[] = [`## ${exp.id}: ${m.title}`, '', `_${m.question}_`, ''];
  const s = m.summary;
  if (s) {
    const rows = mine.filter((b) => b.status === 'ok' && matchesAt(b, s.at, 'matches'));
    const atText = Object.entries(s.at)
      .map(([k, v]) => `${k} = ${Array.isArray(v) ? v.map((x) => formatParam(x, m.parameters[k]?.unit)).join(', ') : formatParam(v, m.parameters[k]?.unit)}`)
      .join(', ');
    if (rows.length) {
      const headers = ['variant', ...s.metrics.map(metricLabel), ...s.ratios.map((r) => `${metricLabel(r.metric)} vs ${ratioTarget(r, (k) => m.parameters[k]?.unit)}`)];
      const body = rows.map((b) => {
        const ref = (r: (typeof s.ratios)[number]) => ratioReference(b, r, mine, s.at);
        return [
          rowLabel(b, s.at),
          ...s.metrics.map((name) => {
            const metric = b.metrics[name];
            return metric ? formatValue(metric.value, metric.unit) : '—';
          }),
          ...s.ratios.map((r) => {
            const mine_ = b.metrics[r.metric];
            const theirs = ref(r)?.metrics[r.metric];
            return mine_ && theirs ? formatRatio(mine_.value / theirs.value) : '—';
          }),
        ];
      });
      out.push(`At ${atText}:`, '', markdownTable(headers, body, headers.map((_, i) => (i === 0 ? 'l' : 'r'))), '');
    } else out.push(`No successful benchmark at ${atText}.`, '');
  }
  for (const a of s?.answers ?? []) out.push(...answerLines(a, mine));
  out.push(...slopeTables(exp, fits));
  const counts = { ok: 0, skipped: 0, failed: 0 };
  for (const b of mine) counts[b.status]++;
  out.push(`${mine.length} benchmarks: ${counts.ok} ok, ${counts.skipped} skipped, ${counts.failed} failed.`, '');
  const problems = mine.filter((b) => b.status !== 'ok');
  if (problems.length) {
    // One line per distinct (status, variant, reason): a missing runtime skips every point.
    const grouped = new Map<string, { b: Benchmark; n: number }>();
    for (const b of problems) {
      const key = `${b.status}|${b.variant}|${JSON.stringify(Object.fromEntries(Object.entries(b.params).filter(([k]) => !(k in m.parameters))))}|${b.reason}`;
      const g = grouped.get(key);
      if (g) g.n++;
      else grouped.set(key, { b, n: 1 });
    }
    for (const { b, n } of grouped.values()) {
      const where = n > 1 ? `${rowLabel(b, m.parameters)} (${n} points)` : b.id;
      out.push(`- **${b.status}** ${escapeCell(where)}: ${escapeCell(b.reason ?? 'no reason given')}${b.hint ? ` — ${codeSpan(b.hint)}` : ''}`);
    }
    out.push('');
  }
  return out.join('\n');
}

export function renderSummary(results: Results, experiments: readonly Pick<Experiment, 'id' | 'manifest'>[]): string {
  const r = results.run;
  const head = [
    `# jsio-bench ${r.partial ? 'PARTIAL run (interrupted)' : 'run'} ${r.id}`,
    '',
    `Profile **${r.profile}** on machine \`${r.machine.id}\` (${r.machine.cpu}, ${r.machine.cores} cores), commit \`${r.commit.sha.slice(0, 12)}\`${r.commit.dirty ? ' (with uncommitted changes)' : ''} ${r.commit.subject ? `“${escapeCell(r.commit.subject)}”` : ''}.`,
    '',
  ];
  const ids = new Set(results.benchmarks.map((b) => b.experiment));
  const body = experiments.filter((e) => ids.has(e.id)).map((e) => experimentSummary(e, results.benchmarks, results.analyses ?? []));
  const tools = Object.entries(r.toolchains)
    .map(([k, v]) => `${k} ${v}`)
    .join('; ');
  return [...head, ...body, `Toolchains: ${escapeCell(tools)}.`, ''].join('\n');
}
