/**
 * How much of the machine OTHER processes used while a diff measured. The load average cannot
 * say: it counts the diff's own programs too, so on a 2-core runner a diff that runs one program
 * at a time (plus a multi-threaded one now and then) ends at a load of 1.5-3 on an idle machine,
 * and a warning keyed on it would fire on every diff. Here: the machine's busy CPU time over the
 * interval (/proc/stat) minus this process's and its reaped children's (/proc/self/stat).
 */
import { read } from './conditions.js';

/** CPU time in clock ticks at one moment. */
export interface CpuSnapshot {
  /** All CPUs' busy ticks (everything but idle and iowait). */
  machineBusy: number;
  /** This process's ticks plus those of its children it has waited for (and theirs). */
  own: number;
  /** Milliseconds, monotonic. */
  at: number;
}

/** Linux reports /proc times in USER_HZ, which the kernel ABI fixes at 100 on x86 and arm64. */
const TICKS_PER_SECOND = 100;

/** Busy ticks from /proc/stat's first ("cpu") line, or undefined when it is not one. */
export function machineBusyTicks(procStat: string): number | undefined {
  const line = procStat.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return undefined;
  const f = line.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest and guest_nice are already in user/nice)
  if (f.length < 8 || f.some((x) => !Number.isFinite(x))) return undefined;
  const [user, nice, system, , , irq, softirq, steal] = f as [number, ...number[]];
  return user + nice! + system! + irq! + softirq! + steal!;
}

/** utime + stime + cutime + cstime from /proc/<pid>/stat (fields 14-17; comm may hold spaces). */
export function processTicks(pidStat: string): number | undefined {
  const close = pidStat.lastIndexOf(')');
  if (close < 0) return undefined;
  // After "pid (comm) " the fields start at field 3 (state): utime is the 12th of them.
  const f = pidStat
    .slice(close + 2)
    .trim()
    .split(/\s+/)
    .map(Number);
  const t = f.slice(11, 15);
  if (t.length < 4 || t.some((x) => !Number.isFinite(x))) return undefined;
  return t.reduce((a, b) => a + b, 0);
}

/**
 * Cores' worth of CPU other processes used between two snapshots, on average (0.5 = half a core
 * the whole time). Children still running at `b` are not yet counted as ours, so call it when
 * the diff's processes have ended.
 */
export function foreignCores(a: CpuSnapshot, b: CpuSnapshot, ticksPerSecond = TICKS_PER_SECOND): number {
  const seconds = (b.at - a.at) / 1000;
  if (!(seconds > 0)) return 0;
  const foreign = b.machineBusy - a.machineBusy - (b.own - a.own);
  return Math.max(0, foreign / ticksPerSecond / seconds);
}

/** Now, from /proc; undefined where /proc does not say (not Linux). */
export function cpuSnapshot(now = performance.now()): CpuSnapshot | undefined {
  const machineBusy = machineBusyTicks(read('/proc/stat') ?? '');
  const own = processTicks(read('/proc/self/stat') ?? '');
  return machineBusy === undefined || own === undefined ? undefined : { machineBusy, own, at: now };
}

/** Cores' worth of CPU other processes use now, over a short sample (undefined where /proc says nothing). */
export async function sampleForeignCores(ms = 300): Promise<number | undefined> {
  const a = cpuSnapshot();
  if (!a) return undefined;
  await new Promise((resolve) => setTimeout(resolve, ms));
  const b = cpuSnapshot();
  return b ? foreignCores(a, b) : undefined;
}
