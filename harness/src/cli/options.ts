/**
 * One option table per command and subcommand, read by both the parser and `--help`: a flag cannot
 * be parsed without appearing in the help, and the help cannot show a default the parser does not
 * use. Every command parses its flags here (parseCommand), nowhere else.
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
  /** The npm script: `npm run <name>`; a subcommand's is the script and the subcommand ("releases list"). */
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
  /** `npm run <name> -- <subcommand> [flags]`: each with its own table and its own --help. */
  subcommands?: Record<string, CommandSpec>;
}

/** The spec whose help `argv` asks for: a named subcommand's (at any depth), else the command's own. */
export function helpSpecFor(spec: CommandSpec, argv: readonly string[]): CommandSpec {
  const [first, ...rest] = argv;
  const sub = first !== undefined && spec.subcommands && Object.hasOwn(spec.subcommands, first);
  return sub ? helpSpecFor(spec.subcommands![first!]!, rest) : spec;
}

export const isHelp = (argv: readonly string[]) => {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
};

/** A default shown as a user would type it: paths relative to the repository root. */
function shownDefault(d: OptionSpec['default']): string | undefined {
  if (d === undefined || d === false || d === '' || (Array.isArray(d) && d.length === 0)) return undefined;
  if (Array.isArray(d)) return d.join(',');
  if (typeof d === 'string' && d.startsWith(`${ROOT}/`)) return relative(ROOT, d);
  return String(d);
}

/** `npm run releases -- list [flags]`, `npm run releases -- <list|measure> [flags]`, `npm run bench -- [flags]`. */
function usageLine(spec: CommandSpec): string {
  const [script, ...path] = spec.name.split(' ');
  const subs = spec.subcommands ? [`<${Object.keys(spec.subcommands).join('|')}>`] : [];
  const words = [...path, ...subs, '[flags]', ...(spec.positionals ? [spec.positionals] : [])];
  return `usage: npm run ${script} -- ${words.join(' ')}`;
}

/** A command's subcommands, one line each, and where their flags are. */
function subcommandLines(spec: CommandSpec): string[] {
  const subs = Object.entries(spec.subcommands ?? {});
  if (!subs.length) return [];
  const width = Math.max(...subs.map(([s]) => s.length)) + 2;
  const [script] = spec.name.split(' ');
  return [
    'subcommands:',
    ...subs.map(([s, sub]) => `  ${s.padEnd(width)} ${sub.brief ?? sub.summary}`),
    `Each takes its own flags: npm run ${script} -- ${subs[0]![0]} --help lists them.`,
    '',
  ];
}

/** `--help`: usage, every flag with its default, one example. */
export function helpText(spec: CommandSpec): string {
  const flags = Object.entries(spec.options).map(([name, o]) => {
    const left = `  --${name}${o.type === 'string' ? ` ${o.value ?? 'VALUE'}` : ''}${o.multiple ? ' ...' : ''}`;
    const d = shownDefault(o.default);
    return `${left.padEnd(28)} ${o.description}${d !== undefined ? ` (default: ${d})` : ''}`;
  });
  return [
    usageLine(spec),
    '',
    spec.summary,
    '',
    ...subcommandLines(spec),
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
function parserOptions(options: Record<string, OptionSpec>): ParseArgsOptionsConfig {
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
