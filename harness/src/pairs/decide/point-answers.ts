/**
 * Every affected point's answer, one each, so the comment's first line adds up to the points the
 * pull request affected: broken, a verdict of its pairs, a changed workload (measured all the
 * same), added or removed (one side only), or not measured (with its reason listed). The control
 * is apart: its points are the machine's check, not the PR's answers. A point that got none of
 * these is "unanswered" — a bug the comment says, never folds into an all-clear. Pure.
 */
import type { PairsComparison, PairsPoint } from '../../formats/pairs-format.js';
import { PAIRS_VERDICTS } from '../../model/verdicts.js';

/** A point's answer: broken, its pairs' verdict, or why it has none. */
const ANSWERS = [
  'broken',
  ...PAIRS_VERDICTS,
  'workloadChanged',
  'added',
  'removed',
  'notMeasured',
  'unanswered',
] as const;
export type Answer = (typeof ANSWERS)[number];

type Doc = Pick<
  PairsComparison,
  'points' | 'notMeasured' | 'added' | 'removed' | 'incomparable' | 'notAffected' | 'affectedBecause'
>;

/**
 * The points the first line answers for: with an impact plan, the affected ones (what changed,
 * points only one side has); a diff that measured every point (calibration, a runtime pair)
 * answers for all of them. The control is never among them.
 */
export function answeredPoints(c: Doc): Set<string> {
  const sided = [...c.added, ...c.removed].map((x) => x.benchmark);
  if (c.notAffected !== undefined) return new Set([...(c.affectedBecause ?? []).map((a) => a.benchmark), ...sided]);
  const control = new Set(c.points.filter((p) => p.impact === 'control').map((p) => p.benchmark));
  return new Set(
    [
      ...c.points.map((p) => p.benchmark),
      ...c.notMeasured.map((x) => x.benchmark),
      ...(c.incomparable ?? []).map((x) => x.benchmark),
      ...sided,
    ].filter((id) => !control.has(id)),
  );
}

/** A measured point's answer: no pairs is "not measured"; a changed workload is its own answer. */
function pointAnswer(p: Pick<PairsPoint, 'pairs' | 'workloadChanged' | 'lead'>): Answer {
  if (p.pairs === 0) return 'notMeasured';
  if (p.workloadChanged) return 'workloadChanged';
  return p.lead.verdict;
}

/** Each answered point's answer, by benchmark id. */
function answers(c: Doc): Map<string, Answer> {
  const ids = answeredPoints(c);
  const added = new Set(c.added.map((x) => x.benchmark));
  const removed = new Set(c.removed.map((x) => x.benchmark));
  const missing = new Map<string, { base?: boolean; headFailed?: boolean }>();
  for (const x of c.notMeasured) {
    const m = missing.get(x.benchmark) ?? {};
    if (x.side === 'base') m.base = true;
    else if (x.status === 'failed') m.headFailed = true;
    missing.set(x.benchmark, m);
  }
  const points = new Map(c.points.map((p) => [p.benchmark, p]));
  const incomparable = new Set((c.incomparable ?? []).map((x) => x.benchmark));
  const out = new Map<string, Answer>();
  for (const id of ids) {
    const m = missing.get(id);
    const p = points.get(id);
    out.set(
      id,
      added.has(id)
        ? 'added'
        : removed.has(id)
          ? 'removed'
          : m
            ? // Passes on base, fails on head: broken by the pull request.
              m.headFailed && !m.base
              ? 'broken'
              : 'notMeasured'
            : p
              ? pointAnswer(p)
              : // An older diff's changed workload: not measured.
                incomparable.has(id)
                ? 'notMeasured'
                : 'unanswered',
    );
  }
  return out;
}

/** How many answered points got each answer; they add up to the answered points. */
export function answerCounts(c: Doc): Record<Answer, number> {
  const counts = Object.fromEntries(ANSWERS.map((a) => [a, 0])) as Record<Answer, number>;
  for (const a of answers(c).values()) counts[a]++;
  return counts;
}

/** Why the answered points that were not measured were not: no pairs, a side failed or skipped, an older diff's changed workload. */
export function notMeasuredWhy(c: Doc): { noPairs: number; bothSides: number; oneSide: number; workload: number } {
  const out = { noPairs: 0, bothSides: 0, oneSide: 0, workload: 0 };
  const sides = new Map<string, Set<string>>();
  for (const x of c.notMeasured) sides.set(x.benchmark, (sides.get(x.benchmark) ?? new Set()).add(x.side));
  const points = new Map(c.points.map((p) => [p.benchmark, p]));
  for (const [id, a] of answers(c)) {
    if (a !== 'notMeasured') continue;
    const s = sides.get(id);
    if (s) out[s.size === 2 ? 'bothSides' : 'oneSide']++;
    else if (points.get(id)) out.noPairs++;
    else out.workload++;
  }
  return out;
}

/**
 * A point's other timed metrics that moved, as its row names them (`also`) and its folded rows
 * judged them; only a comparison of schema 3 judges them at the diff-wide level, and a name the
 * folded rows do not call slower or faster is not taken from the artifact.
 */
export function movedOthers(p: Pick<PairsPoint, 'also' | 'folded'>): PairsPoint['folded'] {
  const named = new Set(p.also ?? []);
  return p.folded.filter(
    (m) => named.has(m.metric) && m.of === undefined && (m.verdict === 'slower' || m.verdict === 'faster'),
  );
}
