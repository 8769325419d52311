/**
 * Every program a process tree started, from strace's calls: at each successful execve, what ran
 * (the file, its arguments and environment) and how (the working directory, the CPUs it may use,
 * the limits set on it), with what each process inherited from the one that forked it. Pure.
 *
 * Task ids are reused (they wrap at pid_max, 32,768 here, within one recording of a quick bench),
 * so a task's state ends with its `+++ exited` line; threads made with CLONE_FS share one working
 * directory, while CPUs and limits are each task's own.
 */
import { posix } from 'node:path';
import { POINT_LABEL } from '../../machine/sandbox/argv.js';
import { type ArgValue, GONE_CALL, pidNumber, returned, type SysCall, splitArgs } from '../../run/strace-log.js';

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
  /** The point (or `experiment/variant/` build) whose sandbox it ran in: see `pointOf`. */
  readonly point?: string;
  /** It fills a shared cache entry, or descends from a start that does: see `fillsCache`. */
  readonly fill?: true;
  /** The `seq` of the sandbox start (an execve of /usr/bin/bwrap) it ran inside, if any. */
  readonly within?: number;
  /** What its standard input, output and error are, when something in the recording wired them: see `descriptor`. */
  readonly stdio?: Stdio;
  /**
   * A sandbox's other inherited descriptors (`3 pipe`, `4 /path`), as the sandbox player shows
   * them: each dup2'd onto itself right after its execve (harness/tools/sandbox-replay.c).
   */
  readonly fds?: readonly string[];
  /**
   * What a sandbox's command names in its read-only binds, by content (`/jsio/inputs/x.bin <digest>`,
   * or `folder`, `missing`), as the sandbox player shows it: a statfs of `/jsio-reads/<digest> <path>`.
   */
  readonly reads?: readonly string[];
}

/** The sandbox player's mark of a path its command names (harness/tools/sandbox-replay.c `show_read`). */
const READ_MARK = /^\/jsio-reads\/([0-9a-f]{32}|folder|missing) (\/.*)$/s;

/** Descriptors 0, 1 and 2: `inherited` (from outside the recording) until a dup2 or dup3 in it sets one. */
type Stdio = readonly [string, string, string];
const INHERITED: Stdio = ['inherited', 'inherited', 'inherited'];

/**
 * What a descriptor strace annotated with -y is, as the transcript compares it: a file by its path,
 * a pipe, socket or other kernel object by its kind (their inode numbers differ from run to run).
 */
export function descriptor(v: string): string | undefined {
  const m = /^\d+<(.*)>$/s.exec(v);
  if (!m) return undefined;
  const kind = /^([a-z_]+):\[\d+\]$/.exec(m[1]!) ?? /^(anon_inode):/.exec(m[1]!);
  return kind ? kind[1] : m[1];
}

/**
 * Whether a start fills an entry of the harness's shared, content-keyed cache (whose root is
 * `cache`, wherever JSIO_CACHE puts it): it names a staging folder (`<entry>.tmp-<pid>`, renamed
 * into place when done: a generated input, a runtime's install) or writes a probe or tool kept
 * under its digest. Both sides share those entries, so whichever side gets there first fills one
 * and the other finds it filled; what the entry holds is named by its key in the starts that use
 * it, which are compared.
 */
function fillsCache(argv: readonly string[], cache: string): boolean {
  const under = (a: string, folder: string) => a.startsWith(`${cache}/${folder}/`);
  return argv.some(
    (a, i) =>
      /\.tmp-\d+(\/|$)/.test(a) ||
      // The CPU probe's folder holds nothing else; a tool is filled where gcc writes it.
      under(a, 'valgrind-cpu') ||
      (['-o', '-dumpdir'].includes(argv[i - 1] ?? '') && under(a, 'tools')),
  );
}

/**
 * Which point a start serves: the label the harness gives a point's sandbox, or, for a build's
 * sandbox, `experiment/variant/` from the build folder it may write (`/jsio/build/E/V`).
 */
