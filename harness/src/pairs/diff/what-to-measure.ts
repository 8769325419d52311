/**
 * The paired diff's plan, nothing measured, built or installed: both checkouts' manifests read, every
 * point's measured-input identity on each side (plan/identify-inputs.ts), the impact plan (what is
 * affected, the control), and whether the harness's measuring code changed; with a trace, the
 * base's points run once under strace and a changed path they touched makes them affected too. What `pairs --plan`
 * prints, what pr.yml computes with the base's harness before any pull-request code runs, and
 * what a diff handed that plan (`--trusted-plan`) measures at least.
 */
import { resolve } from 'node:path';
import { DIFF_PLAN_SCHEMA, type DiffPlan } from '../../formats/diff-plan-format.js';
import { commitInfo } from '../../machine/machine.js';
import type { Profile } from '../../model/profiles.js';
import { measuredInputs } from '../../plan/identify-inputs.js';
import type { Filters } from '../../plan/plan.js';
import { DEFAULT_CONTROL_POINTS, type ImpactPlan, planImpact, seedOf } from '../decide/impact.js';
import { onlyTraced, SEEN_ONLY_BY_TRACING, tracedReasons } from '../decide/traced-changes.js';
import { type LoadedSide, loadSideTolerant } from '../engine/diff-sides.js';
import { harnessChange } from '../harness-shift/harness-change.js';
import { type BaseTraces, traceBase } from './trace-base.js';
import { type HarnessTrace, tracedHarnessChanges, traceHarness } from './trace-harness.js';
import { tracedPathChange } from './traced-path-change.js';

export interface DiffPlanOptions {
  base: string;
  head: string;
  profile: Profile;
  filters: Filters;
  controlPoints?: number;
  /**
   * Trace the base's points (their runtimes and inputs in the harness's cache, machine/cache-root.ts):
   * a changed path a trace saw makes its point affected, beside the static identity.
   */
  trace?: {
    harnessRoot: string;
    log: (m: string) => void;
    /** A trend store: the base commit's stored traces for the plan's profile are taken, not made again. */
    store?: string;
  };
}

const identities = (side: LoadedSide) =>
  side.points.map((p) => ({ id: p.id, experiment: p.experiment.id, identity: measuredInputs(p, side.root) }));

/** Each side's points with their identities, planned into what the diff measures (seeded by the head commit). */
function impactOf(
  base: LoadedSide,
  head: LoadedSide,
  controlPoints: number,
  extra?: ReadonlyMap<string, readonly string[]>,
): ImpactPlan {
  return planImpact(identities(base), identities(head), controlPoints, seedOf(commitInfo(head.root).sha), extra);
}

/**
 * The base's traces against both sides: each point's reasons from changed paths only a trace saw,
 * and what the plan says of the trace (the paths beyond the static identities, the points not
 * fully traced).
 */
function tracedFindings(base: LoadedSide, head: LoadedSide, traces: BaseTraces) {
  const reasons = new Map<string, string[]>();
  const seen = new Map<string, { points: number; experiments: Set<string> }>();
  const notFullyTraced: { benchmark: string; reason: string }[] = [];
  const refusedWrites: { benchmark: string; paths: string[] }[] = [];
  const changed = tracedPathChange(base.root, head.root);
  for (const { id, experiment, identity } of identities(base)) {
    const t = traces.byPoint.get(id);
    if (!t?.ok) {
      notFullyTraced.push({ benchmark: id, reason: (t?.reason ?? 'not traced').slice(0, 600) });
      continue;
    }
    if (t.trace.notFullyTraced) notFullyTraced.push({ benchmark: id, reason: t.trace.notFullyTraced.slice(0, 600) });
    if (t.trace.refusedWrites.length)
      refusedWrites.push({ benchmark: id, paths: t.trace.refusedWrites.slice(0, 100).map((p) => p.slice(0, 1000)) });
    const itsListed = new Set(t.trace.listed);
    for (const p of onlyTraced(t.trace.paths, identity, itsListed)) {
      const s = seen.get(p) ?? { points: 0, experiments: new Set<string>() };
      s.points++;
      s.experiments.add(experiment);
      seen.set(p, s);
    }
    const why = tracedReasons(t.trace.paths, identity, (p) => changed(p, itsListed.has(p)), itsListed);
    if (why.length) reasons.set(id, why);
  }
  const summary: NonNullable<DiffPlan['traced']> = {
    points: traces.traced,
    fromStore: traces.fromStore,
    seconds: Math.round(traces.seconds * 10) / 10,
    seenOnlyByTracing: [...seen]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([path, s]) => ({ path, points: s.points, experiments: [...s.experiments].sort() })),
    notFullyTraced,
    ...(refusedWrites.length ? { refusedWrites } : {}),
  };
  return { reasons, summary };
}

/** Why the harness counts as changed or not, in one line. */
function harnessWhy(files: readonly string[], sameCode: boolean): string {
  if (!files.length) return 'no measuring file of the harness differs';
  if (sameCode) return 'only TypeScript sources differ and both sides compile to the same code';
  return `${files.length} measuring file(s) differ`;
}

/**
 * The plan's harness change: the static comparison's, and with a trace of the harness's own
 * start-up (./trace-harness.ts), every file it loaded that differs and that comparison does not name.
 */
