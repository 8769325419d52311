/**
 * Two transcripts compared: the programs each side started, as multisets (stages that run in
 * parallel start their programs in any order), plus the order of the timed stage's hyperfine runs.
 * A difference is named the way a reviewer would say it — "hyperfine: `--warmup 3` → `--warmup 1`
 * (413 runs)" — by pairing each run only one side started with the most alike run of the other
 * side's same program. Pure.
 */
import type { NormalRun } from '../../formats/transcript-format.js';

/**
 * Where a difference is: in how hyperfine drives a point's runs (its options: warm-ups, runs,
 * preparation), in a point's own processes (its commands, sandbox, placement, untimed passes,
 * build), or in a start no point's sandbox holds (the harness's own work, shared by every point).
 */
type DifferenceKind = 'driver' | 'program' | 'harness';

interface RunDifference {
  /** What differs, in one line (code spans around what was passed). */
  readonly what: string;
  /** How many runs differ that way. */
  readonly runs: number;
  readonly kind: DifferenceKind;
  /** The points (ids, or `experiment/variant/` for a build) whose runs differ that way. */
  readonly points: readonly string[];
}

export interface TranscriptComparison {
  readonly same: boolean;
  /** Runs both sides started alike. */
  readonly alike: number;
  readonly differences: readonly RunDifference[];
}

/** hyperfine's options and its commands (the positional arguments: what it times). */
export function hyperfineParts(argv: readonly string[]): { options: string[]; commands: string[] } {
  const options: string[] = [];
  const commands: string[] = [];
  // Options of hyperfine's that take their value as the next argument when not given with `=`.
  const takesValue =
    /^-(-(runs|warmup|min-runs|max-runs|prepare|cleanup|setup|shell|style|export-[a-z]+|command-name|parameter-[a-z]+|time-unit|output|input|sort)|[rwmMpcsSunLPD])$/;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('-')) {
      options.push(a);
      if (takesValue.test(a) && i + 1 < argv.length) options.push(argv[++i]!);
    } else commands.push(a);
  }
  return { options, commands };
}

/**
 * A run with hyperfine's driving left out: its options, and how often and in which order it runs
 * each command (warm-ups and runs interleaved as repeated commands), whether the run is hyperfine
 * or the sandbox that starts it (`bwrap … -- hyperfine …`).
 */
function withoutDriver(r: NormalRun): string {
  const at = r.argv.findIndex((a, i) => /(^|\/)hyperfine$/.test(a) && (i === 0 || r.argv[i - 1] === '--'));
  if (at < 0) return keyOf(r);
  const commands = [...new Set(hyperfineParts(r.argv.slice(at)).commands)].sort();
  return keyOf({ ...r, argv: [...r.argv.slice(0, at + 1), ...commands] });
}

/**
 * Where the difference between a run and its counterpart is (DifferenceKind): hyperfine's driving
 * alone is the driver's; anything else of a point's run is its program's.
 */
function kindOf(base: NormalRun, head: NormalRun | undefined): DifferenceKind {
  if (base.point === undefined || (head && head.point === undefined)) return 'harness';
  if (!head) return 'program';
  return withoutDriver(base) === withoutDriver(head) ? 'driver' : 'program';
}

/** A start as the comparison keys it: every field, normalized. */
export const keyOf = (r: NormalRun) => JSON.stringify(r);
/** A code span of what was passed, cut to a readable length. */
const code = (s: string) => `\`${(s.length > 160 ? `${s.slice(0, 157)}…` : s).replaceAll('`', "'")}\``;
/** The program's file name (the site bundles analysis code: no node:path). */
const program = (r: NormalRun) => r.exe.slice(r.exe.lastIndexOf('/') + 1);

