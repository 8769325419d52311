// Reading a store (v3 or v4) in tests: the index, a profile's catalog, and a metric's trend over every window.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { joinShards, paths } from '../../src/formats/parts/store-layout.js';
import { CatalogFile, CommitsFile, IndexFile, MachinesFile, ShardFile } from '../../src/formats/trend-store-format.js';

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as unknown;

export const machinesOf = (store: string) => MachinesFile.parse(read(join(store, paths.machines())));
export const indexOf = (store: string, machine = 'test-machine') =>
  IndexFile.parse(read(join(store, paths.index(machine))));
export const catalogOf = (store: string, profile: string, machine = 'test-machine') =>
  CatalogFile.parse(read(join(store, paths.catalog(machine, profile))));

/** A metric's trend over every window of a profile, columns joined. */
export function trendOf(store: string, profile: string, experiment: string, metric: string, machine = 'test-machine') {
  const catalog = catalogOf(store, profile, machine);
  const commits = catalog.windows.flatMap(
    (w) => CommitsFile.parse(read(join(store, paths.commits(machine, profile, w.id)))).commits,
  );
  const shards = catalog.windows
    .map((w) => join(store, paths.shard(machine, profile, w.id, experiment, metric)))
    .filter(existsSync)
    .map((f) => ShardFile.parse(read(f)));
  return {
    ...joinShards(
      commits.map((c) => c.sha),
      shards,
    ),
    windows: catalog.windows,
  };
}

/** Every file under dir with its content. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir, { recursive: true }).map(String).sort()) {
    try {
      out[f] = readFileSync(join(dir, f), 'utf8');
    } catch {
      out[f] = '<dir>';
    }
  }
  return out;
}
