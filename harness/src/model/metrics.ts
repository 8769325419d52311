/**
 * The metric catalogue: every metric the harness itself produces, declared once with its unit,
 * direction, kind and the names people read. normalize makes them, report labels them, the PR
 * diff and the site classify them by kind, never by testing their names. An experiment's own
 * metrics (its reported fields, rates, percentiles) are declared by its manifest instead.
 * Pure and free of zod: bundled into the site.
 */

export const DIRECTIONS = ['smaller', 'bigger'] as const;
/** Which way is better: the one direction type of results, the store, the diffs and the site. */
export type Direction = (typeof DIRECTIONS)[number];

/**
 * How a metric is measured, which decides how it may be compared:
 * - timed: sampled once per timed run (or fitted through them), noisy: compared by tests on samples;
 * - counter: counted once per check run and deterministic: compared exactly, never sampled;
 * - derived: computed from another metric of the same runs (throughput is bytes over wall
 *   time): reported, but no evidence of its own, so never tested on its own;
 * - work: user-space instructions counted under Valgrind with the runtime's deterministic
 *   settings (counts/count-instructions.ts): exact where each side's repeats agree, compared with
 *   one stated tolerance (counts/count-rule.ts), never sampled.
 */
type MetricKind = 'timed' | 'counter' | 'derived' | 'work';

export interface MetricSpec {
  unit: string;
  direction: Direction;
  kind: MetricKind;
  /** What a reader calls it (the site, the trends): "peak memory (RSS)", never `max_rss`. */
  label: string;
  /** The summary tables' column header, shorter than the label. */
  column: string;
  /** One of a family of per-name counters (syscalls.<name>): kept in the run file, not trended. */
  breakdown?: true;
  /** Absent means zero where the family was counted (strace lists only the calls made). */
  zeroWhenAbsent?: true;
  /**
   * The catalogue's metric for the same quantity, measured once per point: this one samples it
   * again. The paired diff judges it on its pairs; the quick look between stored runs judges the
   * quantity once, by that metric.
   */
  sameQuantityAs?: string;
  /** A count per operation of the program (a fit's slope), where its sibling counts a whole run. */
  perOperation?: true;
}

/** The metrics with fixed names. */
export const HARNESS_METRICS = {
  wall_time: { unit: 's', direction: 'smaller', kind: 'timed', label: 'wall time', column: 'time (median)' },
  throughput: { unit: 'MB/s', direction: 'bigger', kind: 'derived', label: 'throughput', column: 'throughput' },
  max_rss: { unit: 'B', direction: 'smaller', kind: 'counter', label: 'peak memory (RSS)', column: 'max RSS' },
  pipeline_max_rss: {
    unit: 'B',
    direction: 'smaller',
    kind: 'timed',
    label: 'peak memory of the pipeline (RSS)',
    column: 'pipeline max RSS',
    sameQuantityAs: 'max_rss',
  },
  'syscalls.total': {
    unit: 'calls',
    direction: 'smaller',
    kind: 'counter',
    label: 'system calls',
    column: 'total calls',
  },
  instructions: {
    unit: 'instructions',
    direction: 'smaller',
    kind: 'work',
    label: 'instructions per run (start-up included)',
    column: 'instructions',
  },
  instructions_per_op: {
    unit: 'instructions',
    direction: 'smaller',
    kind: 'work',
    label: 'instructions per operation',
    column: 'instructions per op',
    perOperation: true,
  },
} as const satisfies Record<string, MetricSpec>;

export type HarnessMetricName = keyof typeof HARNESS_METRICS;

/**
 * The counted metrics (kind "work", counts/): what counting gives a point, in the catalogue's
 * order. Everything that needs the list (the release sweep's values, the site's trends) takes it
 * from here, so a counted metric added to the catalogue reaches them all.
 */
export const COUNT_METRICS: readonly HarnessMetricName[] = (Object.keys(HARNESS_METRICS) as HarnessMetricName[]).filter(
  (name) => HARNESS_METRICS[name].kind === 'work',
);

/** The prefix of the per-syscall counters: `syscalls.read` counts read() calls. */
export const SYSCALL_PREFIX = 'syscalls.';

/** syscalls.<name>: one counter per system call the program made, from strace. */
export function syscallMetric(call: string): MetricSpec {
  return {
    unit: 'calls',
    direction: 'smaller',
    kind: 'counter',
    label: `${call}() calls`,
    column: `${call} calls`,
    breakdown: true,
    zeroWhenAbsent: true,
  };
}

/**
 * A fit experiment's metrics (manifest `fit`): the manifest names them (`fit.cost` has no
 * default; start-up and steady throughput default to these names), the harness makes them.
 * The cost's label is the experiment's (manifest `labels`: "cost per read").
 */
export const FIT_METRICS = {
  cost: { unit: 'ns', direction: 'smaller', kind: 'timed', label: 'cost per operation', column: 'cost per operation' },
  startup: { unit: 's', direction: 'smaller', kind: 'timed', label: 'start-up time', column: 'start-up' },
  throughput: {
    unit: 'MB/s',
    direction: 'bigger',
    kind: 'timed',
    label: 'steady throughput',
    column: 'steady throughput',
  },
} as const satisfies Record<string, MetricSpec>;

type FitRole = keyof typeof FIT_METRICS;
const FIT_DEFAULT_NAMES: Readonly<Partial<Record<FitRole, string>>> = {
  startup: 'startup',
  throughput: 'steady_throughput',
};

/** The names a fit experiment gives its metrics (manifest `fit`; undefined: the default names). */
export type FitNames = Readonly<Partial<Record<FitRole, string>>>;

/**
 * The catalogue's entry for a metric, or undefined for a metric the harness does not make (an
 * experiment's own). `fit` is the experiment's fit names, when it has a fit.
 */
export function harnessMetric(name: string, fit: FitNames = FIT_DEFAULT_NAMES): MetricSpec | undefined {
  if (Object.hasOwn(HARNESS_METRICS, name)) return HARNESS_METRICS[name as HarnessMetricName];
  for (const role of Object.keys(FIT_METRICS) as FitRole[]) if (fit[role] === name) return FIT_METRICS[role];
  return name.startsWith(SYSCALL_PREFIX) ? syscallMetric(name.slice(SYSCALL_PREFIX.length)) : undefined;
}

/** A counter's name where a list of counters says what it counts: a syscall by its call ("read"). */
export function counterName(name: string): string {
  return name.startsWith(SYSCALL_PREFIX) ? name.slice(SYSCALL_PREFIX.length) : name;
}

/** Metrics worth a trend line: all but a breakdown's members (they stay in the run file). */
export function trended(name: string): boolean {
  return !harnessMetric(name)?.breakdown;
}
