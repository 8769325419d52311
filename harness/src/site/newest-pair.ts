/**
 * trends/<profile>/newest-pair.json for every machine and profile of a site's store copy: the
 * comparison the Compare view opens on, of the profile's two newest commits (the last two of its
 * recent windows, as the page picks them), made once by the build with the page's own code
 * (compare/quick-look.ts) from the same run files and thresholds. Thousands of bootstrap
 * resamples per metric are then not redone in every visitor's browser before the table shows.
 */
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { compareRuns, thresholdsUsed } from '../compare/quick-look.js';
import { paths, RELEASES_DIR, recentWindows, STORE_SCHEMA } from '../formats/parts/store-layout.js';
import { RESULTS_MAX_BYTES } from '../formats/read-results.js';
import type { Results } from '../formats/results-format.js';
import { CatalogFile, CommitsFile, NewestPairFile } from '../formats/trend-store-format.js';
import { readUntrusted } from '../lib/untrusted.js';
import { readNoiseFile } from '../store/noise-thresholds.js';
import { readStoreFile } from '../store/store-files.js';

/**
 * Writes the file for every machine and profile whose newest pair can be compared; returns how
 * many. Where it cannot be, an earlier build's file is removed (an in-place build rebuilds after
 * every publish, and a publish may have merged into the newest run since): the page compares the
 * runs itself then.
 */
export function writeNewestPairs(data: string): number {
  let files = 0;
  for (const entry of existsSync(data) ? readdirSync(data, { withFileTypes: true }) : []) {
    const trends = join(data, entry.name, 'trends');
    if (!entry.isDirectory() || entry.name === RELEASES_DIR || !existsSync(trends)) continue;
    for (const profile of readdirSync(trends)) {
      const out = join(data, paths.newestPair(entry.name, profile));
      const file = newestPair(data, entry.name, profile);
      // Checked as the store check will read it: a file it refused would stop the next publish.
      if (file && NewestPairFile.safeParse(file).success) {
        writeFileSync(out, `${JSON.stringify(file)}\n`);
        files++;
      } else rmSync(out, { force: true });
    }
  }
  return files;
}

/**
 * The comparison of a profile's two newest commits, or undefined where the page has to say why
 * there is none (fewer than two commits, an unreadable run, workloads that differ): it then
 * compares the runs itself, as it does for any other pair.
 */
export function newestPair(data: string, machine: string, profile: string): NewestPairFile | undefined {
  const read = <T>(file: string, schema: z.ZodType<T>) => readStoreFile(data, join(data, file), schema);
  const catalog = read(paths.catalog(machine, profile), CatalogFile);
  const windows = recentWindows(catalog?.windows ?? []);
  const commits = windows.flatMap((w) => read(paths.commits(machine, profile, w.id), CommitsFile)?.commits ?? []);
  if (commits.length < 2) return undefined;
  const [base, head] = commits.slice(-2).map((c) => ({ sha: c.sha, run: runFile(join(data, machine, c.file)) }));
  if (!base!.run || !head!.run) return undefined;
  const noiseFile = join(data, paths.noise(machine));
  const noise = existsSync(noiseFile) ? readNoiseFile(noiseFile).thresholds : {};
  let comparison: NewestPairFile['comparison'];
  try {
    comparison = compareRuns([base!.run], [head!.run], noise);
  } catch {
    return undefined;
  }
  return {
    schema: STORE_SCHEMA,
    machine,
    profile,
    base: base!.sha,
    head: head!.sha,
    thresholds: thresholdsUsed(comparison, noise),
    comparison,
  };
}

/**
 * A run file as the page reads it (gh-pages/src/data/load-store.ts): the JSON as written, with a
 * list of benchmarks; compared as is, so the numbers are the page's. Undefined when unreadable.
 */
function runFile(file: string): Results | undefined {
  try {
    const raw = JSON.parse(readUntrusted(file, RESULTS_MAX_BYTES, 'results')) as Results | null;
    return Array.isArray(raw?.benchmarks) ? raw : undefined;
  } catch {
    return undefined;
  }
}
