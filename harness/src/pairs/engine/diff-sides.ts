/**
 * The paired diff's two sides: each checkout loaded, planned through the shared set-up stage and
 * built; then their jobs matched by benchmark id into the points to measure in pairs, with what
 * cannot be paired listed (added, removed, blocked, failed builds). A point whose workload changed
 * is measured like any other, and marked (pairs/decide/workload.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Experiment } from '../../formats/manifest-format.js';
import type { PairsComparison } from '../../formats/pairs-format.js';
import type { UnreadableExperiment } from '../../formats/read-manifests.js';
import { UserError } from '../../lib/errors.js';
import { cacheRoot, checkoutCache } from '../../machine/cache-root.js';
import { commitInfo } from '../../machine/machine.js';
import type { Job } from '../../model/job.js';
import type { Profile } from '../../model/profiles.js';
import { type Host, planCheckout } from '../../pipeline/setup.js';
import { loadAllExperiments, loadReadableExperiments } from '../../plan/experiments.js';
import { expand, type Filters, type Point } from '../../plan/plan.js';
import { type BuildResult, buildAll } from '../../run/build.js';
import type { Impact } from '../decide/impact.js';
import { pairsWorkloadChange } from '../decide/workload.js';
import type { PointPlan } from './executor.js';

export interface PreparedSide {
  root: string;
  experiments: Experiment[];
  jobs: Job[];
  builds: Map<string, BuildResult>;
  toolchains: Record<string, string>;
  commit: string;
}

/** What plans a side's points: its profile and filters (nothing else of the diff's options). */
export interface SidePlan {
  profile: Profile;
  filters: Filters;
}

/** A checkout's experiments and the points its profile and filters plan, before anything is resolved. */
export interface LoadedSide {
  root: string;
  experiments: Experiment[];
  points: Point[];
  /** Experiments this harness could not read on this side (a tolerant load: the plan's). */
  unreadable?: UnreadableExperiment[];
}

function assertCheckout(root: string, label: 'base' | 'head'): void {
  if (!existsSync(join(root, 'programs')))
    throw new UserError(
      `--${label} ${root} is not a checkout of this repository: it has no programs/ folder`,
      `give the ${label} commit's checkout (git worktree add ../${label} <commit>)`,
    );
}

/**
 * One checkout's readable experiments and their points, and the experiments this harness cannot
 * read (listed, not fatal): what a plan of a pull request needs to go on and call those affected.
 */
export function loadSideTolerant(root: string, label: 'base' | 'head', plan: SidePlan): LoadedSide {
  assertCheckout(root, label);
  const { experiments, unreadable } = loadReadableExperiments(join(root, 'programs'));
  return { root, experiments, points: expand(experiments, plan.profile, plan.filters), unreadable };
}

/** Reads one checkout's manifests and plans its points (nothing installed, built or run). */
export function loadSide(root: string, label: 'base' | 'head', plan: SidePlan): LoadedSide {
  assertCheckout(root, label);
  let experiments: Experiment[];
  try {
    experiments = loadAllExperiments(join(root, 'programs'));
  } catch (e) {
    throw new UserError(
      `the ${label} checkout's programs cannot be read by this harness: ${(e as Error).message}`,
      'a base older than this harness cannot be paired: bench each checkout (`npm run bench`) and take a quick look with `npm run compare`',
    );
  }
  return { root, experiments, points: expand(experiments, plan.profile, plan.filters) };
}

/**
 * Resolves, plans and builds the chosen points of one checkout (`keep`: the ids to measure; all
 * by default); runtimes and inputs come from the cache of the checkout whose harness runs the
 * diff (`harnessRoot`). `require`: the tools and runtimes whose absence is an error; `justHome`:
 * the side's own just(js) installation, where the two sides pin different releases; `sandbox`
 * 'off': `pairs --no-sandbox`, a diagnostic that measures what the sandbox costs.
 */
