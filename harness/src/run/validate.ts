/**
 * validate: a program's reported line against what the harness knows it sent. A wrong answer
 * fails the benchmark: a fast wrong program must never produce a number.
 */

import type { Check, Variant } from '../formats/manifest-format.js';
import type { Params, Validation } from '../formats/results-format.js';
import { evaluate, type Scope } from '../lib/expr.js';
import { matchesAt } from '../model/select.js';

/** The scope's plain values, for matching a check's `when` selector against the point. */
function scopeParams(scope: Scope): Params {
  return Object.fromEntries(Object.entries(scope).filter((e): e is [string, number | string] => e[1] !== undefined));
}

export type Report = { ok: true; fields: Record<string, number> } | { ok: false; reason: string };

const clip = (s: string) => (s.length > 120 ? `${s.slice(0, 120)}…` : s);

/** Reads the declared report format from a program's stdout. */
export function parseReport(variant: Pick<Variant, 'output' | 'numberField'>, stdout: string): Report {
  if (variant.output === 'none') return { ok: true, fields: {} };
  const lines = stdout
    .trim()
    .split('\n')
    .filter((l) => l.trim() !== '');
  const last = lines.at(-1);
  if (last === undefined) return { ok: false, reason: 'the program printed no result line' };
  if (variant.output === 'number') {
    if (!/^\s*\d+\s*$/.test(last)) return { ok: false, reason: `expected a number, got "${clip(last)}"` };
    return { ok: true, fields: { [variant.numberField ?? 'value']: Number(last) } };
  }
  let obj: unknown;
  try {
    obj = JSON.parse(last);
  } catch {
    return { ok: false, reason: `garbled result line (not JSON): "${clip(last)}"` };
  }
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj))
    return { ok: false, reason: `result line is not a JSON object: "${clip(last)}"` };
  const fields: Record<string, number> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (typeof v !== 'number' || !Number.isFinite(v))
      return { ok: false, reason: `result field "${k}" is not a number: ${clip(JSON.stringify(v))}` };
    fields[k] = v;
  }
  return { ok: true, fields };
}

export function runChecks(
  checks: readonly Check[],
  variant: Pick<Variant, 'id' | 'output' | 'numberField' | 'skipChecks'>,
  fields: Record<string, number>,
  scope: Scope,
): Validation {
  const results: Validation['checks'] = checks.map((c) => {
    if (c.when && !matchesAt({ params: scopeParams(scope) }, c.when)) {
      const where = Object.entries(c.when)
        .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('|') : v}`)
        .join(', ');
      const op = c.equals !== undefined ? 'equals' : c.atLeast !== undefined ? 'atLeast' : 'atMost';
      return {
        field: c.field,
        op,
        expected: 0,
        seen: fields[c.field] ?? null,
        ok: true,
        skipped: `applies only at ${where}`,
      };
    }
    const op = c.equals !== undefined ? 'equals' : c.atLeast !== undefined ? 'atLeast' : 'atMost';
    const expected = evaluate((c.equals ?? c.atLeast ?? c.atMost) as string, scope);
    const seen = fields[c.field] ?? null;
    const skipReason =
      variant.skipChecks[c.field] ??
      (variant.output === 'none' || (variant.output === 'number' && variant.numberField !== c.field)
        ? `${variant.id} does not report ${c.field}`
        : undefined);
    if (skipReason) return { field: c.field, op, expected, seen, ok: true, skipped: skipReason };
    const ok =
      seen !== null && (op === 'equals' ? seen === expected : op === 'atLeast' ? seen >= expected : seen <= expected);
    return { field: c.field, op, expected, seen, ok };
  });
  const bad = results.filter((r) => !r.ok);
  const words = { equals: 'expected', atLeast: 'expected at least', atMost: 'expected at most' } as const;
  return {
    ok: bad.length === 0,
    checks: results,
    ...(bad.length
      ? {
          message: bad
            .map((b) =>
              b.seen === null
                ? `${b.field} missing from the result line`
                : `${b.field} = ${b.seen}, ${words[b.op]} ${b.expected}`,
            )
            .join('; '),
        }
      : {}),
  };
}

/** Runner "self" programs report per-item values (e.g. per-file latencies) as arrays in their line. */
export type SplitLine =
  | { ok: true; scalarsLine: string; samples: Record<string, number[]> }
  | { ok: false; reason: string };

/**
 * Takes the declared sample arrays out of a program's last output line; the rest stays a JSON
 * line for the ordinary report parser and checks.
 */
export function splitSamples(stdout: string, sampleFields: readonly string[]): SplitLine {
  const last = stdout
    .trim()
    .split('\n')
    .filter((l) => l.trim() !== '')
    .at(-1);
  if (last === undefined) return { ok: false, reason: 'the program printed no result line' };
  let obj: unknown;
  try {
    obj = JSON.parse(last);
  } catch {
    return { ok: false, reason: `garbled result line (not JSON): "${last.slice(0, 120)}"` };
  }
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj))
    return { ok: false, reason: 'result line is not a JSON object' };
  const rest: Record<string, unknown> = { ...(obj as Record<string, unknown>) };
  const samples: Record<string, number[]> = {};
  for (const f of sampleFields) {
    const v = rest[f];
    delete rest[f];
    if (!Array.isArray(v) || v.length === 0)
      return { ok: false, reason: `result field "${f}" must be a non-empty array of numbers` };
    if (!v.every((x) => typeof x === 'number' && Number.isFinite(x)))
      return { ok: false, reason: `result field "${f}" holds a value that is not a finite number` };
    samples[f] = v as number[];
  }
  return { ok: true, scalarsLine: JSON.stringify(rest), samples };
}
