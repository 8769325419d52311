/**
 * The points a harness change is measured on: a seeded draw from every experiment, and the
 * `bench` command line that measures exactly one of them. Pure.
 */

import { createHash } from 'node:crypto';
import { prng } from '../../analysis/two-sample.js';
import type { Params } from '../../formats/results-format.js';
import { compareText } from '../../lib/compare-text.js';
import type { Profile } from '../../model/profiles.js';

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

/** How drawSample orders an experiment's points before taking the first usable ones. */
export interface SampleOrder<P> {
  /** A point's noise on this machine where known (the calibrated threshold): the quietest first. */
  noiseOf?: (p: P) => number | undefined;
  /** Points taken only when an experiment has too few others (a cold cache's eviction before every run). */
  last?: (p: P) => boolean;
}

/**
 * The first `perExperiment` points of each experiment that `usable` accepts: points `last` names
 * after all others, and the quietest first where `noiseOf` knows a point's noise on this machine
 * (a shift is resolved soonest where the numbers move least), in the seeded order among equals
 * and for the points it does not know.
 */
export async function drawSample<P extends SamplePoint>(
  points: readonly P[],
  seed: number,
  perExperiment: number,
  usable: (p: P) => boolean | Promise<boolean> = () => true,
  order: SampleOrder<P> = {},
): Promise<P[]> {
  const out: P[] = [];
  const known = (p: P) => order.noiseOf?.(p) ?? Number.POSITIVE_INFINITY;
  const tier = (p: P) => (order.last?.(p) ? 1 : 0);
  for (const shuffled of shuffledByExperiment(points, seed).values()) {
    // A stable sort: the seeded order stays among points of one tier and noise.
    const list = [...shuffled].sort((a, b) => tier(a) - tier(b) || known(a) - known(b));
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

/**
 * `bench` flags that select exactly this point (every parameter named) and write to `out`, adding
 * to no store; `runs` timed runs instead of the profile's when given.
 */
export function benchArgs(p: SamplePoint, profile: Profile, out: string, runs?: number): string[] {
  const params = Object.entries(p.params)
    .sort(([a], [b]) => compareText(a, b))
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
    ...(runs !== undefined ? ['--runs', String(runs)] : []),
    '--out',
    out,
    '--no-store',
  ];
}

/**
 * `points` reordered so that each program (experiment, variant and runtime) comes once before any
 * comes again: the first few counted (MAX_COUNTED) then cover as many programs as they can, where
 * the points of one program mostly tell the same story.
 */
export function oneOfEachFirst<P extends { experiment: { id: string }; variant: { id: string }; runtime: string }>(
  points: readonly P[],
): P[] {
  const groups = new Map<string, P[]>();
  for (const p of points) {
    const key = `${p.experiment.id}/${p.variant.id}/${p.runtime}`;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  const out: P[] = [];
  for (let round = 0; out.length < points.length; round++)
    for (const g of groups.values()) if (round < g.length) out.push(g[round]!);
  return out;
}
