// Every command and subcommand answers --help (it used to say "Unknown option '--help'"): usage,
// every flag of the option table the parser reads, once, with its default, and one example;
// printing it installs and runs nothing. No command parses flags outside that table, so a flag
// accepted but missing from --help cannot exist. An unknown flag is one line with a hint, exit 2.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/command-table.js';
import { benchSpec } from '../../src/cli/commands/bench.js';
import { siteSpec } from '../../src/cli/commands/site.js';
import type { CommandSpec, OptionSpec } from '../../src/cli/options.js';
import { ROOT, runCli } from '../helpers/cli.js';

/** Every npm script that goes through the bootstrap, by the command name it passes. */
const scripts = Object.entries(
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts,
)
  .map(([script, line]) => [script, /^node harness\/bootstrap\.mjs (\S+)$/.exec(line)?.[1]] as const)
  .filter((x): x is readonly [string, string] => x[1] !== undefined);

/** Every subcommand, as the argv that reaches it and its table: `releases list`, `workflow pr-head`, ... */
const subcommands = Object.entries(COMMANDS).flatMap(([command, c]) =>
  Object.entries(c.spec.subcommands ?? {}).map(([sub, spec]) => [`${command} ${sub}`, spec] as const),
);

/** The help's line for a flag: `  --name VALUE  description` or `  --name  description`. */
const flagLines = (help: string, name: string) =>
  help.split('\n').filter((l) => l.trimStart().startsWith(`--${name} `) || l.trim() === `--${name}`);

/** Every flag of the table is in the help once, with its default when it has one. */
function expectEveryFlag(help: string, spec: CommandSpec): void {
  for (const [name, o] of Object.entries(spec.options as Record<string, OptionSpec>)) {
    const lines = flagLines(help, name);
    expect(lines, `${spec.name} --${name}`).toHaveLength(1);
    if (typeof o.default === 'string' && o.default !== '' && !o.default.startsWith('/'))
      expect(lines[0], `${spec.name} --${name}`).toContain(`(default: ${o.default})`);
  }
}

describe('--help', () => {
  it('no npm script is named like an npm verb (npm publish would run it)', () => {
    expect(scripts.map(([s]) => s)).not.toContain('publish');
    expect(scripts.map(([s]) => s)).toContain('publish-run');
  });

  it.each(scripts)('npm run %s -- --help prints usage, flags and an example, exit 0', (script, command) => {
    const r = runCli([command, '--help']);
    expect(r.stderr).not.toContain('error');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^usage: npm (run ${script.replace(':', '\\:')}|test)`));
    expect(r.stdout).toContain('example:');
  });

  it.each(Object.entries(COMMANDS))('npm run %s -- --help lists every flag of its table once', (command, c) => {
    const r = runCli([command, '--help']);
    expect(r.status).toBe(0);
    expectEveryFlag(r.stdout, c.spec);
    for (const sub of Object.keys(c.spec.subcommands ?? {})) expect(r.stdout).toMatch(new RegExp(`^  ${sub} `, 'm'));
  });

  it('releases and workflow have subcommands', () => {
    expect(subcommands.map(([s]) => s)).toEqual(expect.arrayContaining(['releases list', 'workflow pr-outcome']));
  });

  it.each(subcommands)(
    'npm run -- %s --help: its usage, its flags once with their defaults, an example',
    (argv, spec) => {
      const [command, sub] = argv.split(' ') as [string, string];
      const r = runCli([command, sub, '--help']);
      expect(r.stderr).not.toContain('error');
      expect(r.status).toBe(0);
      expect(r.stdout.startsWith(`usage: npm run ${command} -- ${sub} [flags]`)).toBe(true);
      expect(r.stdout).toContain('example:');
      expectEveryFlag(r.stdout, spec);
    },
  );

  it('no command parses flags outside the option tables (cli/options.ts parseCommand)', () => {
    const dir = join(ROOT, 'harness', 'src');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const parsing = files.filter((f) => /\bparseArgs\b|process\.argv/.test(readFileSync(join(dir, f), 'utf8')));
    // The recordings' stand-in for hyperfine parses hyperfine's flags, in the script it writes: not a command of ours.
    expect(parsing.sort()).toEqual(['cli/main.ts', 'cli/options.ts', 'pairs/harness-shift/hyperfine-player.ts']);
  });

  it("lists every flag of bench's option table with its default", () => {
    const r = runCli(['bench', '--help']);
    for (const [name, o] of Object.entries(benchSpec.options as Record<string, OptionSpec>)) {
      const line = r.stdout.split('\n').find((l) => l.trimStart().startsWith(`--${name} `) || l.trim() === `--${name}`);
      expect(line, name).toBeDefined();
      if (typeof o.default === 'string' && !o.default.startsWith('/'))
        expect(line).toContain(`(default: ${o.default})`);
    }
    expect(r.stdout).toContain('--out DIR');
    expect(r.stdout).toContain('(default: results/latest)');
  });

  it('site --help names its defaults as a user types them', () => {
    const r = runCli(['site', '--help']);
    expect(Object.keys(siteSpec.options).every((n) => r.stdout.includes(`--${n}`))).toBe(true);
    expect(r.stdout).toContain('(default: results/history)');
  });

  it('an unknown flag is one line and a hint, exit 2', () => {
    const r = runCli(['site', '--nope']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^error: Unknown option '--nope'.*\nhint: --help lists every flag\n$/);
  });
});