function pointOf(exe: string, argv: readonly string[], env: readonly string[]): string | undefined {
  const label = env.find((e) => e.startsWith(`${POINT_LABEL}=`));
  if (label) return label.slice(POINT_LABEL.length + 1);
  if (!exe.endsWith('/bwrap')) return undefined;
  for (const [i, a] of argv.entries()) {
    const build = a === '--bind' ? /^\/jsio\/build\/([^/]+)\/([^/]+)$/.exec(argv[i + 2] ?? '') : null;
    if (build) return `${build[1]}/${build[2]}/`;
  }
  return undefined;
}

/**
 * `argv` with the id of the process itself or an ancestor (`ids`) named `<pid>` where the command
 * takes a process id: after `-p`/`--pid`, as `--pid=ID`, or last in a command given `-p` (`taskset
 * -a -p -c 0 ID`). Anywhere else a number equal to such an id is a coincidence (a block size of
 * 16384 and a pid of 16384: pids wrap at 32,768 here) and stays what was passed. Pure.
 */
export function namedPids(argv: readonly string[], ids: ReadonlySet<string>): string[] {
  const pidMode = argv.includes('-p') || argv.includes('--pid');
  return argv.map((a, i) => {
    const eq = /^--pid=(\d+)$/.exec(a);
    if (eq && ids.has(eq[1]!)) return '--pid=<pid>';
    if (!ids.has(a)) return a;
    const afterFlag = i > 0 && ['-p', '--pid'].includes(argv[i - 1]!);
    return afterFlag || (pidMode && i === argv.length - 1) ? '<pid>' : a;
  });
}

/** Where the harness starts its sandboxes (machine/sandbox: a root-owned bwrap). */
const SANDBOX = '/usr/bin/bwrap';

/** A working directory, shared by the tasks of a clone with CLONE_FS. */
interface Folder {
  cwd: string;
}

interface ProcessState {
  parent?: number;
  folder: Folder;
  affinity?: string;
  /** Who set `affinity` last, and what it was before: a child that ran before its fork returned may have set it. */
  affinitySetBy?: number;
  priorAffinity?: string;
  limits: Record<string, string>;
  point?: string;
  fill?: true;
  /** The `seq` of the sandbox start it runs inside (ProcessRun.within). */
  sandbox?: number;
  stdio: Stdio;
  /** The index of its last start in the runs: what it does after its execve belongs to that start. */
  lastRun?: number;
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
    argv: namedPids(run.argv, ids),
    cwd: run.cwd === '?' ? self.folder.cwd : run.cwd,
    ...(run.affinity === undefined && inherited !== undefined ? { affinity: inherited } : {}),
    ...(run.point === undefined && self.point !== undefined ? { point: self.point } : {}),
    ...(self.fill && !run.fill ? { fill: true as const } : {}),
    ...(run.within === undefined && self.sandbox !== undefined ? { within: self.sandbox } : {}),
    ...(run.stdio === undefined && self.stdio !== INHERITED ? { stdio: self.stdio } : {}),
    limits: { ...self.limits, ...run.limits },
  };
}

/** The tasks of one log as strace shows them: who forked whom, and what each has set. */
class Tasks {
  private readonly states = new Map<number, ProcessState>();
  /** Runs of tasks whose fork strace has not shown yet, by task id. */
  private readonly orphans = new Map<number, number[]>();
  /** Tasks that ended before their fork returned: their id is free again once it has. */
  private readonly endedEarly = new Set<number>();

  constructor(
    private readonly first: number | undefined,
    private readonly cwd: string,
    private readonly cache: string,
    readonly runs: ProcessRun[] = [],
  ) {}

  of(pid: number): ProcessState {
    let s = this.states.get(pid);
    if (!s) {
      s = { folder: { cwd: pid === this.first ? this.cwd : '?' }, limits: {}, stdio: INHERITED };
      this.states.set(pid, s);
    }
    return s;
  }

  /** The point (or build) whose sandbox a task is in, if any. */
  pointOf(pid: number): string | undefined {
    return this.states.get(pid)?.point;
  }

