/**
 * The Overview's counted work, as data and sentences: at an experiment's headline point, per line,
 * the user-space instructions counted under Valgrind (per operation where the point is a fit,
 * start-up cancelled; per run otherwise), the system calls the manifest's summary names (per
 * operation over the run's operations, or per run), and beside them the headline metric with its
 * interval. A count that is evidence only, or whose repeats disagreed, says so: it is no figure
 * to act on. What a count covers and leaves out is said once, above the lines. Pure and free of
 * Node imports (bundled into the site).
 */
import { medianInterval } from '../analysis/median-interval.js';
import type { Benchmark, Counts, Metric } from '../formats/results-format.js';
import { compareText } from '../lib/compare-text.js';
import { formatParam, formatValue, groupDigits } from '../lib/format.js';
import { counterName, SYSCALL_PREFIX } from '../model/metrics.js';
import { type At, labelWith, matchesAt } from '../model/select.js';
import type { Unmeasurable } from './count-rule.js';
import { unmeasurableText } from './count-span-text.js';

/** What the lines are read from: the run file's copy of the experiment (formats/results-format.ts). */
export interface CountInfo {
  parameters?: Record<string, { unit?: string }>;
  summary?: { metrics?: readonly string[] };
  headline?: { at: At; metrics: readonly string[] };
}

/** A 95% interval of a median; not `exact`: the runs' whole range (too few runs for 95%). */
type Interval = { low: number; high: number; exact: boolean };

export interface CountLine {
  label: string;
  variant: string;
  reference: boolean;
  /** The headline metric with its interval. */
  time?: { metric: string; value: number; unit: string; interval?: Interval };
  /** Instructions per operation (a fit: start-up cancelled) or per run (start-up included). */
  instructions?: { value: number; perOp: boolean };
  /**
   * A fit whose span measured no cost per operation: the two sizes' totals where the run kept them
   * (an older run kept only its negative count per operation, and says so without them).
   */
  unmeasurable?: Unmeasurable | { why: 'negative' };
  /** System calls by name ("read"; "" for all of them), per operation or per run like `perOp`. */
  syscalls: { call: string; value: number }[];
  syscallsPerOp: boolean;
  counts: Counts;
}

interface CountGroup {
  /** The headline point's parameters, as a reader says them ("bs 64 KiB"). */
  at: string;
  lines: CountLine[];
}

export interface CountModel {
  /** What one operation is called ("read"), from the per-operation label; "operation" otherwise. */
  op: string;
  groups: CountGroup[];
  /** Each distinct setting counts were made with, and the lines made with it. */
  settings: { settings: string; lines: string[] }[];
}

/** The noun after "per" in a label ("instructions per read" -> "read"). */
export function opNoun(label: string): string {
  return /\bper (.+)$/.exec(label)?.[1]?.trim() || 'operation';
}

/** The median's interval: a fit's own, else from the runs (their range below six). */
function intervalOf(m: Metric): Interval | undefined {
  if (m.fit?.ci) return { low: m.fit.ci[0], high: m.fit.ci[1], exact: true };
  const s = m.samples && m.samples.length > 1 ? medianInterval(m.samples) : undefined;
  return s ? { low: s.low, high: s.high, exact: s.exact } : undefined;
}

/**
 * The run's operations: the count the headline metric's fit is over (wc's reads), as the point
 * reported it, else as its own fit took it at the point's own size. Undefined for a point with
 * neither (a variant that reports no count and was not fitted): its calls are said per run.
 */
function opsOf(b: Pick<Benchmark, 'metrics'>, x: string | undefined, timeMetric: string | undefined) {
  const fit = timeMetric ? b.metrics[timeMetric]?.fit : undefined;
  const ops = (x ? b.metrics[x]?.value : undefined) ?? fit?.xs[fit.scales.indexOf(1)];
  return ops !== undefined && ops > 0 ? ops : undefined;
}

/** The system calls to state: the per-name ones the summary names and the point made, else the total. */
function callsOf(b: Pick<Benchmark, 'metrics'>, named: readonly string[]): { call: string; value: number }[] {
  const calls = named
    .filter((n) => n.startsWith(SYSCALL_PREFIX) && n !== `${SYSCALL_PREFIX}total`)
    .flatMap((n) => {
      const v = b.metrics[n]?.value;
      return v !== undefined && v > 0 ? [{ call: counterName(n), value: v }] : [];
    });
  const total = b.metrics[`${SYSCALL_PREFIX}total`]?.value;
  return calls.length || total === undefined ? calls : [{ call: '', value: total }];
}

