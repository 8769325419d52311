/**
 * The harness's own CPU time in a recording, read from outside: the recorded harness's process
 * (found by its command line, which names the recording's own output folder) is sampled in /proc
 * until it exits, and its last sample is kept — user and system time of its threads, not of its
 * children (the programs it starts, hyperfine's player, builds). A busy loop between jobs shows
 * there and nowhere in the transcript.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Linux reports times in /proc in USER_HZ ticks, 100 per second on every architecture it exports to userland. */
const TICKS_PER_SECOND = 100;
const EVERY_MS = 200;

/**
 * The CPU seconds (user + system) in a /proc/<pid>/stat line: fields 14 and 15, counted after the
 * command name's closing parenthesis (the name may hold spaces and parentheses itself).
 */
export function statCpuSeconds(stat: string): number | undefined {
  const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After ")" the fields start at 3 (state): utime is field 14, stime 15.
  const [utime, stime] = [Number(after[11]), Number(after[12])];
  return Number.isFinite(utime) && Number.isFinite(stime) ? (utime + stime) / TICKS_PER_SECOND : undefined;
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

/** Samples the CPU time of the first process whose command line `matches`, until `stop`. */
export function watchCpu(matches: (argv: readonly string[]) => boolean): { stop: () => number | undefined } {
  let pid: number | undefined;
  let last: number | undefined;
  const sample = () => {
    pid ??= findProcess(matches);
    if (pid === undefined) return;
    try {
      last = statCpuSeconds(readFileSync(`/proc/${pid}/stat`, 'utf8')) ?? last;
    } catch {
      // exited: the last sample stands
    }
  };
  const timer = setInterval(sample, EVERY_MS);
  return {
    stop: () => {
      clearInterval(timer);
      return last === undefined ? undefined : Math.round(last * 100) / 100;
    },
  };
}
