// Every command answers --help (it used to say "Unknown option '--help'"): usage, every flag of
// the option table the parser reads with its default, and one example; printing it installs
// and runs nothing. An unknown flag is one line with a hint, exit 2.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchSpec } from '../../src/cli/commands/bench.js';
import { siteSpec } from '../../src/cli/commands/site.js';
import type { OptionSpec } from '../../src/cli/options.js';
import { ROOT, runCli } from '../helpers/cli.js';

/** Every npm script that goes through the bootstrap, by the command name it passes. */
const scripts = Object.entries(
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts,
)
  .map(([script, line]) => [script, /^node harness\/bootstrap\.mjs (\S+)$/.exec(line)?.[1]] as const)
  .filter((x): x is readonly [string, string] => x[1] !== undefined);

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
