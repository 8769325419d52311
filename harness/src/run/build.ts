/**
 * build: gcc for C, `just build --clean --static` for standalone just(js) apps, esbuild for
 * bundles. Each build a plan needs runs once, into the artifact path the plan chose; its
 * metadata (compiler, flags, size, time) goes into the results of every job that uses it. With
 * the side's sandbox, every build runs inside it, writable only in its own output folder.
 */
import { copyFileSync, cpSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import * as harnessEsbuild from 'esbuild';
import type { BuildInfo } from '../formats/results-format.js';
import { type ProcessResult, runProcess } from '../lib/exec.js';
import { failureDetail } from '../lib/first-error-line.js';
import { translate } from '../machine/sandbox/argv.js';
import { type PointTrace, runSandboxStep } from '../machine/sandbox/traced-step.js';
import type { Job, JobBuild } from '../model/job.js';
import { INSIDE, type Sandbox, type SandboxRoot } from '../model/sandbox.js';
import { readsOf } from '../plan/build-reads.js';
import { bundleFlags, esbuildArgv, esbuildOptions, gccArgv, JUST_FLAGS, justArgv } from '../plan/build-recipe.js';
import { rootPin } from '../plan/package-pins.js';
import { type EntryMeta, readEntry, settle, showInView, stagingOf } from './build-entry.js';

/**
 * `trace`: what the build's processes touched in the side's tree, when it ran under a file trace
 * (a build keeps the trace made when it was made: the trace pass takes it with the artifact).
 */
export type BuildResult =
  | { ok: true; artifact: string; info: BuildInfo; trace?: PointTrace }
  | { ok: false; reason: string };

type Esbuild = Pick<typeof harnessEsbuild, 'build' | 'version'>;

/**
 * The bundler a checkout pins, from its own node_modules (each side of a paired diff bundles with its
 * own esbuild); the harness's where the checkout has none installed.
 */
function checkoutEsbuild(root: string): Esbuild {
  try {
    return createRequire(join(root, 'package.json'))('esbuild') as Esbuild;
  } catch {
    return harnessEsbuild;
  }
}

/**
 * Why a bundler may not build a checkout's bundles: it is not the version the checkout's lockfile
 * pins (an install older than the lockfile, or none, where the harness's own would stand in).
 * Undefined when it is, or when the lockfile pins no esbuild (the identity then names the harness's).
 */
export function bundlerMismatch(found: string, lockPin: string | undefined): string | undefined {
  const pinned = lockPin?.split(' ')[0];
  if (pinned === undefined || pinned === found) return undefined;
  return `esbuild ${found} found, ${pinned} pinned by package-lock.json (run npm ci in the checkout)`;
}

/**
 * esbuild's own binary for this platform, beside the package `esbuild` resolves to (npm installs
 * it as @esbuild/<platform>-<arch>): run as a process, so a sandboxed bundle runs no code of the
 * checkout in the harness's process.
 */
function esbuildBinary(root: string): { path: string; version: string } | undefined {
  for (const from of [join(root, 'package.json'), import.meta.filename]) {
    try {
      const req = createRequire(from);
      const pkg = req.resolve('esbuild/package.json');
      const version = (req(pkg) as { version: string }).version;
      const path = createRequire(pkg).resolve(`@esbuild/${process.platform}-${process.arch}/bin/esbuild`);
      return { path, version };
    } catch {
      // not installed there: the next place
    }
  }
  return undefined;
}

/** How one step of a build runs: where, writable where, for how long; under a file trace when `strace` is given. */
interface StepOptions {
  cwd: string;
  /** The build's output folder (its staging folder) and where its sandbox shows it, writable. */
  out: SandboxRoot;
  timeoutMs: number;
  sandbox?: Sandbox | undefined;
  env?: Record<string, string>;
  strace?: string | undefined;
  /** Files the harness read for the step (a source it copied in), host paths: the trace counts them as read. */
  handed?: readonly string[];
}

/**
 * Runs one step of a build: in the side's sandbox (paths translated, `env` over its fixed
 * environment), writable only in `out`, its own staging folder in the build cache, plus `also`; or, with
 * no sandbox, in `cwd` as it is (and untraced: a trace names the side's files by their fixed paths).
 */
async function runStep(
  argv: readonly string[],
  o: StepOptions,
  also: readonly SandboxRoot[] = [],
): Promise<{ result: ProcessResult; trace?: PointTrace }> {
  const { sandbox } = o;
  if (!sandbox) return { result: await runProcess(argv, { cwd: o.cwd, timeoutMs: o.timeoutMs }) };
  const inside = o.env ? { ...sandbox, env: { ...sandbox.env, ...o.env } } : sandbox;
  return runSandboxStep({
    sandbox: inside,
    cwd: o.cwd,
    argv,
    also: [o.out, ...also],
    timeoutMs: o.timeoutMs,
    ...(o.strace ? { strace: o.strace } : {}),
    ...(o.handed ? { handed: o.handed } : {}),
  });
}

/**
 * just(js)'s build target for one sandboxed build: a copy of the installed one (links followed,
 * the V8 headers included) inside the build's output folder. `just build` writes its objects and
 * the binary there and then renames the binary into the folder it runs in, which only works
 * within one mount; and one target per build keeps concurrent builds' objects apart.
 */
function privateJustTarget(sandbox: Sandbox, out: SandboxRoot): { env: Record<string, string> } | { reason: string } {
  const installed = sandbox.roots.find((r) => r.inside === INSIDE.justTarget && !r.alias)?.host;
  if (!installed) return { reason: 'JUST_TARGET is not set: just build needs its build target (docs/runners.md)' };
  const target = join(out.host, '.just-target');
  cpSync(installed, target, { recursive: true, dereference: true });
  return { env: { JUST_TARGET: translate(target, [...sandbox.roots, out]) } };
}

function tail(s: string, lines = 8): string {
  return s.trim().split('\n').slice(-lines).join('\n');
}

type Done = (compiler: string, flags: string[], trace?: PointTrace) => BuildResult;

/** Where a build writes: its staging folder, shown in its sandbox where the entry will be. */
type Step = { out: SandboxRoot; sandbox?: Sandbox | undefined; strace?: string | undefined };

/**
 * Makes one artifact into `b.artifact`'s folder (a staging folder); with a sandbox, gcc runs in
 * it (the side's tree read-only at its fixed path, so a build of either side names the same
 * source path) and writes only that folder. With `strace` (and a sandbox) the build's processes
 * run under a file trace, kept with the result.
 */
async function makeBuild(b: JobBuild, step: Step): Promise<BuildResult> {
  const { spec, source, artifact } = b;
  const { sandbox } = step;
  const started = performance.now();
  const done: Done = (compiler, flags, trace) => ({
    ok: true,
    artifact,
    info: {
      kind: spec.kind,
      compiler,
      flags,
      artifact: basename(artifact),
      bytes: statSync(artifact).size,
      seconds: (performance.now() - started) / 1000,
    },
    ...(trace ? { trace } : {}),
  });

  switch (spec.kind) {
    case 'gcc': {
      if (!b.tool) return { ok: false, reason: 'gcc is not installed (apt-get install gcc)' };
      const argv = gccArgv(b.tool.path, spec, artifact, source);
      const { result: r, trace } = await runStep(argv, { ...step, cwd: b.cwd, timeoutMs: 120_000 });
      if (r.code !== 0) return { ok: false, reason: `gcc failed:\n${tail(r.stderr)}` };
      return done(b.tool.version, spec.flags, trace);
    }
    case 'just-static':
      return justStatic(b, step, done);
    case 'esbuild': {
      const root = join(b.cwd, '..', '..');
      // The bundler a sandboxed build runs is the checkout's binary; unsandboxed, its module.
      const found = sandbox ? esbuildBinary(root)?.version : checkoutEsbuild(root).version;
      const mismatch = found === undefined ? undefined : bundlerMismatch(found, rootPin(root, 'esbuild'));
      if (mismatch) return { ok: false, reason: mismatch };
      if (sandbox) return bundleInSandbox(b, { ...step, sandbox }, done);
      const bundler = checkoutEsbuild(root);
      try {
        await bundler.build(esbuildOptions(spec, artifact, source));
      } catch (e) {
        return { ok: false, reason: `esbuild failed: ${(e as Error).message}` };
      }
      return done(`esbuild ${bundler.version}`, bundleFlags(spec));
    }
  }
}

/**
 * A standalone just(js) app: the program and its config copied into the build folder (the
 * builder wants `<name>.config.js` beside `<name>.js` and writes `./<name>`), built there. The
 * copies are read by the harness for the build: a trace counts their sources as read.
 */
async function justStatic(b: JobBuild, step: Step, done: Done): Promise<BuildResult> {
  const { out, sandbox } = step;
  const outDir = out.host;
  if (!b.tool || !b.config) return { ok: false, reason: 'just(js) is not installed' };
  const name = basename(b.artifact);
  copyFileSync(b.source, join(outDir, `${name}.js`));
  copyFileSync(b.config, join(outDir, `${name}.config.js`));
  const target = sandbox ? privateJustTarget(sandbox, out) : { env: {} };
  if ('reason' in target) return { ok: false, reason: target.reason };
  const argv = justArgv(b.tool.path, name);
  const { result: r, trace } = await runStep(argv, {
    ...step,
    cwd: outDir,
    timeoutMs: 900_000,
    env: target.env,
    handed: [b.source, b.config],
  });
  rmSync(join(outDir, '.just-target'), { recursive: true, force: true });
  // just build exits 0 when it fails: only the binary says whether it worked.
  if (r.code !== 0 || !existsSync(b.artifact)) {
    const why = r.code !== 0 ? `exited with status ${r.code}` : 'produced no binary';
    const said = failureDetail(r.stderr + r.stdout, tail);
    return { ok: false, reason: `just build ${why}:\n${said || '(it printed nothing)'}` };
  }
  return done(`just ${b.tool.version}`.trim(), [...JUST_FLAGS], trace);
}

/**
 * An esbuild bundle in the side's sandbox: the checkout's own esbuild binary (the harness's where
 * the checkout has none installed, shown read-only at a fixed path), writable only in its output folder.
 */
async function bundleInSandbox(b: JobBuild, step: Step & { sandbox: Sandbox }, done: Done): Promise<BuildResult> {
  const { sandbox } = step;
  const spec = b.spec as Extract<JobBuild['spec'], { kind: 'esbuild' }>;
  const esbuild = esbuildBinary(join(b.cwd, '..', '..'));
  if (!esbuild) return { ok: false, reason: 'esbuild is not installed (npm ci)' };
  const shown = translate(esbuild.path, sandbox.roots) !== esbuild.path;
  const also: SandboxRoot[] = shown ? [] : [{ host: dirname(esbuild.path), inside: '/jsio/esbuild' }];
  const argv = esbuildArgv(esbuild.path, spec, b.artifact, b.source);
  const { result: r, trace } = await runStep(argv, { ...step, cwd: b.cwd, timeoutMs: 120_000 }, also);
  if (r.code !== 0) return { ok: false, reason: `esbuild failed:\n${tail(r.stderr)}` };
  return done(`esbuild ${esbuild.version}`, bundleFlags(spec), trace);
}

/**
 * Builds one artifact into its entry of the content-keyed build cache, or finds it there: a keyed
 * entry already filled is used as it is (with `strace` and a sandbox, only one whose build ran under
 * a trace). The build writes a staging folder of this process, shown in its sandbox at the entry's
 * fixed path and writable only there; a made build is renamed into place whole (./build-entry.ts).
 */
export function buildOne(b: JobBuild, sandbox?: Sandbox, strace?: string): Promise<BuildResult> {
  // One staging folder per process and entry: a second build of the entry here waits for the first.
  const entry = dirname(b.artifact);
  const next = (filling.get(entry) ?? Promise.resolve()).then(() => fillEntry(b, sandbox, strace));
  const settled: Promise<void> = next
    .then(
      () => {},
      () => {},
    )
    .finally(() => {
      if (filling.get(entry) === settled) filling.delete(entry);
    });
  filling.set(entry, settled);
  return next;
}

/** The builds of this process filling an entry, by the entry's folder (never rejected: the caller gets the error). */
const filling = new Map<string, Promise<void>>();

async function fillEntry(b: JobBuild, sandbox: Sandbox | undefined, strace: string | undefined): Promise<BuildResult> {
  const entry = dirname(b.artifact);
  const traced = Boolean(strace && sandbox);
  const kept = b.keyed ? readEntry(entry, basename(b.artifact)) : undefined;
  if (kept && (kept.trace || !traced)) return shown(b, entry, kept);
  const staging = stagingOf(entry);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    const out: SandboxRoot = { host: staging, inside: b.inside, writable: true };
    // The job's sandbox shows the entry where the staging folder goes: the build sees only the latter.
    const own = sandbox && { ...sandbox, roots: sandbox.roots.filter((r) => r.inside !== b.inside) };
    const made = await makeBuild(
      { ...b, artifact: join(staging, basename(b.artifact)) },
      { out, sandbox: own, strace },
    );
    if (!made.ok) return made;
    const { trace } = made;
    const meta = { info: made.info, ...(trace ? { trace, reads: readsOf(trace.paths, b.cwd) } : {}) };
    return shown(b, entry, settle(entry, staging, meta, b.keyed));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** A build found in, or moved into, its entry: shown in the checkout's view of its builds. */
function shown(b: JobBuild, entry: string, m: EntryMeta): BuildResult {
  if (b.view) showInView(entry, b.view);
  return { ok: true, artifact: b.artifact, info: m.info, ...(m.trace ? { trace: m.trace } : {}) };
}

/**
 * Builds what the runnable jobs need, once per build key, in plan order; with `strace`, each
 * sandboxed build under a file trace (`bench --trace-profiles`, the trace pass).
 */
export async function buildAll(
  jobs: readonly Job[],
  log: (s: string) => void,
  strace?: string,
): Promise<Map<string, BuildResult>> {
  const out = new Map<string, BuildResult>();
  for (const job of jobs) {
    if (job.blocked || !job.build || out.has(job.build.key)) continue;
    log(`building ${job.build.key} (${job.build.spec.kind}${strace && job.sandbox ? ', traced' : ''})`);
    out.set(job.build.key, await buildOne(job.build, job.sandbox, strace));
  }
  return out;
}