/**
 * The counted work at the experiment's headline point, or undefined when nothing there was counted
 * (or the experiment names no headline). `references` are the Overview's reference lines (C).
 */
export function countModel(
  info: CountInfo,
  benchmarks: readonly Benchmark[],
  label: (metric: string) => string,
  references: readonly { variant: string; label?: string }[] = [],
): CountModel | undefined {
  const headline = info.headline;
  if (!headline) return undefined;
  const points = benchmarks.filter((b) => b.status === 'ok' && b.counts && matchesAt(b, headline.at, 'matches'));
  if (!points.length) return undefined;
  const timeMetric = headline.metrics.find((m) => points.some((b) => b.metrics[m]));
  // What one operation is counted as: the x of the headline metric's fit, where it is one.
  const x = timeMetric ? points.map((b) => b.metrics[timeMetric]?.fit?.x).find(Boolean) : undefined;
  const fixed = Object.keys(headline.at);
  const refs = new Map(references.map((r, i) => [r.variant, { label: r.label ?? r.variant, rank: i }]));
  const groups = new Map<string, CountLine[]>();
  const settings = new Map<string, string[]>();
  for (const b of points) {
    const at = fixed
      .filter((k) => k in b.params)
      .map((k) => `${k} ${formatParam(b.params[k]!, info.parameters?.[k]?.unit)}`)
      .join(', ');
    const own = labelWith(
      b.variant,
      Object.entries(b.params).filter(([k]) => !fixed.includes(k)),
    );
    const ref = refs.get(b.variant);
    const line = lineOf(b, ref ? `${ref.label} (${own})` : own, timeMetric, info.summary?.metrics ?? [], {
      reference: Boolean(ref),
      x,
    });
    groups.set(at, [...(groups.get(at) ?? []), line]);
    if (b.counts?.status === 'ok')
      settings.set(b.counts.settings, [...(settings.get(b.counts.settings) ?? []), line.label]);
  }
  // The references in the Overview's order first, then the others by label.
  const rank = (l: CountLine) => refs.get(l.variant)?.rank ?? references.length;
  return {
    op: opNoun(label('instructions_per_op')),
    groups: [...groups]
      .sort(([a], [b]) => compareText(a, b))
      .map(([at, lines]) => ({
        at,
        lines: lines.sort((a, b) => rank(a) - rank(b) || compareText(a.label, b.label)),
      })),
    settings: [...settings].map(([s, lines]) => ({ settings: s, lines })),
  };
}

function lineOf(
  b: Benchmark,
  label: string,
  timeMetric: string | undefined,
  summary: readonly string[],
  { reference, x }: { reference: boolean; x: string | undefined },
): CountLine {
  const counts = b.counts!;
  const kept = b.metrics.instructions_per_op?.value;
  // An older run may hold a negative count per operation: no cost, so not shown as one.
  const perOp = kept !== undefined && kept > 0 ? kept : undefined;
  const unmeasurable =
    counts.status === 'ok' && counts.unmeasurable
      ? counts.unmeasurable
      : kept !== undefined && kept <= 0
        ? ({ why: 'negative' } as const)
        : undefined;
  const perRun = b.metrics.instructions?.value;
  // Calls are said per operation beside instructions per operation, never beside a count per run.
  const ops = perOp !== undefined ? opsOf(b, x, timeMetric) : undefined;
  const t = timeMetric ? b.metrics[timeMetric] : undefined;
  const interval = t ? intervalOf(t) : undefined;
  return {
    label,
    variant: b.variant,
    reference,
    ...(t ? { time: { metric: timeMetric!, value: t.value, unit: t.unit, ...(interval ? { interval } : {}) } } : {}),
    ...(counts.status === 'ok' && !unmeasurable && (perOp ?? perRun) !== undefined
      ? { instructions: { value: (perOp ?? perRun)!, perOp: perOp !== undefined } }
      : {}),
    ...(unmeasurable ? { unmeasurable } : {}),
    syscalls: callsOf(b, summary).map((c) => ({ ...c, value: ops ? c.value / ops : c.value })),
    syscallsPerOp: ops !== undefined,
    counts,
  };
}

