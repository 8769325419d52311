/**
 * A benchmark's identity has two halves, kept apart because they mean different things:
 *
 * - program (Benchmark.definition): what runs — the variant's manifest entry (command template,
 *   build), its source and the files it shares, and the runtime's exact version. A change is a
 *   real change of the thing measured: a PR diff compares it like any other point and marks it
 *   "changed in this PR"; a trend marks the commit.
 * - workload (Benchmark.workload): what it is asked to do, and where — the experiment, the
 *   parameters, the derived values and input facts (bytes, counts, file sizes), the input
 *   generator, the checks, eviction, the runner and the placement. A change makes the numbers
 *   incomparable: compare refuses it, and the store starts a new series.
 *
 * Runs, warm-ups and timeouts are in neither: they change precision, not meaning.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Experiment, Variant } from '../model/manifest.js';
import type { Params } from '../model/results.js';

const memo = new Map<string, string>();

function fileText(path: string): string {
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

const digest = (h: ReturnType<typeof createHash>) => h.digest('hex').slice(0, 12);

/** The program's hash: manifest entry, sources, build config, shared files, runtime version. */
export function programHash(exp: Experiment, variant: Variant, runtimeVersion: string): string {
  const key = `${exp.dir}|${variant.id}|${runtimeVersion}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const h = createHash('sha256');
  h.update(JSON.stringify({ variant, runtimeVersion }));
  if (variant.source) h.update(fileText(join(exp.dir, variant.source)));
  if (variant.build?.kind === 'just-static') h.update(fileText(join(exp.dir, variant.build.config)));
  for (const f of exp.manifest.shared) h.update(fileText(join(exp.dir, f)));
  const hash = digest(h);
  memo.set(key, hash);
  return hash;
}

/** The workload's hash: everything that decides what the program is asked to do, and where. */
export function workloadHash(
  exp: Experiment,
  params: Params,
  derived: Readonly<Record<string, number>>,
  placement: string,
): string {
  const m = exp.manifest;
  const { runtime: _runtime, ...workloadParams } = params;
  const h = createHash('sha256');
  h.update(
    JSON.stringify({
      experiment: exp.id,
      params: Object.fromEntries(Object.entries(workloadParams).sort(([a], [b]) => a.localeCompare(b))),
      derived: Object.fromEntries(Object.entries(derived).sort(([a], [b]) => a.localeCompare(b))),
      input: m.input ?? null,
      generate: m.generate ?? null,
      validate: m.validate,
      evict: m.evict ?? null,
      runner: m.runner,
      placement,
    }),
  );
  if (m.generate) h.update(fileText(join(exp.dir, m.generate.script)));
  return digest(h);
}
