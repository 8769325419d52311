/**
 * The harness's own CPU time in a recording, read from outside: the recorded harness's process
 * (found by its command line, which names the recording's own output folder) and every process it
 * starts outside a sandbox (its helpers: a worker, a shell, git) are sampled in /proc until the
 * harness exits, and each one's last sample is kept. What runs in a sandbox (bwrap: the programs,
 * hyperfine and its player, builds, generators) is the points' work, not the harness's, and is left
 * out with everything under it. A busy loop between jobs, in the harness or in a helper it starts
 * with the same command line on both sides, shows here and nowhere in the transcript. A helper that
 * lives less than one sampling interval (200 ms) is missed; its start is still in the transcript.
 * The recorder keeps the part spent while the points' processes ran (the window the transcript's
 * times give: transcript-starts.ts `startsAndWindow`), which is what could weigh on a measurement.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Linux reports times in /proc in USER_HZ ticks, 100 per second on every architecture it exports to userland. */
const TICKS_PER_SECOND = 100;
const EVERY_MS = 200;
/** The sandbox every point's, build's and generator's processes run in (machine/sandbox/). */
const SANDBOX = 'bwrap';

/** The fields of a /proc/<pid>/stat line this needs, counted after the command name's closing parenthesis (the name may hold spaces and parentheses itself). */
export interface ProcStat {
  comm: string;
  ppid: number;
  /** User + system CPU seconds of its threads, not of its children. */
  cpu: number;
  /** When it started, in ticks since boot: with the pid, one process (pids are reused). */
  start: number;
}

export function parseStat(stat: string): ProcStat | undefined {
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  // After ")" the fields start at 3 (state): ppid is field 4, utime 14, stime 15, starttime 22.
  const after = stat.slice(close + 2).split(' ');
  const [ppid, utime, stime, start] = [after[1], after[11], after[12], after[19]].map(Number) as number[];
  if (![ppid, utime, stime, start].every((n) => Number.isFinite(n))) return undefined;
  return { comm: stat.slice(open + 1, close), ppid: ppid!, cpu: (utime! + stime!) / TICKS_PER_SECOND, start: start! };
}

/** The CPU seconds (user + system) in a /proc/<pid>/stat line. */
export function statCpuSeconds(stat: string): number | undefined {
  return parseStat(stat)?.cpu;
}

type Table = Map<number, ProcStat>;

/** Every process's stat now (those that vanish while being read are left out). */
function processTable(): Table {
  const table: Table = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const s = parseStat(readFileSync(`/proc/${name}/stat`, 'utf8'));
      if (s) table.set(Number(name), s);
    } catch {
      // gone meanwhile
    }
  }
  return table;
}

/**
 * The harness's own processes in a table: `root` and its descendants, except each sandbox and
 * everything under it. Pure, for the tests.
 */
export function ownProcesses(table: ReadonlyMap<number, ProcStat>, root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, s] of table) children.set(s.ppid, [...(children.get(s.ppid) ?? []), pid]);
  const own: number[] = [];
  const todo = [root];
  while (todo.length) {
    const pid = todo.pop()!;
    const s = table.get(pid);
    if (!s || (pid !== root && s.comm === SANDBOX)) continue;
    own.push(pid);
    todo.push(...(children.get(pid) ?? []));
  }
  return own;
}

function findProcess(matches: (argv: readonly string[]) => boolean): number | undefined {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (matches(argv)) return Number(name);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

/** The harness's CPU seconds so far (each process's last sample, summed) at each sample's time (seconds since the epoch). */
export type CpuSeries = readonly { t: number; cpu: number }[];

const round = (x: number) => Math.round(x * 100) / 100;

/**
 * The CPU seconds spent between `start` and `end` (seconds since the epoch): the sum at the first
 * sample at or after `end` less the sum at the last sample at or before `start` (0 before the
 * first). So the window is widened to whole samples, never narrowed. Pure.
 */
export function cpuBetween(series: CpuSeries, start: number, end: number): number | undefined {
  if (!series.length) return undefined;
  const before = [...series].reverse().find((s) => s.t <= start)?.cpu ?? 0;
  const after = series.find((s) => s.t >= end)?.cpu ?? series[series.length - 1]!.cpu;
  return round(Math.max(0, after - before));
}

/**
 * Samples the CPU time of the first process whose command line `matches` and of the processes it
 * starts outside a sandbox, until `stop`: the sum of each one's last sample, and that sum at each
 * sample (to take a window of it, `cpuBetween`).
 */
export function watchCpu(matches: (argv: readonly string[]) => boolean): {
  stop: () => { whole: number; series: CpuSeries } | undefined;
} {
  let root: number | undefined;
  const last = new Map<string, number>();
  const series: { t: number; cpu: number }[] = [];
  const sample = () => {
    root ??= findProcess(matches);
    if (root === undefined) return;
    const table = processTable();
    for (const pid of ownProcesses(table, root)) {
      const s = table.get(pid)!;
      last.set(`${pid}@${s.start}`, s.cpu);
    }
    series.push({ t: Date.now() / 1000, cpu: [...last.values()].reduce((a, b) => a + b, 0) });
  };
  const timer = setInterval(sample, EVERY_MS);
  return {
    stop: () => {
      clearInterval(timer);
      if (!last.size) return undefined;
      return { whole: round([...last.values()].reduce((a, b) => a + b, 0)), series };
    },
  };
}
