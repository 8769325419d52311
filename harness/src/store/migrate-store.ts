/**
 * Store v2 (or v1) machines converted to v3 in place: their data becomes the "legacy" profile
 * (./legacy.ts), under the store's lock, all files staged before any is replaced. A v3 store needs
 * no conversion to be read as v4; whatever a publish rewrites it writes as v4.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { withLock } from '../lib/atomic.js';
import { assertRealInside } from '../lib/fs-safety.js';
import { readJsonFile } from '../lib/json-file.js';
import { commitOrder, paths } from '../model/store-layout.js';
import { LEGACY_PROFILE, MachinesFile, STORE_READS_FROM, STORE_SCHEMA } from '../model/store-schema.js';
import { legacyMachine, V2Index, V2Series } from './legacy.js';
import { migrate } from './migrate.js';
import {
  HINT,
  json,
  machineDirs,
  readStoredRun,
  readStoreFile,
  runFileOf,
  type StagedFile,
  schemaOf,
  writeInside,
} from './store-files.js';

/**
 * Converts every machine still in store v2 (or v1) to v3, its data becoming the "legacy"
 * profile. Call with the store's lock held. Returns the machines converted.
 */
export function migrateLocked(root: string): string[] {
  const converted: string[] = [];
  const files: StagedFile[] = [];
  const machinesPath = join(root, paths.machines());
  const machines = readStoreFile(root, machinesPath, MachinesFile, 'machines') ?? {
    schema: STORE_SCHEMA,
    machines: {},
  };
  const raw = existsSync(machinesPath) ? schemaOf(root, machinesPath) : STORE_SCHEMA;
  for (const id of machineDirs(root)) {
    const dir = join(root, id);
    const indexPath = join(root, paths.index(id));
    const version = schemaOf(root, indexPath);
    // A v3 machine reads as it is (v4 only added optional fields): only v2 and v1 ones are converted.
    if (version === undefined || version >= STORE_READS_FROM) continue;
    const index = readJsonFile(indexPath, V2Index, {
      version: 2,
      context: 'refusing to touch the store: ',
      hint: HINT,
      migrate: (r) => migrate('index', r, 2),
    });
    const series = new Map<string, V2Series>();
    const seriesDir = join(dir, 'series');
    if (existsSync(seriesDir)) {
      assertRealInside(root, seriesDir);
      for (const f of readdirSync(seriesDir)
        .filter((n) => n.endsWith('.json'))
        .sort()) {
        const s = readJsonFile(join(seriesDir, f), V2Series, {
          version: 2,
          context: 'refusing to touch the store: ',
          hint: HINT,
          migrate: (r) => migrate('series', r, 2),
        });
        series.set(s.experiment, s);
      }
    }
    // Metric sources (for "no change points on derived metrics") from the newest readable run.
    const sources = new Map<string, string>();
    for (const c of [...index.commits].sort(commitOrder).reverse()) {
      try {
        const r = readStoredRun(root, runFileOf(root, indexPath, id, c.sha, LEGACY_PROFILE, c.file));
        for (const b of r.benchmarks)
          for (const [m, v] of Object.entries(b.metrics)) sources.set(`${b.experiment} ${m}`, v.source);
        break;
      } catch {
        // an unreadable old run file only costs the sources
      }
    }
    const legacy = legacyMachine(index, series, sources);
    for (const f of legacy.files) files.push({ file: join(root, f.path), data: json(f.value) });
    files.push({
      file: indexPath,
      data: json({ schema: STORE_SCHEMA, machine: index.machine, commits: legacy.commits }),
    });
    const prev = machines.machines[id];
    const lastRun = prev?.lastRun ?? index.commits.at(-1)?.date ?? '';
    machines.machines[id] = {
      machine: prev?.machine ?? index.machine,
      lastRun,
      commits: legacy.commits.length,
      profiles: { [LEGACY_PROFILE]: { commits: legacy.commits.length, lastRun } },
    };
    converted.push(id);
  }
  if (converted.length || (raw !== undefined && raw < STORE_READS_FROM))
    files.push({ file: machinesPath, data: json(machines) });
  if (files.length) writeInside(root, files);
  // The v2 series files are now the legacy profile's trend files: nothing refers to them.
  for (const id of converted) {
    const seriesDir = join(root, id, 'series');
    if (existsSync(seriesDir)) {
      assertRealInside(root, seriesDir);
      rmSync(seriesDir, { recursive: true, force: true });
    }
  }
  return converted;
}

/** Converts a store's v2 machines to v3 (see migrateLocked), under the store's lock. */
export function migrateStore(root: string): Promise<string[]> {
  if (!existsSync(root)) return Promise.resolve([]);
  return withLock(join(root, '.lock'), () => migrateLocked(root));
}
