/**
 * build: gcc for C, `just build --static` for standalone just(js) apps, esbuild for bundles.
 * Each variant is built once per run into the cache; its metadata goes into the results.
 */
import { copyFileSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { build as esbuild } from 'esbuild';
import { runProcess } from '../lib/exec.js';
import type { Experiment } from '../plan/experiments.js';
import type { Variant } from '../model/manifest.js';
import type { BuildInfo } from '../model/results.js';

export type BuildOutcome = { ok: true; artifact: string; info: BuildInfo } | { ok: false; reason: string };

function tail(s: string, lines = 8): string {
  return s.trim().split('\n').slice(-lines).join('\n');
}

export async function buildVariant(
  exp: Experiment,
  variant: Variant,
  buildRoot: string,
  tools: { gcc?: string; gccVersion?: string; just?: string; justVersion?: string },
): Promise<BuildOutcome | undefined> {
  const spec = variant.build;
  if (!spec || !variant.source) return undefined;
  const src = join(exp.dir, variant.source);
  const outDir = join(buildRoot, exp.id, variant.id);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const started = performance.now();
  const done = (artifact: string, compiler: string, flags: string[]): BuildOutcome => ({
    ok: true,
    artifact,
    info: { kind: spec.kind, compiler, flags, artifact: basename(artifact), bytes: statSync(artifact).size, seconds: (performance.now() - started) / 1000 },
  });

  switch (spec.kind) {
    case 'gcc': {
      if (!tools.gcc) return { ok: false, reason: 'gcc is not installed (apt-get install gcc)' };
      const out = join(outDir, variant.id);
      const r = await runProcess([tools.gcc, ...spec.flags, '-o', out, src, ...spec.libs], { timeoutMs: 120_000 });
      if (r.code !== 0) return { ok: false, reason: `gcc failed:\n${tail(r.stderr)}` };
      return done(out, tools.gccVersion ?? 'gcc', spec.flags);
    }
    case 'just-static': {
      if (!tools.just) return { ok: false, reason: 'just(js) is not installed' };
      // The builder wants `<name>.config.js` beside `<name>.js`; it writes `./<name>`.
      const name = basename(variant.source, '.js');
      copyFileSync(src, join(outDir, `${name}.js`));
      copyFileSync(join(exp.dir, spec.config), join(outDir, `${name}.config.js`));
      const flags = ['--clean', '--static', '--silent'];
      const r = await runProcess([tools.just, 'build', `${name}.js`, ...flags], { cwd: outDir, timeoutMs: 900_000 });
      if (r.code !== 0) return { ok: false, reason: `just build failed:\n${tail(r.stderr + r.stdout)}` };
      return done(join(outDir, name), `just ${tools.justVersion ?? ''}`.trim(), flags);
    }
    case 'esbuild': {
      const out = join(outDir, `${variant.id}.mjs`);
      try {
        // CommonJS dependencies bundled into an ES module still call require() for Node's
        // built-ins; esbuild's shim needs a real `require` in scope to forward them to.
        const banner = spec.platform === 'node' ? { js: "import { createRequire as __jsioCreateRequire } from 'node:module'; const require = __jsioCreateRequire(import.meta.url);" } : undefined;
        await esbuild({ entryPoints: [src], bundle: true, platform: spec.platform, format: 'esm', outfile: out, logLevel: 'silent', minify: true, ...(banner ? { banner } : {}) });
      } catch (e) {
        return { ok: false, reason: `esbuild failed: ${(e as Error).message}` };
      }
      return done(out, 'esbuild', ['--bundle', '--minify', `--platform=${spec.platform}`]);
    }
  }
}
