/**
 * A benchmark's workload hash (Benchmark.workload): what its program is asked to do, and where —
 * the experiment, the parameters, the derived values and input facts (bytes, counts, file sizes),
 * the input generator, the checks, eviction, the runner and the placement. A change makes the
 * numbers incomparable: compare refuses it, and the store starts a new series.
 *
 * Its other half, Benchmark.definition, is the measured-input identity (./identify-inputs.ts):
 * everything the process runs or reads, and the profile's timeout (what a run may finish). Runs and
 * warm-ups are in neither: they change precision, not meaning.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Experiment } from '../formats/manifest-format.js';
import type { Params } from '../formats/results-format.js';

function fileText(path: string): string {
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

const digest = (h: ReturnType<typeof createHash>) => h.digest('hex').slice(0, 12);

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
