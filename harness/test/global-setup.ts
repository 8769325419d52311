/**
 * Every test run gets its own TMPDIR, removed when the run ends. Tests, the harness CLIs they
 * start and the programs those run all make scratch directories (git worlds of a few GB for the
 * workflow replays); left in /tmp they filled a runner's disk within a day of test runs.
 * A run killed before its teardown leaves its directory behind: the next run removes it, since
 * the directory names the pid of the run that made it. JSIO_KEEP_TMP=1 keeps it for debugging.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processAlive } from '../src/lib/atomic.js';
import { removeScratch } from './helpers/scratch.js';

const PREFIX = 'jsio-test-run-';

function removeAbandoned(parent: string): void {
  for (const name of readdirSync(parent)) {
    const pid = name.startsWith(PREFIX) ? Number.parseInt(name.slice(PREFIX.length), 10) : 0;
    if (pid && pid !== process.pid && !processAlive(pid)) rmSync(join(parent, name), { recursive: true, force: true });
  }
}

export default function setup(): () => void {
  const parent = tmpdir();
  removeAbandoned(parent);
  const dir = mkdtempSync(join(parent, `${PREFIX}${process.pid}-`));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    if (process.env.JSIO_KEEP_TMP === '1') console.log(`scratch of this test run kept in ${dir}`);
    removeScratch(dir);
  };
}
