/**
 * What leads a paired diff's comparison (formats/parts/diff-summary.ts), from a paired comparison's lists. A point that
 * passes on base and fails on head is broken by the pull request; a point that fails or is skipped
 * on both sides is the harness's or the machine's problem, said once per reason, never one line
 * per point and side; exact counter changes are grouped per variant, largest first. Pure.
 */

import type { PairsComparison, PairsPoint } from '../../formats/pairs-format.js';
import type { BrokenGroup, CounterFinding, DiffSummary, NotMeasuredGroup } from '../../formats/parts/diff-summary.js';
import { reasonHeadline } from '../../lib/first-error-line.js';
import { parseBenchmarkId } from '../../model/benchmark-id.js';
import { type GateRule, gateResult, parseGateRule } from './merge-gate.js';
import { answerCounts, answeredPoints, movedOthers } from './point-answers.js';

type Item = PairsComparison['notMeasured'][number];

/** The command that measures one point on a checkout of head, as `npm run bench` takes it. */
export function reproduceCommand(id: string, profile?: string): string {
  const { experiment, variant, params } = parseBenchmarkId(id);
  const flags = Object.entries(params)
    .filter(([k, v]) => /^[a-z_][a-z0-9_]*$/.test(k) && /^[\w.+-]+$/.test(v))
    .map(([k, v]) => ` --param ${k}=${v}`)
    .join('');
  const safe = (s: string) => (/^[\w.-]+$/.test(s) ? s : 'INVALID');
  return `npm run bench -- --profile ${safe(profile ?? 'smoke')} --experiments ${safe(experiment)} --variants ${safe(variant)}${flags} --no-store`;
}

const runtimeOf = (params: Record<string, string>) => params.runtime ?? params.node;

function brokenGroups(items: readonly Item[], profile: string | undefined): BrokenGroup[] {
  const groups = new Map<string, BrokenGroup>();
  for (const x of items) {
    const { experiment, variant, params } = parseBenchmarkId(x.benchmark);
    const runtime = runtimeOf(params);
    const error = reasonHeadline(x.reason, 300);
    const key = JSON.stringify([experiment, variant, runtime, error]);
    const g = groups.get(key) ?? {
      experiment,
      variant,
      ...(runtime ? { runtime } : {}),
      points: 0,
      benchmarks: [],
      error,
      reproduce: reproduceCommand(x.benchmark, profile),
    };
    g.points++;
    if (g.benchmarks.length < 1000) g.benchmarks.push(x.benchmark);
    groups.set(key, g);
  }
  return [...groups.values()].sort((a, b) => b.points - a.points || a.experiment.localeCompare(b.experiment));
}

/**
 * The not-measured list by point: broken (head failed only) apart, the rest grouped by sides and
 * reason. `answered`: the points the PR may have changed (analysis/point-answers.ts); a control point
 * failing on head only cannot have been broken by it, and is grouped with the rest.
 */
export function classifyNotMeasured(
  list: readonly Item[],
  profile?: string,
  answered?: ReadonlySet<string>,
): { broken: BrokenGroup[]; brokenPoints: number; groups: NotMeasuredGroup[] } {
  const byPoint = new Map<string, { base?: Item; head?: Item }>();
  for (const x of list) {
    const e = byPoint.get(x.benchmark) ?? {};
    e[x.side] ??= x;
    byPoint.set(x.benchmark, e);
  }
  const broken: Item[] = [];
  const groups = new Map<string, NotMeasuredGroup>();
  for (const [id, { base, head }] of byPoint) {
    if (head && !base && head.status === 'failed' && (!answered || answered.has(id))) {
      broken.push(head);
      continue;
    }
    const sides = base && head ? 'both' : base ? 'base' : 'head';
    // Both sides: the head's reason (the base's is the same problem, usually the same words).
    const x = (head ?? base)!;
    const reason = reasonHeadline(x.reason, 300);
    const key = JSON.stringify([sides, x.status, reason]);
    const g = groups.get(key) ?? { sides, status: x.status, reason, points: 0, experiments: [] };
    g.points++;
    const exp = parseBenchmarkId(id).experiment;
    if (!g.experiments.includes(exp) && g.experiments.length < 100) g.experiments.push(exp);
    groups.set(key, g);
  }
  const rank = { both: 0, head: 1, base: 2 } as const;
  return {
    broken: brokenGroups(broken, profile),
    brokenPoints: broken.length,
    groups: [...groups.values()].sort((a, b) => rank[a.sides] - rank[b.sides] || b.points - a.points),
  };
}

/** Relative size of a counter change; a counter that appears from nothing counts as its new value. */
export const counterChange = (c: { base: number; head: number }) =>
  Math.abs(c.head - c.base) / Math.max(1, Math.abs(c.base));

