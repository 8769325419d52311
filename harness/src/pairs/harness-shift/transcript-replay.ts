/**
 * The points a harness change moves only inside their own timed commands or their sandbox's
 * environment, with each side's as its recording shows them: those points are then timed in pairs,
 * as a program change is (the base harness's commands against the head harness's, one pair timer,
 * the same mounts), not by the timed shift's alternating benches. Pure.
 *
 * A point qualifies when, on both sides, hyperfine started it in a sandbox with the same mounts
 * (every bubblewrap option but `--setenv` equal after normalization) and one environment per side,
 * with the same options (no driver difference), timing the same number of commands; its commands
 * or environment differ, and none names a path outside the sandbox (a normalized placeholder: it
 * would mean another file on each machine). Anything else a point's runs differ in (its mounts, its
 * untimed passes, its warm-ups, its build) leaves it to the timed shift.
 */
import type { NormalRun } from '../../formats/transcript-format.js';
import { hyperfineParts } from './transcript-compare.js';

/** One point's timed commands on each side, in the order hyperfine first ran them. */
export interface ReplayPoint {
  point: string;
  base: string[];
  head: string[];
  /** Each side's sandbox environment, when they differ (name and value, sorted by name). */
  env?: { base: [string, string][]; head: [string, string][] };
}

/** Timed commands per point at most (a fit times two sizes). */
const MAX_COMMANDS = 8;
/** A command longer than this is not replayed (the verdict file is bounded). */
const MAX_COMMAND = 4000;
/**
 * Points replayed at most, and their commands' characters at most (the verdict file is read with a
 * bound of 2 MiB): the rest are left to the timed shift. A change to every timed command of the
 * standard profile (about 400 hyperfine points, a few hundred characters a command) fits.
 */
const MAX_REPLAYED = 1000;
const MAX_REPLAYED_CHARS = 1_000_000;

const isHyperfine = (a: string | undefined) => a !== undefined && /(^|\/)hyperfine$/.test(a);
/**
 * A name the normalization put where a path outside the sandbox was (`<side>`, `<cache>/…`, `<tmp>`
 * and the others of transcript-record.ts): any `<name>`, so that a place named later is covered too
 * (a shell redirect is written with spaces, `< file`, and is not taken for one).
 */
const OUTSIDE = /<[a-z][a-z-]*>/;

interface TimedRuns {
  /** The sandboxes that start hyperfine: their options up to `--`, their environment left out, distinct. */
  sandboxes: Set<string>;
  /** Their environments (`--setenv` pairs, sorted), distinct. */
  envs: Set<string>;
  /** hyperfine's own options, distinct. */
  options: Set<string>;
  /** Its commands, distinct, in first-run order. */
  commands: string[];
}

/** A point's hyperfine starts, and the sandboxes that start them, on one side. */
function timedRuns(runs: readonly NormalRun[], point: string): TimedRuns {
  const out: TimedRuns = { sandboxes: new Set(), envs: new Set(), options: new Set(), commands: [] };
  for (const r of runs) {
    if (r.point !== point) continue;
    const at = r.argv.findIndex((a, i) => isHyperfine(a) && (i === 0 || r.argv[i - 1] === '--'));
    if (at < 0) continue;
    if (at > 0) {
      const { options, env } = splitEnv(r.argv.slice(0, at));
      out.sandboxes.add(JSON.stringify(options));
      out.envs.add(JSON.stringify(env));
      continue;
    }
    const { options, commands } = hyperfineParts(r.argv);
    out.options.add(JSON.stringify(options));
    for (const c of commands) if (!out.commands.includes(c)) out.commands.push(c);
  }
  return out;
}

/** A sandbox's options with its `--setenv NAME VALUE` triples taken out, and those as sorted pairs. */
function splitEnv(argv: readonly string[]): { options: string[]; env: [string, string][] } {
  const options: string[] = [];
  const env: [string, string][] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--setenv' && i + 2 < argv.length) {
      env.push([argv[i + 1]!, argv[i + 2]!]);
      i += 2;
    } else options.push(argv[i]!);
  }
  return { options, env: env.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)) };
}

const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));

/** Why a point's timed commands cannot be replayed in pairs, or its two lists of commands. */
export function replayOf(
  base: readonly NormalRun[],
  head: readonly NormalRun[],
  point: string,
): ReplayPoint | { point: string; why: string } {
  const [b, h] = [timedRuns(base, point), timedRuns(head, point)];
  const no = (why: string) => ({ point, why });
  if (!b.commands.length || !h.commands.length) return no('hyperfine does not time it on both sides');
  if (b.sandboxes.size !== 1 || !sameSet(b.sandboxes, h.sandboxes)) return no("its sandbox's mounts differ");
  if (b.envs.size !== 1 || h.envs.size !== 1) return no("its sandbox's environment differs between its own runs");
  if (!sameSet(b.options, h.options)) return no("hyperfine's options differ");
  if (b.commands.length !== h.commands.length || b.commands.length > MAX_COMMANDS)
    return no('the two sides time a different number of commands');
  const [envB, envH] = [b.envs, h.envs].map((e) => JSON.parse([...e][0]!) as [string, string][]) as [
    [string, string][],
    [string, string][],
  ];
  const sameEnv = sameSet(b.envs, h.envs);
  if (sameEnv && b.commands.every((c, i) => c === h.commands[i]))
    return no('its timed commands and their environment are the same on both sides');
  const all = [...b.commands, ...h.commands, ...[...envB, ...envH].flat()];
  if (all.some((c) => OUTSIDE.test(c)))
    return no('a timed command or its environment names a path outside the sandbox');
  if (all.some((c) => c.length > MAX_COMMAND)) return no('a timed command is too long to replay');
  return { point, base: b.commands, head: h.commands, ...(sameEnv ? {} : { env: { base: envB, head: envH } }) };
}

/**
 * The points among `points` (ids, builds excluded) whose differences are all in their own timed
 * commands, at most MAX_REPLAYED, and why each other one is not.
 */
export function replayable(
  base: readonly NormalRun[],
  head: readonly NormalRun[],
  points: readonly string[],
): { replay: ReplayPoint[]; not: { point: string; why: string }[] } {
  const replay: ReplayPoint[] = [];
  const not: { point: string; why: string }[] = [];
  let chars = 0;
  for (const p of points) {
    if (p.endsWith('/')) {
      not.push({ point: p, why: 'a build differs' });
      continue;
    }
    const r = replayOf(base, head, p);
    const size =
      'why' in r
        ? 0
        : [...r.base, ...r.head, ...[...(r.env?.base ?? []), ...(r.env?.head ?? [])].flat()].reduce(
            (n, c) => n + c.length,
            p.length,
          );
    if ('why' in r) not.push(r);
    else if (replay.length >= MAX_REPLAYED || chars + size > MAX_REPLAYED_CHARS)
      not.push({ point: p, why: 'more points differ than one verdict file can list with their commands' });
    else {
      replay.push(r);
      chars += size;
    }
  }
  return { replay, not };
}
