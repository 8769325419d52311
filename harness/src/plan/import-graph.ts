/**
 * What JavaScript or TypeScript entry points import, as esbuild's own resolver sees it: every local
 * file reached (repository-relative, with its imports) and the warnings esbuild gave, nothing
 * written. Packages stay external: who needs them reads their pins (plan/identify-inputs.ts).
 * Throws esbuild's error when an import cannot be resolved.
 */
import { type BuildOptions, buildSync, type Message, type Metafile } from 'esbuild';

export interface ImportGraph {
  inputs: Metafile['inputs'];
  warnings: Message[];
}

/** esbuild's options for bundling a checkout's entry points as Node runs them, writing nothing. */
export function nodeBundle(root: string, entries: readonly string[]): BuildOptions & { write: false } {
  return {
    absWorkingDir: root,
    entryPoints: [...entries],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outdir: 'out',
    logLevel: 'silent',
  };
}

export function importGraph(root: string, entries: readonly string[]): ImportGraph {
  const r = buildSync({ ...nodeBundle(root, entries), metafile: true });
  return { inputs: r.metafile?.inputs ?? {}, warnings: r.warnings };
}
