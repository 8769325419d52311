/**
 * build: gcc for C, `just build --clean --static` for standalone just(js) apps, esbuild for
 * bundles. Each build a plan needs runs once, into the artifact path the plan chose; its
 * metadata (compiler, flags, size, time) goes into the results of every job that uses it.
 */
import { copyFileSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import * as harnessEsbuild from 'esbuild';
import { runProcess } from '../lib/exec.js';
import { sandboxCommand, writableWithin } from '../machine/sandbox/argv.js';
import type { Job, JobBuild } from '../model/job.js';
import type { BuildInfo } from '../model/results.js';
import type { Sandbox } from '../model/sandbox.js';
import { rootPin } from '../plan/package-pins.js';

export type BuildResult = { ok: true; artifact: string; info: BuildInfo } | { ok: false; reason: string };

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

function tail(s: string, lines = 8): string {
  return s.trim().split('\n').slice(-lines).join('\n');
}

/**
 * Builds one artifact; with a sandbox, gcc runs in it (the side's tree read-only at its fixed
 * path, so a build of either side names the same source path) and writes only its output folder.
 */
export async function buildOne(b: JobBuild, sandbox?: Sandbox): Promise<BuildResult> {
  const { spec, source, artifact } = b;
  const outDir = dirname(artifact);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const started = performance.now();
  const done = (compiler: string, flags: string[]): BuildResult => ({
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
  });

  switch (spec.kind) {
    case 'gcc': {
      if (!b.tool) return { ok: false, reason: 'gcc is not installed (apt-get install gcc)' };
      const argv = [b.tool.path, ...spec.flags, '-o', artifact, source, ...spec.libs];
      const r = sandbox
        ? await runProcess(sandboxCommand(sandbox, b.cwd, argv, undefined, [writableWithin(sandbox, outDir)]), {
            timeoutMs: 120_000,
            env: {},
          })
        : await runProcess(argv, { cwd: b.cwd, timeoutMs: 120_000 });
      if (r.code !== 0) return { ok: false, reason: `gcc failed:\n${tail(r.stderr)}` };
      return done(b.tool.version, spec.flags);
    }
    case 'just-static': {
      if (!b.tool || !b.config) return { ok: false, reason: 'just(js) is not installed' };
      // The builder wants `<name>.config.js` beside `<name>.js`; it writes `./<name>`.
      const name = basename(artifact);
      copyFileSync(source, join(outDir, `${name}.js`));
      copyFileSync(b.config, join(outDir, `${name}.config.js`));
      const flags = ['--clean', '--static', '--silent'];
      const r = await runProcess([b.tool.path, 'build', `${name}.js`, ...flags], { cwd: outDir, timeoutMs: 900_000 });
      // just build exits 0 when it fails: only the binary says whether it worked.
      if (r.code !== 0 || !existsSync(artifact)) {
        const why = r.code !== 0 ? `exited with status ${r.code}` : 'produced no binary';
        return { ok: false, reason: `just build ${why}:\n${tail(r.stderr + r.stdout) || '(it printed nothing)'}` };
      }
      return done(`just ${b.tool.version}`.trim(), flags);
    }
    case 'esbuild': {
      const root = join(b.cwd, '..', '..');
      const bundler = checkoutEsbuild(root);
      const mismatch = bundlerMismatch(bundler.version, rootPin(root, 'esbuild'));
      if (mismatch) return { ok: false, reason: mismatch };
      try {
        // CommonJS dependencies bundled into an ES module still call require() for Node's
        // built-ins; esbuild's shim needs a real `require` in scope to forward them to.
        const banner =
          spec.platform === 'node'
            ? {
                js: "import { createRequire as __jsioCreateRequire } from 'node:module'; const require = __jsioCreateRequire(import.meta.url);",
              }
            : undefined;
        await bundler.build({
          entryPoints: [source],
          bundle: true,
          platform: spec.platform,
          format: 'esm',
          outfile: artifact,
          logLevel: 'silent',
          minify: true,
          ...(banner ? { banner } : {}),
        });
      } catch (e) {
        return { ok: false, reason: `esbuild failed: ${(e as Error).message}` };
      }
      return done(`esbuild ${bundler.version}`, ['--bundle', '--minify', `--platform=${spec.platform}`]);
    }
  }
}

/** Builds what the runnable jobs need, once per build key, in plan order. */
export async function buildAll(jobs: readonly Job[], log: (s: string) => void): Promise<Map<string, BuildResult>> {
  const out = new Map<string, BuildResult>();
  for (const job of jobs) {
    if (job.blocked || !job.build || out.has(job.build.key)) continue;
    log(`building ${job.build.key} (${job.build.spec.kind})`);
    out.set(job.build.key, await buildOne(job.build, job.sandbox));
  }
  return out;
}