async function planHarnessChange(base: LoadedSide, head: LoadedSide, trace: DiffPlanOptions['trace']) {
  const change = await harnessChange(base.root, head.root);
  const own: HarnessTrace | undefined = trace ? await traceHarness(trace.harnessRoot) : undefined;
  if (own && !own.ok) trace?.log(`trace of the harness: none (${own.reason})`);
  if (own?.ok) trace?.log(`trace of the harness: ${own.paths.length} path(s) in ${own.seconds.toFixed(1)} s`);
  const seen = own?.ok ? tracedHarnessChanges(own, change.files, tracedPathChange(base.root, head.root)) : [];
  const staticWhy = harnessWhy(change.files, change.sameCode);
  const ownWhy = !own
    ? ''
    : own.ok
      ? seen.length
        ? `; ${seen.length} file(s) the harness's traced start-up loaded differ`
        : ''
      : `; its start-up not traced: ${own.reason}`;
  return {
    changed: (change.files.length > 0 && !change.sameCode) || seen.length > 0,
    files: [...change.files, ...seen].slice(0, 2000).map((f) => f.slice(0, 300)),
    why: `${staticWhy}${ownWhy}`.slice(0, 600),
  };
}

/** The experiments a side's manifests could not be read for, with the side. */
function unreadableOf(base: LoadedSide, head: LoadedSide): NonNullable<DiffPlan['unreadable']> {
  return [
    ...(base.unreadable ?? []).map((u) => ({ ...u, side: 'base' as const })),
    ...(head.unreadable ?? []).map((u) => ({ ...u, side: 'head' as const })),
  ].map((u) => ({ experiment: u.experiment.slice(0, 200), side: u.side, reason: u.reason.slice(0, 600) }));
}

/**
 * Every point of an experiment one side's manifest could not be read for is affected (the other
 * side's points are all this plan can name), with that as its reason.
 */
function affectUnreadable(impact: ImpactPlan, unreadable: DiffPlan['unreadable'], sides: LoadedSide[]): void {
  for (const u of unreadable ?? []) {
    const why = `this harness cannot read the ${u.side}'s programs/${u.experiment}/manifest.json (${u.reason}): every point of ${u.experiment} is affected, and each one measured must be decided`;
    for (const p of sides.flatMap((s) => s.points).filter((q) => q.experiment.id === u.experiment)) {
      impact.measure.set(p.id, 'affected');
      impact.affected.set(p.id, [why.slice(0, 600)]);
    }
    impact.notAffected = impact.notAffected.filter((n) => !impact.affected.has(n.benchmark));
  }
}

export async function planDiff(opts: DiffPlanOptions): Promise<DiffPlan> {
  const side = { profile: opts.profile, filters: opts.filters };
  const base = loadSideTolerant(resolve(opts.base), 'base', side);
  const head = loadSideTolerant(resolve(opts.head), 'head', side);
  const traced = opts.trace
    ? tracedFindings(
        base,
        head,
        await traceBase(
          base,
          opts.trace.harnessRoot,
          opts.trace.log,
          opts.trace.store ? { dir: opts.trace.store, profile: opts.profile } : undefined,
        ),
      )
    : undefined;
  const impact = impactOf(base, head, opts.controlPoints ?? DEFAULT_CONTROL_POINTS, traced?.reasons);
  const unreadable = unreadableOf(base, head);
  affectUnreadable(impact, unreadable, [base, head]);
  const harness = await planHarnessChange(base, head, opts.trace);
  return {
    schema: DIFF_PLAN_SCHEMA,
    kind: 'pairs-plan',
    base: { root: base.root, commit: commitInfo(base.root).sha.slice(0, 64) },
    head: { root: head.root, commit: commitInfo(head.root).sha.slice(0, 64) },
    profile: opts.profile,
    affected: [...impact.affected].map(([benchmark, reasons]) => ({
      benchmark,
      reasons: reasons.slice(0, 2000).map((r) => r.slice(0, 600)),
    })),
    control: [...impact.measure].filter(([, why]) => why === 'control').map(([id]) => id),
    notAffected: impact.notAffected,
    harnessChange: harness,
    ...(unreadable.length ? { unreadable } : {}),
    ...(traced ? { traced: traced.summary } : {}),
  };
}

/**
 * What the diff measures: the head's impact plan, widened by the trusted plan where one is given
 * (the base's harness computed it: its affected points and control are measured whatever this
 * harness's own analysis says; this one may only add).
 */
export function impactPlan(
  sides: { base: LoadedSide; head: LoadedSide },
  controlPoints: number,
  trusted: DiffPlan | undefined,
  log: (m: string) => void,
): ImpactPlan {
  const plan = impactOf(sides.base, sides.head, controlPoints);
  if (trusted) widenToTrusted(plan, trusted, log);
  const control = [...plan.measure.values()].filter((i) => i === 'control').length;
  log(
    `impact: ${plan.affected.size} points affected by this PR, ${plan.notAffected.length} not affected (byte-identical measured inputs), ${control} drawn as the control`,
  );
  return plan;
}

/** Adds to `plan` what the trusted plan measures and it does not. */
export function widenToTrusted(plan: ImpactPlan, trusted: DiffPlan, log: (m: string) => void): void {
  let added = 0;
  for (const a of trusted.affected) {
    const own = plan.affected.get(a.benchmark);
    if (own) {
      // This harness traced nothing: what the base's trace saw is said all the same.
      const traced = a.reasons.filter((r) => r.startsWith(SEEN_ONLY_BY_TRACING) && !own.includes(r));
      if (traced.length) plan.affected.set(a.benchmark, [...own, ...traced]);
      continue;
    }
    plan.measure.set(a.benchmark, 'affected');
    plan.affected.set(
      a.benchmark,
      a.reasons.map((r) => `the base's analysis: ${r}`),
    );
    added++;
  }
  for (const id of trusted.control) if (!plan.measure.has(id)) plan.measure.set(id, 'control');
  const measured = new Set(plan.measure.keys());
  plan.notAffected = plan.notAffected.filter((n) => !measured.has(n.benchmark));
  if (added) log(`impact: ${added} point(s) the base's analysis calls affected and this one did not are measured too`);
}
