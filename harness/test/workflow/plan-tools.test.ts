// `workflow plan-tools` (pr.yml's plan job): the trace's tools installed only where missing. A
// planted `sudo` records what it is asked instead of installing anything.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { removeScratch } from '../helpers/scratch.js';

const dir = mkdtempSync(join(tmpdir(), 'jsio-plan-tools-'));
afterAll(() => removeScratch(dir));
const bin = join(dir, 'bin');
const asked = join(dir, 'sudo.log');
mkdirSync(bin);
writeFileSync(
  join(bin, 'sudo'),
  `#!/bin/sh\necho "$*" >> '${asked}'\necho "sudo: a password is required" >&2\nexit 1\n`,
);
chmodSync(join(bin, 'sudo'), 0o755);
const env = { PATH: `${bin}:${process.env.PATH}` };

describe('workflow plan-tools', () => {
  it('does nothing where the tools are there: no sudo asked', () => {
    const r = runCli(['workflow', 'plan-tools'], env);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain("the plan's trace has its tools");
    expect(() => readFileSync(asked, 'utf8')).toThrow();
  });

  it('asks apt-get for the missing packages only, and says what to run where sudo is refused', () => {
    const empty = join(dir, 'no-tools');
    mkdirSync(empty);
    const r = runCli(['workflow', 'plan-tools'], { ...env, JSIO_TOOL_DIRS: empty });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('installing what the plan');
    expect(r.stderr).toContain('apt-get update failed: sudo: a password is required');
    expect(r.stderr).toContain('run as root: apt-get update -qq');
    expect(readFileSync(asked, 'utf8')).toBe('-n apt-get update -qq\n');
  });

  it('answers --help', () => {
    expect(runCli(['workflow', 'plan-tools', '--help']).stdout).toContain('strace, bubblewrap, hyperfine');
  });
});
