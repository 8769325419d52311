/** What every command shares on the command line: the repository root, defaults, list and flag parsing. */
import { join, resolve } from 'node:path';
import type { ParamValue } from '../formats/manifest-format.js';
import { UserError } from '../lib/errors.js';

export const ROOT = resolve(process.env.JSIO_ROOT ?? process.cwd());
export const DEFAULT_STORE = join(ROOT, 'results', 'history');
export const DEFAULT_SITE = join(ROOT, 'results', 'site');

/** "a,b, c" -> ["a", "b", "c"]; undefined for an empty or absent flag. */
export const list = (s: string | undefined) =>
  s
    ? s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
    : undefined;

/**
 * --param name=v1,v2 ... -> { name: [v1, v2] }, numbers as numbers. A name given twice, or a value
 * listed twice, is refused rather than silently keeping the last: list every value once.
 */
export function parseParamFlags(flags: readonly string[]): Record<string, ParamValue[]> {
  const out: Record<string, ParamValue[]> = {};
  for (const f of flags) {
    const m = /^([a-z_][a-z0-9_]*)=(.+)$/.exec(f);
    if (!m?.[1] || !m[2])
      throw new UserError(`--param ${f}: expected name=value[,value...] (e.g. --param bs=4096,65536)`);
    const name = m[1];
    if (Object.hasOwn(out, name))
      throw new UserError(
        `--param ${name} is given twice (${name}=${out[name]!.join(',')} and ${f})`,
        `list every value in one flag: --param ${name}=${[...out[name]!, m[2]].join(',')}`,
      );
    const values = m[2].split(',').map((v) => (/^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v));
    const twice = values.find((v, i) => values.indexOf(v) !== i);
    if (twice !== undefined) throw new UserError(`--param ${f}: the value ${twice} is listed twice`);
    out[name] = values;
  }
  return out;
}

/** Values after a flag up to the next flag: --base a.json b.json --head c.json */
export function groupedFlags(
  argv: readonly string[],
  names: readonly string[],
): { groups: Record<string, string[]>; rest: string[] } {
  const groups: Record<string, string[]> = {};
  const rest: string[] = [];
  let current: string | undefined;
  for (const a of argv) {
    const name = a.startsWith('--') ? a.slice(2) : undefined;
    if (name !== undefined && names.includes(name)) {
      current = name;
      groups[name] ??= [];
    } else if (name !== undefined) {
      current = undefined;
      rest.push(a);
    } else if (current) groups[current]!.push(a);
    else rest.push(a);
  }
  return { groups, rest };
}

/** A positive integer flag within bounds, or a UserError naming the flag. */
export function intFlag(flag: string, value: string, min: number, max: number, extra = ''): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw new UserError(`${flag} ${value}: expected an integer from ${min} to ${max}${extra}`);
  return n;
}