export async function prepareSide(
  side: LoadedSide,
  harnessRoot: string,
  label: 'base' | 'head',
  {
    require,
    justHome,
    sandbox = 'required',
  }: { require: string[]; justHome?: string | undefined; sandbox?: 'required' | 'off' },
  host: Host,
  log: (m: string) => void,
  keep?: ReadonlySet<string>,
): Promise<PreparedSide> {
  const { root, experiments } = side;
  const points = keep ? side.points.filter((p) => keep.has(p.id)) : side.points;
  const empty = { root, experiments, jobs: [], builds: new Map(), toolchains: {}, commit: commitInfo(root).sha };
  if (!points.length) return empty;
  // Runtimes and inputs (content-keyed) and the evictor (the harness's tool, not a program under
  // test) come from the harness's cache outside both checkouts (machine/cache-root.ts), for both
  // sides by the same path; each side's builds from its own folder there: with the base's own path
  // to a shared input (a symlink to the head's), every file the base's scan opens costs one more
  // path lookup, which an A/A diff calls a change (docs/reading-results.md).
  const { jobs, toolchains } = await planCheckout(
    points,
    host,
    {
      root,
      cacheDir: cacheRoot(),
      evictorRoot: harnessRoot,
      jobCacheDir: checkoutCache(root),
      // Both sides write one file by one path. With a file each, A/A diffs of writes call the head
      // faster, whichever checkout it is (likely each file reuses the page-cache pages it freed;
      // docs/reading-results.md).
      scratchDir: join(checkoutCache(harnessRoot), 'scratch'),
      require,
      // Each side in a sandbox of its own, at the one path both share: where none can start, the
      // two sides would run at different paths, and counts move with paths (docs/counts.md).
      sandbox,
      ...(justHome ? { justHome } : {}),
    },
    log,
  );
  log(`${label}: ${jobs.length} benchmarks planned in ${root}`);
  const builds = await buildAll(jobs, (m) => log(`${label}: ${m}`));
  return { ...empty, jobs, builds, toolchains };
}

export interface Matched {
  plans: PointPlan[];
  added: PairsComparison['added'];
  removed: PairsComparison['removed'];
  notMeasured: PairsComparison['notMeasured'];
}

/** Why a side's job cannot run: blocked when planned (a missing runtime...), or its build failed. */
function blockedOn(side: PreparedSide, job: Job): { status: 'skipped' | 'failed'; reason: string } | undefined {
  if (job.blocked) return job.blocked;
  const b = job.build ? side.builds.get(job.build.key) : undefined;
  return b && !b.ok ? { status: 'failed', reason: `build failed: ${b.reason}` } : undefined;
}

/**
 * The points both sides have, in the head's order, and what could not be paired. Jobs match by
 * `key` (the benchmark id; a runtime pair sets the runtime aside: releases/sweeps/confirm-in-pairs.ts).
 */
export function matchPoints(
  base: PreparedSide,
  head: PreparedSide,
  key: (j: Job) => string = (j) => j.id,
  impactOf?: (id: string) => Impact,
): Matched {
  const baseById = new Map(base.jobs.map((j) => [key(j), j]));
  const headIds = new Set(head.jobs.map(key));
  const m: Matched = {
    plans: [],
    added: head.jobs.filter((j) => !baseById.has(key(j))).map((j) => ({ benchmark: j.id, side: 'head' as const })),
    removed: base.jobs.filter((j) => !headIds.has(key(j))).map((j) => ({ benchmark: j.id, side: 'base' as const })),
    notMeasured: [],
  };
  for (const h of head.jobs) {
    const b = baseById.get(key(h));
    if (!b) continue;
    const blocked = (
      [
        ['base', blockedOn(base, b)],
        ['head', blockedOn(head, h)],
      ] as const
    ).filter(([, why]) => why);
    // Not measured, yet changed in this PR all the same: the changed programs come from the sources.
    const isChanged = impactOf ? impactOf(h.id) === 'affected' : b.definition !== h.definition;
    const marked = isChanged ? { changed: true } : {};
    for (const [side, why] of blocked)
      m.notMeasured.push({
        benchmark: h.id,
        side,
        status: why!.status,
        reason: why!.reason.slice(0, 2000),
        ...marked,
      });
    if (blocked.length) continue;
    const kind = h.runner === 'self' ? 'self' : h.experiment.manifest.fit && h.sizes ? 'fit' : 'process';
    // Measured in pairs all the same: what the PR did to this point is the question, and a
    // changed workload is part of the answer, not a reason to give none.
    const workloadChange = pairsWorkloadChange(b, h);
    // Without an impact plan (every point measured), "changed" is the identity's digest.
    m.plans.push({
      id: h.id,
      base: b,
      head: h,
      kind,
      changed: isChanged,
      impact: impactOf?.(h.id) ?? 'affected',
      ...(workloadChange ? { workloadChange } : {}),
    });
  }
  return m;
}
