/**
 * Whether a pull request changed what a point's program receives: its workload as the paired diff
 * compares it. That is the bytes and the arguments only — the parameters, the derived values (the
 * generator's reported facts among them), every size a fit runs at, the input pipe that feeds it,
 * and the generated input by its BYTES (Job.inputDigest), not by its generator's text: a generator
 * changed only in a comment generates the same input and changes no workload. What the harness
 * does around the program (its checks, the eviction, the runner, the placement) is no workload: a
 * change there is measured and judged as usual (pairs/decide/merge-gate.ts), never an exemption
 * a pull request can claim by editing a check.
 *
 * This is not Job.workload (plan/definition.ts), which hashes the generator's text too and is the
 * trend store's series key: changing that would restart every stored series. Pure: jobs in, words out.
 */
import type { Job } from '../../model/job.js';

/** The named parts of a job's workload, each as text; equal texts mean an equal part. */
function workloadParts(job: Job): Map<string, string> {
  const m = job.experiment.manifest;
  const parts = new Map<string, string>();
  // A runtime is the program's, not the workload's (a runtime pair compares two of them).
  for (const [k, v] of Object.entries(job.params)) if (k !== 'runtime') parts.set(k, String(v));
  for (const [k, v] of Object.entries(job.derived)) parts.set(k, String(v));
  // Facts that are text (a checksum) are in the scope only; the input's path is not the workload.
  for (const [k, v] of Object.entries(job.scope))
    if (k.startsWith('input_') && k !== 'input_dir' && typeof v === 'string') parts.set(k, v);
  const own = Object.keys(job.derived).filter((k) => !k.startsWith('input_'));
  for (const s of job.sizes ?? []) {
    if (s.scale === 1) continue;
    for (const k of own) parts.set(`${k}@${s.scale}`, String(s.scope[k]));
  }
  parts.set('input pipe', JSON.stringify(m.input ?? null));
  parts.set("the generated input's bytes", job.inputDigest ?? '');
  return parts;
}

/** A part's value as the change says it: a long one (a checksum) by its start. */
const shown = (v: string | undefined) => (v === undefined ? 'absent' : v.length > 20 ? `${v.slice(0, 12)}…` : v);

/** Parts reported as "changed" alone: their texts say nothing a reader could use. */
const OPAQUE = new Set(['input pipe', "the generated input's bytes"]);

/**
 * What differs between two points' workloads, worded ("input_bytes 9,000 → 18,000; the generated
 * input's bytes"), or undefined when they are the same workload.
 */
export function pairsWorkloadChange(base: Job, head: Job): string | undefined {
  const b = workloadParts(base);
  const h = workloadParts(head);
  const names = [...new Set([...b.keys(), ...h.keys()])];
  const diffs: string[] = [];
  for (const name of names) {
    const [x, y] = [b.get(name), h.get(name)];
    if (x === y) continue;
    diffs.push(OPAQUE.has(name) ? name : `${name} ${shown(x)} → ${shown(y)}`);
  }
  return diffs.length ? diffs.join('; ').slice(0, 300) : undefined;
}
