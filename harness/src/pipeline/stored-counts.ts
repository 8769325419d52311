/**
 * The counting stage's edge to the counts stored in the trend store: whether they may be used here
 * (a store given, no `--recount`, the programs sandboxed at fixed paths, the CPU Valgrind presents
 * known), the machine's facts a count depends on, each point's key (./count-key.ts, with the
 * digests of its binaries, each file read once per run), and the updated file written back.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, release } from 'node:os';
import type { Tools } from '../machine/tools.js';
import { valgrindCpu } from '../machine/valgrind-cpu.js';
import type { CountStoreFile } from '../model/count-store-schema.js';
import type { Job } from '../model/job.js';
import { readCountStore, writeCountStore } from '../store/count-store.js';
import { type CountMachine, countKey, countKeyParts, keyedBinaries } from './count-key.js';

export type OpenedCounts =
  | { ok: true; storeDir: string; machine: string; facts: CountMachine; file: CountStoreFile }
  | { ok: false; why: string };

export function openStoredCounts(o: {
  storeDir: string | undefined;
  machine: string;
  recount: boolean;
  sandbox: string;
  tools: Tools;
  toolchains: Readonly<Record<string, string>>;
  cacheDir: string;
}): OpenedCounts {
  if (!o.storeDir) return { ok: false, why: 'no store (--no-store)' };
  if (o.recount) return { ok: false, why: '--recount' };
  if (o.sandbox !== 'bubblewrap')
    return { ok: false, why: 'the programs ran without the sandbox, at paths a stored count did not see' };
  if (!o.tools.valgrind) return { ok: false, why: 'valgrind missing' };
  const valgrind = o.toolchains.valgrind ?? 'unknown';
  const cpu = valgrindCpu(o.tools.valgrind, valgrind, o.cacheDir);
  if (!cpu) return { ok: false, why: 'the CPU as valgrind presents it could not be read (gcc missing?)' };
  const facts: CountMachine = {
    valgrind,
    glibc: o.toolchains.glibc ?? 'unknown',
    kernel: release(),
    cpu,
    onlineCpus: cpus().length,
  };
  return { ok: true, storeDir: o.storeDir, machine: o.machine, facts, file: readCountStore(o.storeDir, o.machine) };
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
    return countKey(countKeyParts(job, facts, Object.fromEntries(paths.map((p) => [p, digestOf(p)]))));
  };
}

export function saveStoredCounts(opened: Extract<OpenedCounts, { ok: true }>): void {
  writeCountStore(opened.storeDir, opened.machine, opened.file);
}