/** An instruction count as a reader takes it in: whole where large, one decimal where small. */
function instructionsText(v: number): string {
  return Math.abs(v) >= 100 ? groupDigits(Math.round(v)) : v.toFixed(1);
}

/** "1.00 read() and 0.02 epoll_pwait()", or "291 system calls". */
function callsText(l: CountLine): string {
  const one = (c: { call: string; value: number }) => {
    const n = l.syscallsPerOp ? c.value.toFixed(2) : groupDigits(Math.round(c.value));
    return c.call ? `${n} ${c.call}()` : `${n} system calls`;
  };
  const parts = l.syscalls.map(one);
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? '');
}

/** A time with its interval: "30.2 µs (28.9 µs … 31.4 µs)"; the runs' range says so. */
function timeText(t: NonNullable<CountLine['time']>, label: string): string {
  const f = (v: number) => formatValue(v, t.unit);
  const i = t.interval;
  const range = i ? ` (${i.exact ? '' : 'range of the runs: '}${f(i.low)} … ${f(i.high)})` : '';
  return `${label} ${f(t.value)}${range}`;
}

/**
 * One line as a sentence: "node-stream (node20): 15,243 instructions and 1.00 read() per read;
 * cost per read 30.2 µs (28.9 µs … 31.4 µs)", and what makes the count no figure to act on.
 */
export function lineSentence(l: CountLine, op: string, label: (metric: string) => string): string {
  const calls = callsText(l);
  const c = l.counts;
  let work: string;
  if (c.status === 'unavailable') work = `not counted (${c.reason})${calls ? `; ${calls} per run` : ''}`;
  else if (l.unmeasurable) work = `${unmeasurableText(l.unmeasurable, op)}${calls ? `; ${calls} per run` : ''}`;
  else if (!l.instructions) work = calls ? `${calls} per run` : 'no count';
  else {
    const ins = `${instructionsText(l.instructions.value)} instructions`;
    const per = (yes: boolean) => (yes ? `per ${op}` : 'per run');
    // "17.1 instructions and 1.01 read()", but "…instructions, 1.13 read() and 0.09 epoll_pwait()".
    const and = l.syscalls.length > 1 ? ', ' : ' and ';
    work =
      !calls || l.syscallsPerOp === l.instructions.perOp
        ? `${ins}${calls ? `${and}${calls}` : ''} ${per(l.instructions.perOp)}`
        : `${ins} ${per(l.instructions.perOp)}, ${calls} ${per(l.syscallsPerOp)}`;
  }
  const time = l.time ? `; ${timeText(l.time, label(l.time.metric))}` : '';
  return `${l.label}: ${work}${time}${caveat(c)}`;
}

/** Why a count is no figure to act on, or nothing. */
export function caveat(c: Counts): string {
  if (c.status !== 'ok') return '';
  const out: string[] = [];
  if (c.role === 'evidence') out.push(`evidence only${c.because ? `: ${c.because}` : ''}`);
  if (!c.deterministic)
    out.push(
      `not deterministic here: its repeated counts differed by ${(c.spread * 100).toFixed(2)}% (tolerance ${(c.tolerance * 100).toFixed(1)}%)`,
    );
  return out.length ? ` (${out.join('; ')})` : '';
}

/** What every count on the page covers and leaves out, said once. */
export function coverageSentence(model: CountModel): string {
  const perOp = model.groups.some((g) => g.lines.some((l) => l.instructions?.perOp));
  const perOpCalls = model.groups.some((g) => g.lines.some((l) => l.syscallsPerOp));
  return [
    'The counts are the user-space instructions of the measured process (its children included), counted under Valgrind with each runtime’s deterministic settings; kernel work is not in the count, the system calls (traced with strace) stand for it.',
    perOp ? ` Instructions per ${model.op} come from two input sizes, start-up cancelled.` : '',
    perOpCalls ? ` System calls per ${model.op} are a run’s calls over its ${model.op}s, start-up included.` : '',
  ].join('');
}
