/**
 * The points a harness change is measured on: a seeded draw from every experiment, and the
 * `bench` command line that measures exactly one of them. Pure.
 */
import { createHash } from 'node:crypto';
import { prng } from '../../../analysis/two-sample.js';
import type { Params } from '../../../model/manifest.js';
import type { Profile } from '../../../model/profiles.js';

/** A benchmark point as the sample names it (a plan's Point has these fields). */
export interface SamplePoint {
  id: string;
  experiment: { id: string };
  variant: { id: string };
  params: Params;
}

/** A seed from a commit id (its first 32 bits), or from any other text by its hash: a re-run draws the same. */
export function seedOf(commit: string): number {
  const hex = /^[0-9a-f]{8}/i.test(commit) ? commit : createHash('sha256').update(commit).digest('hex');
  return Number.parseInt(hex.slice(0, 8), 16);
}

/** Every experiment's points in a seeded random order (Fisher-Yates), experiments in name order. */
export function shuffledByExperiment<P extends SamplePoint>(points: readonly P[], seed: number): Map<string, P[]> {
  const rand = prng(seed);
  const by = new Map<string, P[]>();
  for (const p of points) by.set(p.experiment.id, [...(by.get(p.experiment.id) ?? []), p]);
  const out = new Map<string, P[]>();
  for (const id of [...by.keys()].sort()) {
    const list = [...by.get(id)!];
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
    out.set(id, list);
  }
  return out;
}

/** The first `perExperiment` points of each experiment's seeded order that `usable` accepts. */
export async function drawSample<P extends SamplePoint>(
  points: readonly P[],
  seed: number,
  perExperiment: number,
  usable: (p: P) => boolean | Promise<boolean> = () => true,
): Promise<P[]> {
  const out: P[] = [];
  for (const list of shuffledByExperiment(points, seed).values()) {
    let taken = 0;
    for (const p of list) {
      if (taken >= perExperiment) break;
      if (await usable(p)) {
        out.push(p);
        taken++;
      }
    }
  }
  return out;
}

/** `bench` flags that select exactly this point (every parameter named) and write to `out`, adding to no store. */
export function benchArgs(p: SamplePoint, profile: Profile, out: string): string[] {
  const params = Object.entries(p.params)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .flatMap(([k, v]) => ['--param', `${k}=${v}`]);
  return [
    'bench',
    '--profile',
    profile,
    '--experiments',
    p.experiment.id,
    '--variants',
    p.variant.id,
    ...params,
    '--out',
    out,
    '--no-store',
  ];
}
