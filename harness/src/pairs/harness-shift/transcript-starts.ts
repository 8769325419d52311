/**
 * Every program a process tree started, from strace's calls: at each successful execve, what ran
 * (the file, its arguments and environment) and how (the working directory, the CPUs it may use,
 * the limits set on it), with what each process inherited from the one that forked it. Pure.
 */
import { posix } from 'node:path';
import { type ArgValue, pidNumber, returned, type SysCall, splitArgs } from '../../run/strace-log.js';

/** One program started: what the transcript compares. */
export interface ProcessRun {
  /** Its place among the starts, in the order strace saw them. */
  readonly seq: number;
  readonly pid: number;
  /** The pid of the process that forked it, when strace saw the fork. */
  readonly parent?: number;
  readonly exe: string;
  readonly argv: readonly string[];
  readonly env: readonly string[];
  readonly cwd: string;
  /** The CPU list set with sched_setaffinity (taskset), as printed; absent when never set. */
  readonly affinity?: string;
  /** Limits set with prlimit64/setrlimit: resource -> the new value as printed. */
  readonly limits: Readonly<Record<string, string>>;
}

interface ProcessState {
  parent?: number;
  cwd: string;
  affinity?: string;
  /** Who set `affinity` last, and what it was before: a child that ran before its fork returned may have set it. */
  affinitySetBy?: number;
  priorAffinity?: string;
  limits: Record<string, string>;
}

const FORKS = new Set(['clone', 'clone3', 'fork', 'vfork']);

const str = (v: ArgValue | undefined): string => (typeof v === 'string' ? v : '');
const list = (v: ArgValue | undefined): readonly string[] => (Array.isArray(v) ? v : []);

/** A path strace annotated with -y (`4</newroot>`), or the path argument itself. */
function pathOf(v: ArgValue | undefined): string | undefined {
  const s = str(v);
  const fd = /^\d+<(.*)>$/.exec(s);
  return fd ? fd[1] : s || undefined;
}

/**
 * A run of a child strace showed before its fork returned, given what it inherited from `parent`:
 * its directory, limits and CPUs as the parent had them when it forked (not what the child itself
 * set on the parent since, as `taskset -p PARENT` does), and its ancestors' ids named.
 */
function adopted(
  run: ProcessRun,
  parent: number,
  self: ProcessState,
  child: number,
  ids: ReadonlySet<string>,
): ProcessRun {
  const inherited = self.affinitySetBy === child ? self.priorAffinity : self.affinity;
  return {
    ...run,
    parent,
    argv: run.argv.map((a) => (ids.has(a) ? '<pid>' : a)),
    cwd: run.cwd === '?' ? self.cwd : run.cwd,
    ...(run.affinity === undefined && inherited !== undefined ? { affinity: inherited } : {}),
    limits: { ...self.limits, ...run.limits },
  };
}

/** The runs of a log; the first process starts in `cwd`. */
export function processRuns(calls: readonly SysCall[], cwd: string): ProcessRun[] {
  const states = new Map<number, ProcessState>();
  const first = calls[0]?.pid;
  const stateOf = (pid: number): ProcessState => {
    let s = states.get(pid);
    if (!s) {
      s = { cwd: pid === first ? cwd : '?', limits: {} };
      states.set(pid, s);
    }
    return s;
  };
  // A process naming itself or an ancestor by its id (`taskset -p -c 0 PID`): the id is not what ran.
  const lineage = (pid: number): Set<string> => {
    const ids = new Set<string>();
    for (let p: number | undefined = pid; p !== undefined && !ids.has(String(p)); p = states.get(p)?.parent)
      ids.add(String(p));
    return ids;
  };
  const runs: ProcessRun[] = [];
  /** Runs of processes whose fork strace has not shown yet, by pid. */
  const orphans = new Map<number, number[]>();
  for (const call of calls) {
    const self = stateOf(call.pid);
    const args = splitArgs(call.args);
    if (FORKS.has(call.name)) {
      const child = returned(call);
      if (child === undefined || child <= 0) continue;
      const known = states.get(child);
      // The child may have run (and been seen) before its parent's clone returned: what it
      // started then inherited what it could not know yet.
      const ids = new Set([...lineage(call.pid), String(child)]);
      for (const i of orphans.get(child) ?? []) runs[i] = adopted(runs[i]!, call.pid, self, child, ids);
      orphans.delete(child);
      states.set(child, {
        parent: call.pid,
        cwd: known && known.cwd !== '?' ? known.cwd : self.cwd,
        ...((known?.affinity ?? self.affinity) ? { affinity: known?.affinity ?? self.affinity } : {}),
        limits: { ...self.limits, ...known?.limits },
      });
      continue;
    }
    if (returned(call) === undefined) continue;
    if (call.name === 'chdir' || call.name === 'fchdir') {
      const to = pathOf(args[0]);
      if (to) self.cwd = posix.resolve(self.cwd === '?' ? '/' : self.cwd, to);
    } else if (call.name === 'sched_setaffinity') {
      const target = stateOf(pidNumber(str(args[0])) || call.pid);
      target.priorAffinity = target.affinity;
      target.affinitySetBy = call.pid;
      target.affinity = str(args[2]);
    } else if (call.name === 'prlimit64') {
      const target = pidNumber(str(args[0])) || call.pid;
      if (str(args[2]) !== 'NULL') stateOf(target).limits[str(args[1])] = str(args[2]);
    } else if (call.name === 'setrlimit') {
      self.limits[str(args[0])] = str(args[1]);
    } else if (call.name === 'execve') {
      if (self.parent === undefined && call.pid !== first)
        orphans.set(call.pid, [...(orphans.get(call.pid) ?? []), runs.length]);
      runs.push({
        seq: runs.length,
        pid: call.pid,
        ...(self.parent !== undefined ? { parent: self.parent } : {}),
        exe: str(args[0]),
        argv: list(args[1]).map((a) => (lineage(call.pid).has(a) ? '<pid>' : a)),
        env: list(args[2]),
        cwd: self.cwd,
        ...(self.affinity !== undefined ? { affinity: self.affinity } : {}),
        limits: { ...self.limits },
      });
    }
  }
  return runs;
}
