/**
 * `npm run calibrate`: this machine's figures for the paired diff (`pairs`), measured with the real
 * runner (docs/reading-results.md, "How far to trust a paired diff"), and the per-point noise
 * thresholds that `pairs`, `compare` and the site's change detection read (noise.json, stored
 * per machine).
 *
 * - A/A: two git worktrees of the same commit, diffed `repeats` times. Every point's verdict is
 *   a trial: "slower" or "faster" is a false positive. Each point's A/A pairs also feed the
 *   bootstrap replay of calibration/aa-replay.ts (false-positive rate of the rule on this
 *   noise, the minimal detectable effect at the pairs the point got, its calibrated threshold).
 * - Planted: a third worktree whose wc C variant spins after every read() for ~5% of the read
 *   cost the A/A diff measured, diffed against the first `repeats` times: the share of wc C
 *   points called "slower" is the detection power.
 * - With `busy`, a CPU-bound process (`yes > /dev/null`) runs for the whole calibration.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, symlinkSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../lib/atomic.js';
import { UserError } from '../lib/errors.js';
import { runProcess } from '../lib/exec.js';
import type { Profile } from '../model/profiles.js';
import { Budget } from '../pairs/engine/budget.js';
import { pairEveryPoint } from '../pairs/engine/every-point.js';
import type { Filters } from '../plan/plan.js';
import { publishNoise } from '../store/publish-run.js';
import {
  aaFigures,
  type CalibrationDiff,
  noiseFileOf,
  type PairsCalibration,
  plantedFigures,
  plantTarget,
  renderCalibration,
} from './figures.js';
import { plantWcSlowdown } from './plant.js';

export type { PairsCalibration } from './figures.js';

export interface PairsCalibrationOptions {
  root: string;
  profile: Profile;
  filters: Filters;
  require: string[];
  /** Seconds each diff's pairs may take. */
  askedSeconds: number;
  log?: (m: string) => void;
  out: string;
  /** A store to publish noise.json into (<store>/<machine>/noise.json), as calibrate.yml does. */
  store?: string;
  repeats: number;
  /** Nanoseconds of busy-waiting per read in the planted copy; default ~5% of the measured read cost. */
  plantNs?: number;
  busy?: boolean;
}

async function worktree(root: string, dir: string, log: (m: string) => void, made: string[]): Promise<string> {
  if (!existsSync(dir)) {
    made.push(dir);
    const r = await runProcess(['git', '-C', root, 'worktree', 'add', '--detach', dir, 'HEAD']);
    if (r.code !== 0) throw new UserError(`git worktree add ${dir} failed: ${r.stderr.trim()}`);
    log(`calibrate: worktree ${dir} at HEAD`);
  }
  // esbuild bundles resolve packages from the program's checkout; the worktree borrows this one's.
  if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

const load = () => Number(loadavg()[0]!.toFixed(2));

/** `repeats` real diffs of base against head, seeds from `seed0` on. */
async function diffs(
  opts: PairsCalibrationOptions,
  sides: { base: string; head: string; filters: Filters },
  seed0: number,
  what: string,
): Promise<CalibrationDiff[]> {
  const log = opts.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const out: CalibrationDiff[] = [];
  for (let i = 0; i < opts.repeats; i++) {
    log(`calibrate: ${what} ${i + 1}/${opts.repeats}`);
    const t = performance.now();
    // Both sides are one commit (the A/A) or differ by a plant: every point is measured, none is a control.
    const r = await pairEveryPoint(
      {
        base: { root: sides.base, filters: sides.filters },
        head: { root: sides.head, filters: sides.filters },
        profile: opts.profile,
        setup: { require: opts.require },
      },
      // The head worktree's harness measures (its cache is the runtimes' and inputs').
      { harnessRoot: sides.head, budget: new Budget(opts.askedSeconds), seed: seed0 + i, log },
    );
    out.push({ ...r, minutes: (performance.now() - t) / 60_000 });
  }
  return out;
}

/** The planted diffs: wc C spinning ~5% of its measured read cost per read, against the A/A base. */
async function planted(
  opts: PairsCalibrationOptions,
  aa: readonly CalibrationDiff[],
  base: string,
  worktreeOf: (name: string) => Promise<string>,
): Promise<PairsCalibration['planted']> {
  const target = plantTarget(aa);
  const readNs = target?.lead.baseMedian;
  const ns = opts.plantNs ?? (readNs ? 0.05 * readNs : undefined);
  if (ns === undefined || opts.plantNs === 0) return undefined;
  const head = await worktreeOf('planted');
  await runProcess(['git', '-C', head, 'checkout', '--', 'programs/wc/wc-c.c']);
  plantWcSlowdown(head, ns);
  // Only the planted point is measured: the others would only spend the time.
  const filters: Filters = {
    ...opts.filters,
    experiments: ['wc'],
    variants: ['c'],
    params: { ...opts.filters.params, ...(target ? { bs: [target.params.bs!] } : {}) },
  };
  const runs = await diffs(opts, { base, head, filters }, 2000, `planted diff (${ns.toFixed(0)} ns per read)`);
  return plantedFigures(runs, target, ns);
}

export async function calibratePairs(
  opts: PairsCalibrationOptions,
): Promise<{ result: PairsCalibration; markdown: string }> {
  const log = opts.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const root = resolve(opts.root);
  const commit = await runProcess(['git', '-C', root, 'rev-parse', 'HEAD']);
  if (commit.code !== 0)
    throw new UserError(`${root} is not a git checkout: calibration needs worktrees of one commit`);
  // Worktrees this calibration adds are removed at the end (git keeps a record of each).
  const made: string[] = [];
  const worktreeOf = (name: string) => worktree(root, join(opts.out, name), log, made);
  let busy: ChildProcess | undefined;
  try {
    const [a, b] = [await worktreeOf('aa-base'), await worktreeOf('aa-head')];
    if (opts.busy) {
      busy = spawn('bash', ['-c', 'exec yes > /dev/null'], { stdio: 'ignore' });
      log(`calibrate: a CPU-bound load runs for the whole calibration (pid ${busy.pid})`);
    }
    const loadStart = load();
    const aa = await diffs(opts, { base: a, head: b, filters: opts.filters }, 1000, 'A/A diff');
    const result = aaFigures(aa, {
      commit: commit.stdout.trim(),
      repeats: opts.repeats,
      busy: Boolean(opts.busy),
      loadStart,
    });
    const plant = await planted(opts, aa, a, worktreeOf);
    if (plant) result.planted = plant;
    result.load.end = load();
    const markdown = renderCalibration(result);
    writeFileAtomic(join(opts.out, 'calibration.json'), `${JSON.stringify(result, null, 1)}\n`);
    writeFileAtomic(join(opts.out, 'calibration.md'), markdown);
    // Thresholds for `npm run pairs -- --noise` (or --noise-store, from the store), compare and the site.
    const noise = noiseFileOf(result);
    writeFileAtomic(join(opts.out, 'noise.json'), `${JSON.stringify(noise, null, 1)}\n`);
    if (opts.store) publishNoise(opts.store, noise);
    return { result, markdown };
  } finally {
    if (busy?.pid) busy.kill('SIGKILL');
    for (const dir of made) await runProcess(['git', '-C', root, 'worktree', 'remove', '--force', dir]);
  }
}