/** Runs of `a` not in `b`, counting repeats (a multiset difference). */
function surplus(a: readonly NormalRun[], b: readonly NormalRun[]): NormalRun[] {
  const left = new Map<string, number>();
  for (const r of b) left.set(keyOf(r), (left.get(keyOf(r)) ?? 0) + 1);
  return a.filter((r) => {
    const n = left.get(keyOf(r)) ?? 0;
    if (n > 0) left.set(keyOf(r), n - 1);
    return n === 0;
  });
}

/** The tokens only one list has, in order (a longest-common-subsequence diff). */
export function tokenChange(a: readonly string[], b: readonly string[]): { removed: string[]; added: string[] } {
  const m = a.length;
  const n = b.length;
  const lcs: number[][] = Array.from({ length: m + 1 }, () => new Array<number>(n + 1).fill(0));
  for (let i = m - 1; i >= 0; i--)
    for (let j = n - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const removed: string[] = [];
  const added: string[] = [];
  let i = 0;
  let j = 0;
  while (i < m && j < n) {
    if (a[i] === b[j]) {
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) removed.push(a[i++]!);
    else added.push(b[j++]!);
  }
  removed.push(...a.slice(i));
  added.push(...b.slice(j));
  return { removed, added };
}

/** A list of arguments in a line: short lists whole, long ones by their first and how many more. */
function tokens(list: readonly string[]): string {
  if (!list.length) return '(nothing)';
  const whole = list.join(' ');
  if (whole.length <= 160) return code(whole);
  return `${code(list[0] ?? '')} and ${list.length - 1} more argument${list.length === 2 ? '' : 's'}`;
}

const change = (label: string, removed: string[], added: string[]) =>
  removed.length || added.length ? `${label}${tokens(removed)} → ${tokens(added)}` : '';

const STREAMS = ['standard input', 'standard output', 'standard error'];

/** Paths read with other content on each side, and paths only one side's command names (with what they held). */
function readChange(base: readonly string[], head: readonly string[]) {
  const split = (r: string) => [r.slice(0, r.lastIndexOf(' ')), r.slice(r.lastIndexOf(' ') + 1)] as const;
  const [b, h] = [new Map(base.map(split)), new Map(head.map(split))];
  const other = [...b].filter(([p, d]) => h.has(p) && h.get(p) !== d).map(([p]) => p);
  const t = tokenChange(
    base.filter((r) => !h.has(split(r)[0])),
    head.filter((r) => !b.has(split(r)[0])),
  );
  return { other, ...t };
}

/** How one run differs from another of the same program, in a line. */
function describe(base: NormalRun, head: NormalRun): string {
  const argv = tokenChange(base.argv, head.argv);
  const env = tokenChange(base.env, head.env);
  const limits = tokenChange(
    Object.entries(base.limits).map(([k, v]) => `${k}=${v}`),
    Object.entries(head.limits).map(([k, v]) => `${k}=${v}`),
  );
  const fds = tokenChange(base.fds ?? [], head.fds ?? []);
  const reads = readChange(base.reads ?? [], head.reads ?? []);
  const parts = [
    change('', argv.removed, argv.added),
    change('environment ', env.removed, env.added),
    base.cwd !== head.cwd ? `working directory ${code(base.cwd)} → ${code(head.cwd)}` : '',
    base.affinity !== head.affinity ? `CPUs ${code(base.affinity ?? 'any')} → ${code(head.affinity ?? 'any')}` : '',
    change('limits ', limits.removed, limits.added),
    ...STREAMS.map((stream, i) => {
      const [b, h] = [base.stdio?.[i] ?? 'inherited', head.stdio?.[i] ?? 'inherited'];
      return b !== h ? `${stream} ${code(b)} → ${code(h)}` : '';
    }),
    change('other descriptors ', fds.removed, fds.added),
    reads.other.length ? `reads other content in ${tokens(reads.other)}` : '',
    change('reads ', reads.removed, reads.added),
  ].filter(Boolean);
  return `${program(base)}: ${parts.join('; ') || 'started from another file'}`;
}

/** How far apart two runs are: the tokens one has and the other lacks. */
function distance(a: NormalRun, b: NormalRun): number {
  const t = tokenChange(a.argv, b.argv);
  const e = tokenChange(a.env, b.env);
  return t.removed.length + t.added.length + e.removed.length + e.added.length + (a.cwd === b.cwd ? 0 : 1);
}

/**
 * Pairs each base-only run with the most alike head-only run of the same program (greedy), and
 * counts the differences by their shape: the same change at another size is one difference.
 */
function nameDifferences(baseOnly: NormalRun[], headOnly: NormalRun[]): RunDifference[] {
  const groups = new Map<string, { what: string; runs: number; kind: DifferenceKind; points: Set<string> }>();
  const add = (what: string, kind: DifferenceKind, ...runs: NormalRun[]) => {
    const shape = `${kind} ${what.replace(/\d+/g, '#')}`;
    const g = groups.get(shape) ?? { what, runs: 0, kind, points: new Set<string>() };
    g.runs++;
    for (const r of runs) if (r.point !== undefined) g.points.add(r.point);
    groups.set(shape, g);
  };
  const free = [...headOnly];
  const unpaired: [string, NormalRun][] = [];
  for (const b of baseOnly) {
    let best = -1;
    let bestDistance = Number.POSITIVE_INFINITY;
    for (const [i, h] of free.entries()) {
      if (h.exe !== b.exe) continue;
      const d = distance(b, h);
      if (d < bestDistance) [best, bestDistance] = [i, d];
      if (d <= 2) break;
    }
    if (best < 0) unpaired.push([`${program(b)}: started only by the base`, b]);
    else {
      const h = free.splice(best, 1)[0]!;
      add(describe(b, h), kindOf(b, h), b, h);
    }
  }
  for (const h of free) unpaired.push([`${program(h)}: started only by the head`, h]);
  // Starts one side has no counterpart for, by program: the consequence of a difference above, or one of their own.
  for (const [what, r] of unpaired) add(what, kindOf(r, undefined), r);
  return [...groups.values()]
    .map((g) => ({ ...g, points: [...g.points].sort() }))
    .sort(
      (x, y) => Number(x.what.includes('started only')) - Number(y.what.includes('started only')) || y.runs - x.runs,
    );
}

/** The timed stage's hyperfine runs in order: the same set in another order is a difference. */
function orderDifference(base: readonly NormalRun[], head: readonly NormalRun[]): RunDifference | undefined {
  const timed = (rs: readonly NormalRun[]) => rs.filter((r) => program(r) === 'hyperfine').map(keyOf);
  const [b, h] = [timed(base), timed(head)];
  if (b.length !== h.length || b.every((k, i) => k === h[i])) return undefined;
  const runs = base.filter((r) => program(r) === 'hyperfine');
  const moved = runs.filter((r, i) => keyOf(r) !== h[i]);
  // The order decides what ran before each point: every moved point is driven differently.
  const points = [...new Set(moved.map((r) => r.point).filter((p) => p !== undefined))].sort();
  const kind = moved.some((r) => r.point === undefined) ? 'harness' : 'driver';
  return { what: 'hyperfine: the same runs in another order', runs: moved.length, kind, points };
}

export function compareTranscripts(allBase: readonly NormalRun[], allHead: readonly NormalRun[]): TranscriptComparison {
  // Filling a shared cache entry is done by whichever side comes first (transcript-starts.ts).
  const [base, head] = [allBase.filter((r) => !r.fill), allHead.filter((r) => !r.fill)];
  const baseOnly = surplus(base, head);
  const headOnly = surplus(head, base);
  const differences = nameDifferences(baseOnly, headOnly);
  const order = differences.length ? undefined : orderDifference(base, head);
  const all = order ? [...differences, order] : differences;
  return { same: all.length === 0, alike: base.length - baseOnly.length, differences: all };
}
