/**
 * The measuring tools of this machine: hyperfine (required, >= 1.15), strace and GNU time
 * (optional: their metrics are then missing, with a note), taskset for pinning, setarch for
 * reading max RSS with the address-space layout fixed (optional: see findSetarch), and the
 * page-cache evictor (harness/tools/evict.c, built with gcc when some job runs cold) and the
 * paired runner's process timer (harness/tools/pair-timer.c).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../lib/errors.js';
import { probe, runProcess, which } from '../lib/exec.js';

/**
 * Where measuring tools are looked for: the system's folders, never the PATH the harness was
 * started with. A checkout can extend that PATH (a root `.npmrc` with `script-shell` put a folder
 * of the checkout first on it, where a fake `dd` re-chunked wc's input pipe).
 */
const SYSTEM_DIRS = ['/usr/local/bin', '/usr/bin', '/bin', '/usr/local/sbin', '/usr/sbin', '/sbin'];

/**
 * A tool in a system folder that only root can write, or undefined. `JSIO_TOOL_DIRS` (folders
 * separated by ':') replaces those folders: the tests plant broken tools there, as `JSIO_BWRAP`
 * plants a broken bubblewrap; the environment is the runner's, not the checkout's.
 */
export function systemTool(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.JSIO_TOOL_DIRS) return which(name, env.JSIO_TOOL_DIRS);
  const dirs = SYSTEM_DIRS.filter((d) => {
    try {
      const s = statSync(d);
      return s.uid === 0 && (s.mode & 0o022) === 0;
    } catch {
      return false;
    }
  });
  return which(name, dirs.join(':'));
}

export interface Tools {
  hyperfine?: string;
  strace?: string;
  gnuTime?: string;
  taskset?: string;
  /**
   * setarch, when `setarch -R` may turn address-space randomization off here (a container's
   * seccomp profile may forbid it). The untimed run that reads max RSS uses it: where a program's
   * pages fall moves its max RSS from run to run, a fixed layout does not (docs/runners.md).
   */
  setarch?: string;
  /** Valgrind, which counts a program's user-space instructions (counts/count-instructions.ts); optional. */
  valgrind?: string;
}

/** "hyperfine 1.15.0" -> [1, 15, 0] */
function parseHyperfineVersion(text: string): [number, number, number] | undefined {
  const m = /hyperfine (\d+)\.(\d+)\.(\d+)/.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

export function findTools(): Tools {
  const hyperfine = systemTool('hyperfine');
  if (!hyperfine)
    throw new UserError(
      'hyperfine is not installed; every timed benchmark needs it',
      'apt-get install hyperfine (or, as root: cargo install hyperfine --locked --root /usr/local)',
    );
  const version = parseHyperfineVersion(probe([hyperfine, '--version']) ?? '');
  if (!version || version[0] < 1 || (version[0] === 1 && version[1] < 15)) {
    throw new UserError(
      `hyperfine ${version?.join('.') ?? '(unknown version)'} is too old; jsio-bench needs >= 1.15`,
      'apt-get install hyperfine (Debian 12 ships 1.15)',
    );
  }
  const strace = systemTool('strace');
  const gnuTime = ['/usr/bin/time'].find((p) => probe([p, '--version'])?.includes('GNU'));
  const taskset = systemTool('taskset');
  const setarch = findSetarch();
  const valgrind = systemTool('valgrind');
  return {
    hyperfine,
    ...(strace ? { strace } : {}),
    ...(gnuTime ? { gnuTime } : {}),
    ...(taskset ? { taskset } : {}),
    ...(setarch ? { setarch } : {}),
    ...(valgrind ? { valgrind } : {}),
  };
}

/** setarch's path when `setarch -R true` runs here (util-linux has it; the personality call may be refused). */
function findSetarch(): string | undefined {
  const setarch = systemTool('setarch');
  const yes = systemTool('true');
  return setarch && yes && probe([setarch, '-R', yes]) !== undefined ? setarch : undefined;
}

/**
 * Builds harness/tools/<name>.c into the cache, in a file named by its source's digest and the
 * compiler's path (two checkouts with different sources each get their own; the same source is
 * built once), written beside and renamed into place so a process starting at once never runs half
 * a file.
 */
export async function buildTool(
  name: string,
  gcc: string,
  root: string,
  cacheDir: string,
  log: (s: string) => void,
): Promise<string | undefined> {
  const src = join(root, 'harness', 'tools', `${name}.c`);
  if (!existsSync(src)) {
    log(`could not build harness/tools/${name}.c: it is missing`);
    return undefined;
  }
  const key = createHash('sha256').update(gcc).update('\0').update(readFileSync(src)).digest('hex').slice(0, 16);
  const bin = join(cacheDir, 'tools', `${name}-${key}`);
  if (existsSync(bin)) return bin;
  mkdirSync(join(cacheDir, 'tools'), { recursive: true });
  const part = `${bin}.${process.pid}.part`;
  const r = await runProcess([gcc, '-O2', '-o', part, src]);
  if (r.code !== 0) {
    log(`could not build harness/tools/${name}.c: ${r.stderr.trim()}`);
    rmSync(part, { force: true });
    return undefined;
  }
  renameSync(part, bin);
  return bin;
}

/** The page-cache evictor (harness/tools/evict.c). */
export function buildEvictor(
  gcc: string,
  root: string,
  cacheDir: string,
  log: (s: string) => void,
): Promise<string | undefined> {
  return buildTool('evict', gcc, root, cacheDir, log);
}
