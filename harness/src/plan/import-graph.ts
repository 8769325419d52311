/**
 * What JavaScript or TypeScript entry points import, as esbuild's own resolver sees it: every local
 * file reached (repository-relative, with its imports) and the warnings esbuild gave, nothing
 * written. Packages stay external: who needs them reads their pins (plan/identify-inputs.ts).
 * Throws esbuild's error when an import cannot be resolved.
 */
import { buildSync, type Message, type Metafile } from 'esbuild';

export interface ImportGraph {
  inputs: Metafile['inputs'];
  warnings: Message[];
}

export function importGraph(root: string, entries: readonly string[]): ImportGraph {
  const r = buildSync({
    absWorkingDir: root,
    entryPoints: [...entries],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outdir: 'out',
    logLevel: 'silent',
  });
  return { inputs: r.metafile?.inputs ?? {}, warnings: r.warnings };
}
