/**
 * The bubblewrap command line of one sandboxed process, and the translation of a command's paths
 * from this machine's folders to the fixed ones inside (model/sandbox.ts). Pure: the side effects
 * (finding bwrap, creating folders, the probe) are in ./open.ts.
 */
import { INSIDE, type Sandbox, type SandboxRoot } from '../../model/sandbox.js';

/** Characters a path may hold to be translated inside a shell command line (shell-quote leaves them bare). */
const PLAIN_PATH = /^\/[A-Za-z0-9._/-]*$/;
const PATH_CHAR = 'A-Za-z0-9._/-';

/** Why a folder cannot be a sandbox root, or undefined when it can. */
export function unplainPath(path: string): string | undefined {
  return PLAIN_PATH.test(path) && !path.endsWith('/')
    ? undefined
    : `${path}: a sandbox folder must be an absolute path of letters, digits and . _ - / only (its commands name it unquoted)`;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `text` (a command line, a path) with every host path of `roots` replaced by its path inside,
 * the longest first, whole path components only ("/a/b" is not translated inside "/a/bc").
 */
export function translate(text: string, roots: readonly SandboxRoot[]): string {
  if (!roots.length) return text;
  const sorted = [...roots].sort((a, b) => b.host.length - a.host.length);
  const inside = new Map(sorted.map((r) => [r.host, r.inside]));
  const re = new RegExp(
    `(^|[^${PATH_CHAR}])(${sorted.map((r) => escapeRegExp(r.host)).join('|')})(?=$|[^A-Za-z0-9._-])`,
    'g',
  );
  return text.replace(re, (_m, before: string, host: string) => `${before}${inside.get(host)}`);
}

/**
 * The variable the harness sets on the bubblewrap of a point's process, naming the point: bwrap
 * clears its environment inside, so the program never sees it; a recording of the harness does.
 */
export const POINT_LABEL = 'JSIO_POINT';

/** The fixed environment of every sandboxed process: the same variables and values on every run, side and runner. */
export const SANDBOX_ENV: Readonly<Record<string, string>> = Object.freeze({
  PATH: '/usr/local/bin:/usr/bin:/bin',
  HOME: INSIDE.tmp,
  TMPDIR: INSIDE.tmp,
  LANG: 'C.UTF-8',
  TZ: 'UTC',
  JUST_HOME: INSIDE.justHome,
  JUST_TARGET: INSIDE.justTarget,
});

/**
 * bwrap's arguments (after its own path) for one process: no network and namespaces of its own,
 * the environment cleared and set, the system's folders and the roots at their fixed paths (only
 * the scratch and the run's `extra` writable ones), the harness's folders inside the side's tree
 * masked read-only, `cwd` (a host path) translated, then `argv` (translated by the caller).
 */
export function bwrapArgs(
  sandbox: Pick<Sandbox, 'system' | 'roots' | 'masks' | 'env'>,
  cwd: string,
  argv: readonly string[],
  extra: readonly SandboxRoot[] = [],
): string[] {
  const roots = [...sandbox.roots, ...extra];
  const out = ['--unshare-all', '--die-with-parent', '--clearenv'];
  for (const [k, v] of Object.entries(sandbox.env)) out.push('--setenv', k, v);
  for (const e of sandbox.system)
    out.push(...('link' in e ? ['--symlink', e.link, e.path] : ['--ro-bind', e.path, e.path]));
  out.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', INSIDE.tmp);
  // Parents before children: a root inside another is mounted over it.
  for (const r of [...roots].filter((r) => !r.alias).sort((a, b) => a.inside.length - b.inside.length))
    out.push(r.writable ? '--bind' : '--ro-bind', r.host, r.inside);
  for (const m of sandbox.masks) out.push('--tmpfs', m, '--remount-ro', m);
  out.push('--chdir', translate(cwd, roots), '--', ...argv);
  return out;
}

/** The whole command: bwrap, its arguments, the program. */
export function sandboxed(
  sandbox: Sandbox,
  cwd: string,
  argv: readonly string[],
  extra: readonly SandboxRoot[] = [],
): string[] {
  return [sandbox.bwrap, ...bwrapArgs(sandbox, cwd, argv, extra)];
}

/**
 * A folder inside a root (a build's output folder in the build cache) made writable at its
 * translated path: a build writes there and nowhere else.
 */
export function writableWithin(sandbox: Pick<Sandbox, 'roots'>, host: string): SandboxRoot {
  return { host, inside: translate(host, sandbox.roots), writable: true };
}

/** The scratch root of a run's own files (GNU time's and strace's reports, Valgrind's logs). */
const workRoot = (host: string): SandboxRoot => ({ host, inside: INSIDE.work, writable: true });

/**
 * A program's argv as it runs in `sandbox`: every argument translated (the host paths of the roots
 * and of the run's own `work` folder become the fixed ones), started in `cwd` (a host path); `also`
 * adds roots of its own (a build's output folder, writable).
 */
export function sandboxCommand(
  sandbox: Sandbox,
  cwd: string,
  argv: readonly string[],
  work?: string,
  also: readonly SandboxRoot[] = [],
): string[] {
  const extra = [...(work ? [workRoot(work)] : []), ...also];
  const roots = [...sandbox.roots, ...extra];
  return sandboxed(
    sandbox,
    cwd,
    argv.map((a) => translate(a, roots)),
    extra,
  );
}