  /** A process naming itself or an ancestor by its id (`taskset -p -c 0 PID`): the id is not what ran. */
  lineage(pid: number): Set<string> {
    const ids = new Set<string>();
    for (let p: number | undefined = pid; p !== undefined && !ids.has(String(p)); p = this.states.get(p)?.parent)
      ids.add(String(p));
    return ids;
  }

  /** A task's end: its id may be another task's next, unless its fork has yet to be shown. */
  gone(pid: number): void {
    if (this.states.get(pid)?.parent === undefined && pid !== this.first) this.endedEarly.add(pid);
    this.states.delete(pid);
  }

  /** `parent`'s fork returned `child`: the child's earlier runs inherit, and it keeps what it set itself. */
  forked(parent: number, child: number, flags: string): void {
    const self = this.of(parent);
    const known = this.states.get(child);
    // The child may have run (and been seen) before its parent's clone returned: what it
    // started then inherited what it could not know yet.
    const ids = new Set([...this.lineage(parent), String(child)]);
    for (const i of this.orphans.get(child) ?? []) this.runs[i] = adopted(this.runs[i]!, parent, self, child, ids);
    this.orphans.delete(child);
    if (this.endedEarly.delete(child)) return;
    const sharesFolder = /\bCLONE_FS\b/.test(flags);
    const cwd = known && known.folder.cwd !== '?' ? known.folder.cwd : self.folder.cwd;
    const affinity = known?.affinity ?? self.affinity;
    const point = known?.point ?? self.point;
    const fill = known?.fill ?? self.fill;
    const sandbox = known?.sandbox ?? self.sandbox;
    this.states.set(child, {
      parent,
      folder: sharesFolder ? self.folder : { cwd },
      ...(affinity !== undefined ? { affinity } : {}),
      ...(point !== undefined ? { point } : {}),
      ...(fill ? { fill } : {}),
      ...(sandbox !== undefined ? { sandbox } : {}),
      limits: { ...self.limits, ...known?.limits },
      stdio: known && known.stdio !== INHERITED ? known.stdio : self.stdio,
    });
  }

  started(pid: number, args: readonly ArgValue[]): void {
    const self = this.of(pid);
    if (self.parent === undefined && pid !== this.first)
      this.orphans.set(pid, [...(this.orphans.get(pid) ?? []), this.runs.length]);
    const ids = this.lineage(pid);
    const exe = str(args[0]);
    const env = list(args[2]);
    self.point = pointOf(exe, list(args[1]), env) ?? self.point;
    if (fillsCache(list(args[1]), this.cache)) self.fill = true;
    self.lastRun = this.runs.length;
    this.runs.push({
      seq: this.runs.length,
      pid,
      ...(self.parent !== undefined ? { parent: self.parent } : {}),
      exe,
      argv: namedPids(list(args[1]), ids),
      env,
      cwd: self.folder.cwd,
      ...(self.affinity !== undefined ? { affinity: self.affinity } : {}),
      ...(self.point !== undefined ? { point: self.point } : {}),
      ...(self.fill ? { fill: true as const } : {}),
      ...(self.sandbox !== undefined ? { within: self.sandbox } : {}),
      limits: { ...self.limits },
      ...(self.stdio !== INHERITED ? { stdio: self.stdio } : {}),
    });
    // A sandbox's start (the harness's bwrap, which a recording's player may stand for): what it and
    // its descendants start next runs inside it.
    if (exe === SANDBOX && self.sandbox === undefined) self.sandbox = self.lastRun;
  }

  /** What the sandbox player showed of a start of its own (after its execve): a descriptor, or a read. */
  shown(pid: number, what: { fd: string } | { read: string }): void {
    const at = this.of(pid).lastRun;
    const run = at === undefined ? undefined : this.runs[at];
    if (!run || !/(^|\/)bwrap$/.test(run.exe)) return;
    this.runs[at!] =
      'fd' in what
        ? { ...run, fds: [...(run.fds ?? []), what.fd].sort() }
        : { ...run, reads: [...(run.reads ?? []), what.read].sort() };
  }
}

