/**
 * The numbers two harnesses made from the same raw output: both recordings' hyperfine is the
 * player (hyperfine-player.ts), which hands each command line the same runs on both sides, so
 * every value made from hyperfine's output must come out equal unless the analysis changed.
 * Values made from what really ran in the recording (the programs' own reports, the harness's
 * clock, GNU time, the stubbed strace and Valgrind) are not replayed, so they are left out and
 * said to be — unless the head's analysis was also handed the base's raw samples (`every`), which
 * compares them all. Pure.
 */
import type { Benchmark, Metric, Results } from '../../formats/results-format.js';

/** Sources whose values come only from the player's output (and the point's fixed sizes). */
const REPLAYED = new Set(['hyperfine', 'derived', 'fit']);

export interface NumberMove {
  /** The metric's name, with what moved when it is not the reported value ("wall_time: samples"). */
  readonly what: string;
  /** Benchmarks whose value moved. */
  readonly benchmarks: number;
  /** The smallest and largest relative move of the reported value, when both were numbers ≠ 0. */
  readonly range?: readonly [number, number];
}

export interface NumbersComparison {
  readonly same: boolean;
  /** Values compared exactly (every number of every replayed metric). */
  readonly compared: number;
  /** Benchmarks whose numbers come from a real run (self-timed, or a fit over sizes its programs reported differently): not compared. */
  readonly notReplayed: number;
  /** Benchmarks both analyses made from the base's raw samples (`bench --reduce`), when that was done. */
  readonly reduced?: number;
  /** The head's harness could not make numbers from the base's raw samples (the diff is then timed). */
  readonly unreduced?: true;
  readonly moves: readonly NumberMove[];
}

/** A benchmark is replayed when hyperfine timed it: its metrics then come from the player's runs. */
const replayed = (b: Benchmark) => Object.values(b.metrics ?? {}).some((m) => m.source === 'hyperfine');

const fitInputs = (b: Benchmark) =>
  JSON.stringify(
    Object.entries(b.metrics ?? {})
      .filter(([, m]) => m.fit)
      .map(([name, m]) => [name, m.fit!.xs]),
  );
const sameFitInputs = (a: Benchmark, b: Benchmark) => fitInputs(a) === fitInputs(b);

/** Every number of a metric, flattened with its place, so that any moved number is found. */
function numbersOf(m: Metric): Map<string, number> {
  const out = new Map<string, number>([['value', m.value]]);
  for (const [i, v] of (m.samples ?? []).entries()) out.set(`samples[${i}]`, v);
  for (const [k, v] of Object.entries(m.stats ?? {})) out.set(`stats.${k}`, v);
  if (m.fit) {
    out.set('fit.r2', m.fit.r2);
    for (const [i, v] of (m.fit.ci ?? []).entries()) out.set(`fit.ci[${i}]`, v);
    for (const [i, v] of m.fit.xs.entries()) out.set(`fit.xs[${i}]`, v);
  }
  return out;
}

class Tally {
  readonly moves = new Map<string, { n: number; lo: number; hi: number; ranged: boolean }>();
  compared = 0;
  add(what: string, rel?: number): void {
    const m = this.moves.get(what) ?? {
      n: 0,
      lo: Number.POSITIVE_INFINITY,
      hi: Number.NEGATIVE_INFINITY,
      ranged: false,
    };
    m.n++;
    if (rel !== undefined && Number.isFinite(rel)) {
      m.lo = Math.min(m.lo, rel);
      m.hi = Math.max(m.hi, rel);
      m.ranged = true;
    }
    this.moves.set(what, m);
  }
}

function compareMetric(name: string, a: Metric | undefined, b: Metric | undefined, t: Tally): void {
  if (!a || !b) {
    t.add(`${name}: ${a ? 'only on the base' : 'only on the head'}`);
    return;
  }
  if (a.unit !== b.unit || a.direction !== b.direction) t.add(`${name}: unit or direction`);
  const [na, nb] = [numbersOf(a), numbersOf(b)];
  t.compared += na.size;
  if (nb.get('value') !== na.get('value'))
    t.add(`${name}: reported value`, a.value !== 0 ? (b.value - a.value) / Math.abs(a.value) : undefined);
  const others = [...new Set([...na.keys(), ...nb.keys()])].filter((k) => k !== 'value' && na.get(k) !== nb.get(k));
  if (others.length) t.add(`${name}: ${[...new Set(others.map((k) => k.replace(/\[\d+\]$/, '')))].join(', ')}`);
}

/** Sources a reduced run (`bench --reduce`) does not make: the counting pass after the timed runs. */
const NOT_REDUCED = new Set(['valgrind']);

/**
 * Compares two recordings' results benchmark by benchmark; `base`/`head` are results.json as
 * written. `every`: both were made from the same raw samples (`head` by `bench --reduce` of the
 * base's), so every benchmark and every metric a reduction makes is compared, self-timed ones too.
 */
export function compareNumbers(base: Results, head: Results, every = false): NumbersComparison {
  const t = new Tally();
  const heads = new Map(head.benchmarks.map((b) => [b.id, b]));
  let notReplayed = 0;
  for (const a of base.benchmarks) {
    const b = heads.get(a.id);
    heads.delete(a.id);
    if (!b) {
      t.add('benchmark only on the base');
      continue;
    }
    if (a.status !== b.status) t.add(`status ${a.status} → ${b.status}`);
    // A fit's sizes (fit.xs) come from what the programs reported in their real check runs: where
    // they differ, the analyses were handed different inputs, and nothing says which moved the values.
    if (!every && ((!replayed(a) && !replayed(b)) || !sameFitInputs(a, b))) {
      notReplayed++;
      continue;
    }
    const names = [...new Set([...Object.keys(a.metrics ?? {}), ...Object.keys(b.metrics ?? {})])].sort();
    for (const name of names) {
      const [ma, mb] = [a.metrics?.[name], b.metrics?.[name]];
      const source = ma?.source ?? mb?.source ?? '';
      if (every ? NOT_REDUCED.has(source) : !REPLAYED.has(source)) continue;
      compareMetric(name, ma, mb, t);
    }
  }
  for (const _ of heads.values()) t.add('benchmark only on the head');
  const moves = [...t.moves].map(([what, m]) => ({
    what,
    benchmarks: m.n,
    ...(m.ranged ? { range: [m.lo, m.hi] as const } : {}),
  }));
  return { same: moves.length === 0, compared: t.compared, notReplayed, moves };
}

/** "wall_time: reported value: 413 benchmarks move by −2.1 … +4.8 %" */
export function moveText(m: NumberMove): string {
  const pct = (x: number) => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(x * 100).toFixed(1)}`;
  const range = m.range ? ` by ${pct(m.range[0])} … ${pct(m.range[1])} %` : '';
  return `${m.what}: ${m.benchmarks} benchmark${m.benchmarks === 1 ? '' : 's'}${range}`;
}
