/**
 * How the harness builds a variant: each builder's command line (and the bundler's options where
 * it runs in the harness's process), as one pure recipe. The build stage runs it (run/build.ts);
 * its shape, paths left as placeholders, joins the build's key (plan/jobs.ts), so a harness that
 * builds otherwise (another flag, another banner) never takes a build another harness made.
 */
import type { Variant } from '../formats/manifest-format.js';

type Spec = NonNullable<Variant['build']>;
type Bundle = Extract<Spec, { kind: 'esbuild' }>;

/**
 * CommonJS dependencies bundled into an ES module still call require() for Node's built-ins;
 * esbuild's shim needs a real `require` in scope to forward them to.
 */
const NODE_BANNER =
  "import { createRequire as __jsioCreateRequire } from 'node:module'; const require = __jsioCreateRequire(import.meta.url);";

/** `just build`'s flags: a standalone, static binary, quietly. */
export const JUST_FLAGS = ['--clean', '--static', '--silent'] as const;

/** The bundle's flags as a build's result records them. */
export const bundleFlags = (spec: Bundle) => ['--bundle', '--minify', `--platform=${spec.platform}`];

/** gcc's command line. */
export function gccArgv(gcc: string, spec: Extract<Spec, { kind: 'gcc' }>, artifact: string, source: string): string[] {
  return [gcc, ...spec.flags, '-o', artifact, source, ...spec.libs];
}

/** `just build`'s command line, in the folder holding `<name>.js` and `<name>.config.js`. */
export const justArgv = (just: string, name: string): string[] => [just, 'build', `${name}.js`, ...JUST_FLAGS];

/** esbuild's binary's command line. */
export function esbuildArgv(esbuild: string, spec: Bundle, artifact: string, source: string): string[] {
  return [
    esbuild,
    source,
    ...bundleFlags(spec),
    '--format=esm',
    `--outfile=${artifact}`,
    '--log-level=error',
    ...(spec.platform === 'node' ? [`--banner:js=${NODE_BANNER}`] : []),
  ];
}

/** The same bundle as esbuild's build() options (no sandbox: the checkout's module, in the harness's process). */
export function esbuildOptions(spec: Bundle, artifact: string, source: string) {
  return {
    entryPoints: [source],
    bundle: true,
    platform: spec.platform,
    format: 'esm' as const,
    outfile: artifact,
    logLevel: 'silent' as const,
    minify: true,
    ...(spec.platform === 'node' ? { banner: { js: NODE_BANNER } } : {}),
  };
}

/** A build's recipe with its paths as placeholders (`<out>`, `<source>`): what joins its key. */
export function recipeOf(spec: Spec, name: string): string {
  const out = `<out>/${name}`;
  switch (spec.kind) {
    case 'gcc':
      return JSON.stringify(gccArgv('<gcc>', spec, out, '<source>'));
    case 'just-static':
      // Its private build target, a copy of the installed one in its output folder.
      return JSON.stringify([...justArgv('<just>', name), 'JUST_TARGET=<out>/.just-target']);
    case 'esbuild':
      return JSON.stringify([esbuildArgv('<esbuild>', spec, out, '<source>'), esbuildOptions(spec, out, '<source>')]);
  }
}