/** What one successful call that is not a fork changes. */
function apply(tasks: Tasks, call: SysCall, args: readonly ArgValue[]): void {
  const self = tasks.of(call.pid);
  if (call.name === 'chdir' || call.name === 'fchdir') {
    const to = pathOf(args[0]);
    if (to) self.folder.cwd = posix.resolve(self.folder.cwd === '?' ? '/' : self.folder.cwd, to);
  } else if (call.name === 'sched_setaffinity') {
    const target = tasks.of(pidNumber(str(args[0])) || call.pid);
    target.priorAffinity = target.affinity;
    target.affinitySetBy = call.pid;
    target.affinity = str(args[2]);
  } else if (call.name === 'prlimit64') {
    const target = pidNumber(str(args[0])) || call.pid;
    if (str(args[2]) !== 'NULL') tasks.of(target).limits[str(args[1])] = str(args[2]);
  } else if (call.name === 'setrlimit') {
    self.limits[str(args[0])] = str(args[1]);
  } else if (call.name === 'dup2' || call.name === 'dup3') {
    // The way a spawner wires a child's standard streams between its fork and its execve.
    const target = Number(/^\d+/.exec(str(args[1]))?.[0]);
    const what = descriptor(str(args[0]));
    if (what !== undefined && target > 2 && Number(/^\d+/.exec(str(args[0]))?.[0]) === target)
      tasks.shown(call.pid, { fd: `${target} ${what}` });
    else if (what !== undefined && target >= 0 && target <= 2) {
      const next = [...self.stdio] as [string, string, string];
      next[target] = what;
      self.stdio = next;
    }
  } else if (call.name === 'execve') {
    tasks.started(call.pid, args);
  }
}

/** When the points' processes ran: from the first start in a point's sandbox to the last call of any of them. */
export interface PointWindow {
  start: number;
  end: number;
}

/** The runs of a log; the first process starts in `cwd`, with the harness's cache at `cache`. */
export function processRuns(calls: readonly SysCall[], cwd: string, cache: string): ProcessRun[] {
  return startsAndWindow(calls, cwd, cache).runs;
}

/**
 * The runs of a log, and (with a log printed with times, `strace -ttt`) the window in which the
 * points' processes ran: the measuring stage, without the planning before it and the reports
 * after. A build's sandbox is no point's.
 */
export function startsAndWindow(
  calls: readonly SysCall[],
  cwd: string,
  cache: string,
): { runs: ProcessRun[]; window?: PointWindow } {
  const tasks = new Tasks(calls[0]?.pid, cwd, cache);
  let window: PointWindow | undefined;
  const inPoint = (pid: number) => {
    const point = tasks.pointOf(pid);
    return point !== undefined && !point.endsWith('/');
  };
  for (const call of calls) {
    if (call.time !== undefined && inPoint(call.pid))
      window = { start: Math.min(window?.start ?? call.time, call.time), end: Math.max(window?.end ?? 0, call.time) };
    if (call.name === GONE_CALL) {
      tasks.gone(call.pid);
      continue;
    }
    if (FORKS.has(call.name)) {
      const child = returned(call);
      if (child !== undefined && child > 0) tasks.forked(call.pid, child, call.args);
      continue;
    }
    if (call.name === 'statfs') {
      // Fails by design: the player's mark of a read, never a call of the harness's that matters.
      const mark = READ_MARK.exec(str(splitArgs(call.args)[0]));
      if (mark) tasks.shown(call.pid, { read: `${mark[2]} ${mark[1]}` });
      continue;
    }
    if (returned(call) === undefined) continue;
    apply(tasks, call, splitArgs(call.args));
    // A task's first start in a point opens the window (its execve is the call that put it there).
    if (call.name === 'execve' && call.time !== undefined && inPoint(call.pid))
      window = { start: Math.min(window?.start ?? call.time, call.time), end: Math.max(window?.end ?? 0, call.time) };
  }
  return { runs: tasks.runs, ...(window ? { window } : {}) };
}