/** Exact counter changes (no side's runs disagreed), grouped per variant and counter, largest first. */
export function counterFindings(points: readonly PairsPoint[], max = 5): CounterFinding[] {
  const compared = new Map<string, number>();
  const found = new Map<string, CounterFinding & { size: number }>();
  for (const p of points) {
    if (!p.changed) continue;
    const v = `${p.experiment}/${p.variant}`;
    compared.set(v, (compared.get(v) ?? 0) + 1);
    for (const c of p.counters) {
      if (c.baseRange || c.headRange) continue;
      const key = `${v} ${c.metric}`;
      const size = counterChange(c);
      const f = found.get(key);
      if (!f) {
        found.set(key, {
          experiment: p.experiment,
          variant: p.variant,
          metric: c.metric,
          unit: c.unit,
          base: c.base,
          head: c.head,
          points: 1,
          of: 0,
          size,
        });
        continue;
      }
      f.points++;
      if (size > f.size) Object.assign(f, { base: c.base, head: c.head, size });
    }
  }
  return [...found.values()]
    .map(({ size, ...f }) => ({ ...f, of: compared.get(`${f.experiment}/${f.variant}`) ?? f.points, size }))
    .sort((a, b) => b.size - a.size || b.points - a.points)
    .slice(0, max)
    .map(({ size: _size, ...f }) => f);
}

/** Every program whose definition differs: from the matched points and the not-measured list alike. */
function changedPrograms(c: Pick<PairsComparison, 'points' | 'notMeasured'>): string[] {
  const ids = [
    ...c.points.filter((p) => p.changed).map((p) => p.benchmark),
    ...c.notMeasured.filter((x) => x.changed).map((x) => x.benchmark),
  ];
  return [
    ...new Set(
      ids.map((id) => {
        const { experiment, variant } = parseBenchmarkId(id);
        return `${experiment}/${variant}`;
      }),
    ),
  ].sort();
}

const judgedChanged = (p: PairsPoint) =>
  p.pairs > 0 &&
  (p.lead.verdict === 'slower' ||
    p.lead.verdict === 'faster' ||
    movedOthers(p).length > 0 ||
    p.counters.some(exactChange));
const exactChange = (k: PairsPoint['counters'][number]) => !k.baseRange && !k.headRange;

/** The impact line's counts and the control's verdict (undefined for a diff that measured every point). */
function impactSummary(c: PairsComparison, answered: ReadonlySet<string>): DiffSummary['impact'] {
  if (c.notAffected === undefined) return undefined;
  const control = c.points.filter((p) => p.impact === 'control');
  const level = control.find((p) => p.alpha !== undefined)?.alpha;
  return {
    affected: answered.size,
    notAffected: c.notAffected.length,
    control: control.length,
    controlCalled: control.filter(judgedChanged).length,
    ...(level !== undefined ? { controlLevel: level } : {}),
    ...(c.untimed ? { untimed: true as const } : {}),
  };
}

/** Affected points whose exact counts decided a change, by its sign (none when the counts are not trusted). */
function workChangeCounts(
  affected: readonly PairsPoint[],
  trusted: boolean,
): { workGrew?: number; workShrank?: number } {
  const decided = affected.filter(
    (p) =>
      trusted &&
      !p.workloadChanged &&
      p.work?.status === 'counted' &&
      p.work.role === 'decides' &&
      p.work.verdict === 'changed',
  );
  const grew = decided.filter((p) => p.work?.status === 'counted' && (p.work.change ?? 0) > 0).length;
  return decided.length ? { workGrew: grew, workShrank: decided.length - grew } : {};
}

export function summarize(c: PairsComparison, rule: GateRule = parseGateRule('broken')): DiffSummary {
  const answered = answeredPoints(c);
  const { broken, brokenPoints, groups } = classifyNotMeasured(c.notMeasured, c.profile, answered);
  // A change the control is judged to show is a false positive by construction: counted apart, never as the PR's.
  const affected = c.points.filter((p) => p.impact !== 'control');
  const n = answerCounts(c);
  const verdicts = {
    slower: n.slower,
    faster: n.faster,
    unchanged: n.unchanged,
    inconclusive: n.inconclusive,
    unmeasured: affected.filter((p) => p.pairs === 0).length,
    workloadChanged: n.workloadChanged,
    added: n.added,
    removed: n.removed,
    notMeasured: n.notMeasured,
    unanswered: n.unanswered,
    // A changed workload's other metrics move with it: said with the workload, not here.
    alsoMoved: affected.filter((p) => p.pairs > 0 && !p.workloadChanged && movedOthers(p).length > 0).length,
    ...workChangeCounts(affected, c.counts?.trusted !== false),
  };
  const impact = impactSummary(c, answered);
  const gate = gateResult(rule, brokenPoints, affected, c.counts?.trusted !== false);
  const untrusted = impact?.controlCalled
    ? `; the control called ${impact.controlCalled} of ${impact.control} unaffected points, so this run's calls cannot be trusted`
    : '';
  return {
    broken,
    brokenPoints,
    notMeasured: groups,
    changedPrograms: changedPrograms(c),
    // A changed workload changes its counts too: those are the workload's, said with it.
    counters: counterFindings(affected.filter((p) => !p.workloadChanged)),
    calls: verdicts,
    outcome: { ...gate, because: `${gate.because}${untrusted}`.slice(0, 300) },
    ...(impact ? { impact } : {}),
  };
}
