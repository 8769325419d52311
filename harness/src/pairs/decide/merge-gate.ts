/**
 * The merge gate of a pull request's paired diff (shown as "Merge check" in its comment and as
 * the commit status the comment job sets): whether the check fails, by a rule the repository chooses
 * (`PR_FAIL_ON`, docs/workflows.md). `broken` fails on a point that passes on base and fails on
 * head; `slower` on a confirmed regression (verdict "slower" after the diff-wide false-positive
 * control, of the lead or of another timed metric), `slower>N%` only when its paired ratio is at
 * least +N%; `work>N%` on counted work grown by more than N%; `workload` on any point whose
 * workload (the bytes or arguments its program receives) the pull request changed; `none` never
 * fails. A changed workload is no exemption: a fit point's lead is a cost per operation, which a
 * new size does not change, so it is judged as usual; a whole-process point of another workload
 * measures other work, so only `workload` can fail it (and its row says so). Items
 * combine with commas. Pure: the same rule and comparison give the same result wherever it is
 * computed (the diff job, the comment job).
 */

import type { PairsPoint } from '../../formats/pairs-format.js';
import type { GateResult } from '../../formats/parts/diff-summary.js';
import { UserError } from '../../lib/errors.js';
import { movedOthers } from './point-answers.js';

/** The default rule: a broken program fails the check; a regression is reported, not enforced. */
export const DEFAULT_GATE_RULE = 'broken';

export interface GateRule {
  text: string;
  broken: boolean;
  /** Fail on any point whose workload changed. */
  workload?: boolean;
  /** Fail when a point's counted work grew by more than this ratio - 1 (exact counts, `work>N%`); undefined: never. */
  work?: number;
  /** Fail on a confirmed regression of at least this ratio - 1; undefined: regressions never fail. */
  slower?: number;
}

export function parseGateRule(text: string): GateRule {
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = () =>
    new UserError(
      `--fail-on ${JSON.stringify(text.slice(0, 60))}: expected none, or a comma-separated list of broken, slower, slower>N%, work>N%, workload (e.g. broken,slower>5%,work>2%)`,
    );
  if (!items.length) throw bad();
  const rule: GateRule = { text: items.join(','), broken: false };
  let slowerItem: string | undefined;
  for (const item of items) {
    if (item === 'none' && items.length === 1) continue;
    if (item === 'broken') {
      rule.broken = true;
      continue;
    }
    if (item === 'workload') {
      rule.workload = true;
      continue;
    }
    const w = /^work>(\d{1,3}(?:\.\d+)?)%$/.exec(item);
    if (w) {
      if (rule.work !== undefined)
        throw new UserError(`--fail-on ${JSON.stringify(text.slice(0, 60))}: work>N% given twice; give one`);
      rule.work = Number(w[1]) / 100;
      continue;
    }
    const m = /^slower(?:>(\d{1,3}(?:\.\d+)?)%)?$/.exec(item);
    if (!m) throw bad();
    // Two thresholds for regressions would leave one silently unused.
    if (slowerItem !== undefined)
      throw new UserError(
        `--fail-on ${JSON.stringify(text.slice(0, 60))}: conflicting rules ${slowerItem} and ${item}; give one`,
      );
    slowerItem = item;
    rule.slower = m[1] === undefined ? 0 : Number(m[1]) / 100;
  }
  return rule;
}

const pct = (x: number) => `${x >= 0 ? '+' : '−'}${(Math.abs(x) * 100).toFixed(1)}%`;

/** What `rule` makes of a diff with `broken` broken points and these points' verdicts. */
export function gateResult(
  rule: GateRule,
  broken: number,
  points: readonly Pick<PairsPoint, 'benchmark' | 'kind' | 'lead' | 'workloadChanged' | 'also' | 'folded' | 'work'>[],
  countsTrusted = true,
): GateResult {
  const reasons: string[] = [];
  if (rule.broken && broken) reasons.push(`${broken} ${broken === 1 ? 'point' : 'points'} broken by this PR`);
  const changedWorkload = points.filter((p) => p.workloadChanged).length;
  if (rule.workload && changedWorkload)
    reasons.push(`${changedWorkload} ${changedWorkload === 1 ? 'point' : 'points'} with a changed workload`);
  // Judged as usual: every point of its own workload, and a fit point of another (its lead is per operation).
  const mine = points.filter((p) => !p.workloadChanged || p.kind === 'fit');
  if (rule.slower !== undefined) {
    const limit = rule.slower;
    const slow = mine.filter((p) => p.lead.verdict === 'slower' && p.lead.ratio - 1 >= limit);
    const at = limit > 0 ? ` of at least ${pct(limit)}` : '';
    if (slow.length) reasons.push(`${slow.length} confirmed ${slow.length === 1 ? 'regression' : 'regressions'}${at}`);
    // Another timed metric called slower at its share of the diff-wide level is a confirmed regression too.
    const other = mine.filter((p) => movedOthers(p).some((m) => m.verdict === 'slower' && m.ratio - 1 >= limit));
    if (other.length)
      reasons.push(
        `${other.length} ${other.length === 1 ? 'point' : 'points'} with another timed metric confirmed slower${at}`,
      );
  }
  if (rule.work !== undefined && countsTrusted) {
    const limit = rule.work;
    // Exact counts that decide: deterministic on each side, beyond the tolerance, not evidence.
    const grew = mine.filter(
      (p) =>
        p.work?.status === 'counted' &&
        p.work.role === 'decides' &&
        p.work.verdict === 'changed' &&
        (p.work.change ?? 0) > limit,
    );
    if (grew.length)
      reasons.push(
        `${grew.length} ${grew.length === 1 ? 'point' : 'points'} whose counted work grew by more than ${pct(limit)}`,
      );
  }
  return {
    rule: rule.text,
    fail: reasons.length > 0,
    because: (reasons.length ? reasons.join(' and ') : `nothing the rule fails on`).slice(0, 300),
  };
}

/** What the rule does, in words: "broken points fail the check; regressions warn". */
export function describeGateRule(rule: GateRule): string {
  const fails = [
    ...(rule.broken ? ['broken points'] : []),
    ...(rule.workload ? ['changed workloads'] : []),
    ...(rule.slower !== undefined
      ? [`confirmed regressions${rule.slower > 0 ? ` of at least ${pct(rule.slower)}` : ''}`]
      : []),
    ...(rule.work !== undefined ? [`counted work grown by more than ${pct(rule.work)}`] : []),
  ];
  if (!fails.length) return 'nothing fails the check; broken points and regressions are reported';
  return `${fails.join(' and ')} fail the check${rule.slower === undefined ? '; regressions warn' : ''}${rule.broken ? '' : '; broken points are reported'}`;
}
