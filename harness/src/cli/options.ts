/**
 * One option table per command, read by both the parser and `--help`: a flag cannot be parsed
 * without appearing in the help, and the help cannot show a default the parser does not use.
 */
import { relative } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;

import { UserError } from '../lib/errors.js';
import { ROOT } from './args.js';

export interface OptionSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  default?: string | boolean | readonly string[];
  /** The value's placeholder in the help (DIR, N, FILE). */
  value?: string;
  description: string;
}

export interface CommandSpec {
  /** The npm script: `npm run <name>`. */
  name: string;
  summary: string;
  /** The command's line in the overview (`npm run -- --help`); the summary's start otherwise. */
  brief?: string;
  /** Positional arguments and anything after the flags, e.g. "RESULTS.json". */
  positionals?: string;
  options: Record<string, OptionSpec>;
  /** One command line that works from a fresh clone. */
  example: string;
  /** More lines for the help (how flags combine, what is written where). */
  notes?: string[];
}

export const isHelp = (argv: readonly string[]) => {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
};

/** A default shown as a user would type it: paths relative to the repository root. */
function shownDefault(d: OptionSpec['default']): string | undefined {
  if (d === undefined || d === false || (Array.isArray(d) && d.length === 0)) return undefined;
  if (Array.isArray(d)) return d.join(',');
  if (typeof d === 'string' && d.startsWith(`${ROOT}/`)) return relative(ROOT, d);
  return String(d);
}

/** `--help`: usage, every flag with its default, one example. */
export function helpText(spec: CommandSpec): string {
  const flags = Object.entries(spec.options).map(([name, o]) => {
    const left = `  --${name}${o.type === 'string' ? ` ${o.value ?? 'VALUE'}` : ''}${o.multiple ? ' ...' : ''}`;
    const d = shownDefault(o.default);
    return `${left.padEnd(28)} ${o.description}${d !== undefined ? ` (default: ${d})` : ''}`;
  });
  return [
    `usage: npm run ${spec.name} -- [flags]${spec.positionals ? ` ${spec.positionals}` : ''}`,
    '',
    spec.summary,
    '',
    'flags:',
    ...flags,
    `  ${'--help'.padEnd(26)} this help`,
    ...(spec.notes?.length ? ['', ...spec.notes] : []),
    '',
    'example:',
    `  ${spec.example}`,
    '',
  ].join('\n');
}

/** The table as node:util parseArgs options. */
export function parserOptions(options: Record<string, OptionSpec>): ParseArgsOptionsConfig {
  return Object.fromEntries(
    Object.entries(options).map(([name, o]) => [
      name,
      {
        type: o.type,
        ...(o.multiple ? { multiple: true } : {}),
        ...(o.default !== undefined ? { default: Array.isArray(o.default) ? [...o.default] : o.default } : {}),
      },
    ]),
  ) as ParseArgsOptionsConfig;
}

type Values<O extends Record<string, OptionSpec>> = {
  [K in keyof O]: O[K]['type'] extends 'boolean'
    ? boolean
    : O[K]['multiple'] extends true
      ? O[K]['default'] extends readonly string[]
        ? string[]
        : string[] | undefined
      : O[K]['default'] extends string
        ? string
        : string | undefined;
};

/**
 * Parses argv with the command's table; `given` holds the flags typed on the command line (a
 * default is not a choice, so `--no-store` conflicts only with a typed `--store`).
 */
export function parseCommand<S extends CommandSpec>(
  spec: S,
  argv: readonly string[],
): { values: Values<S['options']>; positionals: string[]; given: Set<string> } {
  const { values, positionals, tokens } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: spec.positionals !== undefined,
    tokens: true,
    options: parserOptions(spec.options),
  });
  const given = new Set(tokens.filter((t) => t.kind === 'option').map((t) => t.name));
  return { values: values as Values<S['options']>, positionals, given };
}

/** Refuses two flags that cannot go together, naming both. */
export function refuseTogether(given: Set<string>, a: string, b: string, why: string): void {
  if (given.has(a) && given.has(b)) throw new UserError(`--${a} and --${b} cannot be used together: ${why}`);
}
