/**
 * The preload plan (model/preload-plan.ts), read from the store copy at build time: the page's
 * preloader asks for the files of the view its URL names while the bundle is still loading, so no
 * view waits for a chain of requests (catalog, then commits, then run files) after the bundle has
 * run. index-page.ts puts it into index.html.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { defaultProfile, LEGACY_PROFILE, paths, recentWindows } from '../formats/parts/store-layout.js';
import { CatalogFile, CommitsFile, MachinesFile, type WindowCommit } from '../formats/trend-store-format.js';
import type { PreloadPlan } from '../model/preload-plan.js';
import { readStoreFile } from '../store/store-files.js';

const url = (path: string) => `data/${path}`;

/** The plan for the site's default machine (the first by id) and its default profile; none for an empty store. */
export function preloadPlan(data: string): PreloadPlan | undefined {
  const read = <T>(file: string, schema: z.ZodType<T>) => readStoreFile(data, join(data, file), schema);
  const machines = read(paths.machines(), MachinesFile)?.machines;
  const machine = Object.keys(machines ?? {}).sort()[0];
  const profile = machine && defaultProfile(Object.keys(machines![machine]!.profiles ?? {}));
  if (!machine || !profile) return undefined;
  const catalog = read(paths.catalog(machine, profile), CatalogFile);
  const windows = recentWindows(catalog?.windows ?? []);
  const commits = windows.flatMap((w) => read(paths.commits(machine, profile, w.id), CommitsFile)?.commits ?? []);
  const run = (c: Pick<WindowCommit, 'file'>) => url(`${machine}/${c.file}`);
  // A legacy profile's run files are named by its commits, not by the catalog's moments.
  const newest = (sha: string) => {
    const listed = commits.find((c) => c.sha === sha);
    if (listed) return run(listed);
    return profile === LEGACY_PROFILE ? undefined : url(paths.run(machine, sha, profile));
  };
  const experiments = Object.entries(catalog?.experiments ?? {}).sort(([a], [b]) => a.localeCompare(b));
  const latest = experiments.flatMap(([id, e]) => {
    const file = newest(e.latest.sha);
    return file ? [[id, file] as [string, string]] : [];
  });
  const ordinal = (id: string) => (catalog?.windows ?? []).findIndex((w) => w.id === id);
  const shards = Object.fromEntries(
    experiments.map(([id, e]) => [
      id,
      Object.fromEntries(
        Object.entries(e.metrics).map(([metric, m]) => [
          metric,
          windows.flatMap((w, i) => (ordinal(w.id) >= m.windows[0] && ordinal(w.id) <= m.windows[1] ? [i] : [])),
        ]),
      ),
    ]),
  );
  return {
    machine,
    profile,
    machines: url(paths.machines()),
    catalog: url(paths.catalog(machine, profile)),
    noise: url(paths.noise(machine)),
    marks: url(paths.marks(machine)),
    regressions: url(paths.regressions(machine, profile)),
    windows: windows.map((w) => url(`${paths.trends(machine, profile)}/${w.id}/`)),
    // The Overview reads each experiment's newest run (usually one commit for all).
    runs: [...new Set(latest.map(([, file]) => file))].slice(0, 4),
    latest,
    // The build's comparison of the newest pair where it made one, else the pair's run files.
    compare:
      commits.length < 2
        ? []
        : existsSync(join(data, paths.newestPair(machine, profile)))
          ? [url(paths.newestPair(machine, profile))]
          : commits.slice(-2).map(run),
    shards,
  };
}
