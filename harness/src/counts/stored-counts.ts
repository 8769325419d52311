/**
 * The counting stage's edge to the counts stored in the trend store: whether they may be used here
 * (a store given, no `--recount`, the programs sandboxed at fixed paths, the CPU Valgrind presents
 * known), the machine's facts a count depends on, each point's key (./count-key.ts, with the
 * digests of its binaries, each file read once per run), and the updated file written back.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, release } from 'node:os';
import { join } from 'node:path';
import { COUNT_STORE_FILE, COUNT_STORE_SCHEMA, type CountStoreFile } from '../formats/count-store-format.js';
import { writeFileAtomic } from '../lib/atomic.js';
import type { Tools } from '../machine/tools.js';
import type { Job } from '../model/job.js';
import { type CountMachine, countKey, countKeyParts, keyedBinaries } from './count-key.js';
import { readCountStore, writeCountStore } from './count-store.js';
import { valgrindCpu } from './valgrind-cpu.js';

export type OpenedCounts =
  | { ok: true; storeDir: string; machine: string; facts: CountMachine; file: CountStoreFile }
  | { ok: false; why: string };

/** What opening the stored counts needs to know of the run. */
interface OpenOptions {
  storeDir: string | undefined;
  machine: string;
  recount: boolean;
  sandbox: string;
  tools: Tools;
  toolchains: Readonly<Record<string, string>>;
  cacheDir: string;
}

/**
 * The machine's facts a count depends on, or why stored counts cannot be used here: no store,
 * `--recount`, programs run outside the sandbox (at paths no stored count saw), or the CPU as
 * Valgrind presents it unknown.
 */
function countFacts(o: OpenOptions): { ok: true; facts: CountMachine } | { ok: false; why: string } {
  if (!o.storeDir) return { ok: false, why: 'no store (--no-store)' };
  if (o.recount) return { ok: false, why: '--recount' };
  if (o.sandbox !== 'bubblewrap')
    return { ok: false, why: 'the programs ran without the sandbox, at paths a stored count did not see' };
  if (!o.tools.valgrind) return { ok: false, why: 'valgrind missing' };
  const valgrind = o.toolchains.valgrind ?? 'unknown';
  const cpu = valgrindCpu(o.tools.valgrind, valgrind, o.cacheDir);
  if (!cpu) return { ok: false, why: 'the CPU as valgrind presents it could not be read (gcc missing?)' };
  return {
    ok: true,
    facts: { valgrind, glibc: o.toolchains.glibc ?? 'unknown', kernel: release(), cpu, onlineCpus: cpus().length },
  };
}

/**
 * The stored counts of this machine with its facts; `file` when the caller read (and so checked)
 * the store's file before measuring (the paired diff reads it as soon as it starts).
 */
export function openStoredCounts(o: OpenOptions, file?: CountStoreFile): OpenedCounts {
  const f = countFacts(o);
  if (!f.ok || !o.storeDir) return { ok: false, why: f.ok ? 'no store' : f.why };
  return {
    ok: true,
    storeDir: o.storeDir,
    machine: o.machine,
    facts: f.facts,
    file: file ?? readCountStore(o.storeDir, o.machine),
  };
}

/** Keys jobs, reading each binary's bytes once. */
export function keyer(facts: CountMachine): (job: Job) => string {
  const digests = new Map<string, string>();
  const digestOf = (path: string) => {
    let d = digests.get(path);
    if (d === undefined) {
      d = existsSync(path) ? createHash('sha256').update(readFileSync(path)).digest('hex') : 'missing';
      digests.set(path, d);
    }
    return d;
  };
  return (job) => {
    const paths = keyedBinaries(job);
    const parts = countKeyParts(job, facts, Object.fromEntries(paths.map((p) => [p, digestOf(p)])));
    return countKey(parts);
  };
}

export function saveStoredCounts(opened: Extract<OpenedCounts, { ok: true }>): void {
  writeCountStore(opened.storeDir, opened.machine, opened.file);
}

/** A run's own counts file, beside results.json (`npm run pages` merges it into the store). */
export const RUN_COUNTS_FILE = COUNT_STORE_FILE;

export function writeRunCounts(outDir: string, counts: CountStoreFile): void {
  writeFileAtomic(join(outDir, RUN_COUNTS_FILE), `${JSON.stringify(counts)}\n`);
}

/** Each stored count as it was read, to tell later which ones the run made or re-checked. */
export function countsBefore(opened: OpenedCounts): ReadonlyMap<string, string> {
  return new Map(opened.ok ? Object.entries(opened.file.counts).map(([k, c]) => [k, JSON.stringify(c)]) : []);
}

/**
 * The counts a run made or re-checked (new keys, and entries whose checks went up): what a run
 * measured apart from the store (`--count-store`) leaves in its counts.json for `npm run pages`.
 */
export function countsOfThisRun(opened: OpenedCounts, before: ReadonlyMap<string, string>): CountStoreFile {
  const counts: CountStoreFile['counts'] = {};
  if (opened.ok)
    for (const [k, c] of Object.entries(opened.file.counts)) if (before.get(k) !== JSON.stringify(c)) counts[k] = c;
  return { schema: COUNT_STORE_SCHEMA, counts };
}
