// hyperfine installed but not on PATH: the bootstrap used to run apt-get (or ask for it) and then
// report hyperfine as not installed. It now names where the tool is and how to put it on PATH,
// exit 2, and installs nothing. `--help` needs no measuring tool at all.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/** A PATH holding node, sh and the other measuring tools, but not hyperfine (still in /usr/bin). */
function pathWithoutHyperfine(): string {
  const bin = mkdtempSync(join(tmpdir(), 'jsio-bin-'));
  symlinkSync(process.execPath, join(bin, 'node'));
  for (const tool of ['sh', 'strace', 'fincore']) {
    const found = ['/usr/bin', '/bin'].map((d) => join(d, tool)).find(existsSync);
    if (found) symlinkSync(found, join(bin, tool));
  }
  return bin;
}

const run = (args: string[], path: string) =>
  spawnSync(process.execPath, [join(ROOT, 'harness', 'bootstrap.mjs'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, CI: '1', PATH: path },
  });

describe.skipIf(!existsSync('/usr/bin/hyperfine'))('hyperfine off PATH', () => {
  it('is named with where it is and the PATH fix, exit 2, and nothing is installed', () => {
    const bin = pathWithoutHyperfine();
    const r = run(['bench', '--profile', 'smoke', '--experiments', 'wc', '--no-store'], bin);
    expect(r.stderr).toBe(
      'error: hyperfine is installed (/usr/bin/hyperfine) but not on PATH\n' +
        'hint: add its directory to PATH: export PATH="/usr/bin:$PATH"\n',
    );
    expect(r.status).toBe(2);
  });

  it('--help still prints, installing and measuring nothing', () => {
    const r = run(['bench', '--help'], pathWithoutHyperfine());
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^usage: npm run bench/);
    expect(r.stderr).toBe('');
  });
});
