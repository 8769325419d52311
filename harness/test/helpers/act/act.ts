/**
 * nektos/act for the tests: the pinned version, found where the bootstrap installs it
 * (.cache/bin/act, `go install github.com/nektos/act@VERSION`) or on PATH.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../cli.js';

/** The version the bootstrap installs: its ACT_VERSION, recorded there beside the other tools' pins. */
const ACT_VERSION = (() => {
  const m = /const ACT_VERSION = '([^']+)'/.exec(readFileSync(join(ROOT, 'harness', 'bootstrap.mjs'), 'utf8'));
  if (!m) throw new Error('harness/bootstrap.mjs records no ACT_VERSION');
  return m[1]!;
})();

function versionOf(bin: string): string | undefined {
  try {
    return /act version (\S+)/.exec(execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000 }))?.[1];
  } catch {
    return undefined;
  }
}

/** The act binary of the pinned version, or why there is none. */
export function findAct(): { bin?: string; why?: string } {
  const found: string[] = [];
  for (const bin of [join(ROOT, '.cache', 'bin', 'act'), 'act']) {
    if (bin.includes('/') && !existsSync(bin)) continue;
    const v = versionOf(bin);
    if (v === ACT_VERSION) return { bin };
    if (v) found.push(`${bin} is ${v}`);
  }
  return {
    why: `act ${ACT_VERSION} is not installed (${found.join(', ') || 'none found'}): npm test installs it with go install github.com/nektos/act@v${ACT_VERSION}`,
  };
}
