/**
 * What a pull request can have changed, point by point: a point whose measured-input identity
 * (plan/identify-inputs.ts) is byte-identical on both sides is not affected and is not measured;
 * anything else — a differing part, or an identity that cannot be proven on either side — is
 * affected. A seeded sample of the unaffected points is measured all the same, exactly like the
 * affected ones: the diff's live A/A control. Pure: identities in, the plan out.
 */
import { prng } from '../../analysis/two-sample.js';
import type { MeasuredInputs } from '../../model/measured-inputs.js';

/** Why a point is measured: the PR may have changed it, or it is one of the diff's A/A controls. */
export type Impact = 'affected' | 'control';

/** Unaffected points measured as the control, by default. */
export const DEFAULT_CONTROL_POINTS = 6;

export interface PointIdentity {
  id: string;
  experiment: string;
  identity: MeasuredInputs;
}

export interface ImpactPlan {
  /** Points to measure, each with why: every affected one and the control sample. */
  measure: Map<string, Impact>;
  /** Why each affected point is affected: what changed ("programs/wc/wc-c.c"), or why it cannot be known. */
  affected: Map<string, string[]>;
  /** Points on both sides that are neither affected nor drawn for the control, with the reason. */
  notAffected: { benchmark: string; reason: string }[];
}

/** A part's name as a reader knows it: "file programs/wc/wc-c.c" -> "programs/wc/wc-c.c". */
const partLabel = (name: string) => name.replace(/^file /, '');

/** The parts that differ between two identities, worded: "programs/wc/wc-c.c", "runtime node@22: 22.1.0 → 22.2.0". */
export function changedParts(base: Readonly<Record<string, string>>, head: Readonly<Record<string, string>>): string[] {
  const names = [...new Set([...Object.keys(base), ...Object.keys(head)])].sort();
  const out: string[] = [];
  for (const name of names) {
    const b = base[name];
    const h = head[name];
    if (b === h) continue;
    if (b === undefined) out.push(`${partLabel(name)} (new)`);
    else if (h === undefined) out.push(`${partLabel(name)} (no longer used)`);
    else if (name.startsWith('runtime ') || name.startsWith('package '))
      out.push(`${name}: ${b.split(' ')[0]} → ${h.split(' ')[0]}`);
    else out.push(partLabel(name));
  }
  return out;
}

/** Whether one point is affected, and every reason (undefined when its identity is the same on both sides). */
function affectedReasons(base: MeasuredInputs, head: MeasuredInputs): string[] | undefined {
  if (!head.ok) return [`its measured inputs cannot be identified on the head: ${head.reason}`];
  if (!base.ok) return [`its measured inputs cannot be identified on the base: ${base.reason}`];
  if (base.digest === head.digest) return undefined;
  const parts = changedParts(base.parts, head.parts);
  // Digests of two identity schemes differ with nothing changed: never read as unchanged.
  return parts.length ? parts.map((p) => `changed: ${p}`) : ['its identity was computed another way on each side'];
}

/** The reasons in one line: "changed: a, b, c, d and 3 more". */
export function reasonLine(reasons: readonly string[]): string {
  const changed = reasons.filter((r) => r.startsWith('changed: ')).map((r) => r.slice('changed: '.length));
  const other = reasons.filter((r) => !r.startsWith('changed: '));
  const shown = changed.slice(0, 4).join(', ');
  const more = changed.length > 4 ? ` and ${changed.length - 4} more` : '';
  return [...other, ...(changed.length ? [`changed: ${shown}${more}`] : [])].join('; ');
}

/** Whether one point is affected, and why in one line (undefined when its identity is the same on both sides). */
export function affectedBecause(base: MeasuredInputs, head: MeasuredInputs): string | undefined {
  const reasons = affectedReasons(base, head);
  return reasons && reasonLine(reasons);
}

/** A 32-bit seed from any text (the head commit): the same commit draws the same control. */
export function seedOf(text: string): number {
  // FNV-1a: pure, and enough to spread commit hashes over 32 bits.
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function shuffled<T>(items: readonly T[], rand: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * `n` of the candidates, spread over their experiments (one from each in a random order, then a
 * second from each, ...), each experiment's own order random: seeded, so a re-run draws the same.
 */
export function drawControl(
  candidates: readonly { id: string; experiment: string }[],
  n: number,
  seed: number,
): string[] {
  const rand = prng(seed);
  const byExperiment = new Map<string, string[]>();
  for (const c of [...candidates].sort((a, b) => a.id.localeCompare(b.id)))
    byExperiment.set(c.experiment, [...(byExperiment.get(c.experiment) ?? []), c.id]);
  const queues = shuffled([...byExperiment.keys()].sort(), rand).map((e) => shuffled(byExperiment.get(e)!, rand));
  const out: string[] = [];
  while (out.length < n && queues.some((q) => q.length))
    for (const q of queues) if (out.length < n && q.length) out.push(q.shift()!);
  return out;
}

/** The reason every unaffected point shares. */
export const NOT_AFFECTED_REASON =
  "everything its process could read is byte-identical on both sides (its experiment's files but other programs' own, what it imports, includes and names, the input generator, the runtime's own configuration, its manifest entry and runtime pin)";

/**
 * The diff's plan from both sides' identities: points only one side has are left to the
 * matching (added, removed), so they are kept in `measure` as affected. `extra`: reasons found
 * beside the identities (a changed path only a trace saw), each making its point affected.
 */
export function planImpact(
  base: readonly PointIdentity[],
  head: readonly PointIdentity[],
  controlPoints: number,
  seed: number,
  extra: ReadonlyMap<string, readonly string[]> = new Map(),
): ImpactPlan {
  const baseById = new Map(base.map((p) => [p.id, p]));
  const plan: ImpactPlan = { measure: new Map(), affected: new Map(), notAffected: [] };
  const unaffected: PointIdentity[] = [];
  for (const h of head) {
    const b = baseById.get(h.id);
    const found = b ? affectedReasons(b.identity, h.identity) : ['only the head has it'];
    const more = extra.get(h.id) ?? [];
    const why = found || more.length ? [...(found ?? []), ...more] : undefined;
    if (why === undefined) unaffected.push(h);
    else {
      plan.measure.set(h.id, 'affected');
      plan.affected.set(h.id, why);
    }
  }
  const headIds = new Set(head.map((p) => p.id));
  for (const b of base)
    if (!headIds.has(b.id)) {
      plan.measure.set(b.id, 'affected');
      plan.affected.set(b.id, ['only the base has it']);
    }
  const control = new Set(drawControl(unaffected, controlPoints, seed));
  for (const p of unaffected) {
    if (control.has(p.id)) plan.measure.set(p.id, 'control');
    else plan.notAffected.push({ benchmark: p.id, reason: NOT_AFFECTED_REASON });
  }
  return plan;
}

/**
 * Drops the control from `plan` (its points join the unaffected ones): for a diff that times
 * nothing, whose answers rest on no measurement the machine could spoil. Returns how many it dropped.
 */
export function dropControl(plan: ImpactPlan): number {
  const control = [...plan.measure].filter(([, why]) => why === 'control').map(([id]) => id);
  for (const id of control) {
    plan.measure.delete(id);
    plan.notAffected.push({ benchmark: id, reason: NOT_AFFECTED_REASON });
  }
  return control.length;
}
