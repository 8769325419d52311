import { describe, expect, it } from 'vitest';
import { withoutRepeatedInsides } from '../../../src/pairs/harness-shift/repeated-sandboxes.js';
import { normalizeRun } from '../../../src/pairs/harness-shift/transcript-places.js';
import { processRuns } from '../../../src/pairs/harness-shift/transcript-starts.js';
import { readStraceLog } from '../../../src/run/strace-log.js';

const CACHE = '/root/.cache/jsio-bench';
/** A harness (10) starting a sandbox (the player at /usr/bin/bwrap) `n` times; `ran` says which ran their program. */
function recording(ran: boolean[], program = 'c'): string[] {
  const log = ['10 execve("/usr/bin/node", ["node", "cli.mjs"], []) = 0'];
  ran.forEach((r, i) => {
    const [player, real, inside] = [100 + 10 * i, 101 + 10 * i, 102 + 10 * i];
    log.push(`10 clone(child_stack=NULL, flags=SIGCHLD) = ${player}`);
    log.push(`${player} execve("/usr/bin/bwrap", ["bwrap", "--", "c", "read"], ["JSIO_POINT=records/c/r=1"]) = 0`);
    if (!r) return;
    log.push(`${player} clone(child_stack=NULL, flags=SIGCHLD) = ${real}`);
    log.push(`${real} execve("/stubs/real/bwrap", ["bwrap", "--", "c", "read"], []) = 0`);
    log.push(`${real} clone(child_stack=NULL, flags=SIGCHLD) = ${inside}`);
    log.push(`${inside} execve("/jsio/build/records/c/c", ["${program}", "read"], []) = 0`);
  });
  return log;
}
const normal = (log: string[]) => {
  const runs = processRuns(readStraceLog(log.join('\n')), '/work/side', CACHE);
  return withoutRepeatedInsides(
    runs,
    runs.map((r) => normalizeRun(r, (s) => s)),
  );
};

describe('a repeated sandbox, played back on one side and run on the other', () => {
  it('compares alike: the insides of an exact repeat are left out on both sides', () => {
    const base = normal(recording([true, false, false]));
    const head = normal(recording([true, true, false]));
    expect(head).toEqual(base);
    // Each start of the sandbox stays (how often it is started is compared); the first run's insides too.
    expect(base.map((r) => r.exe)).toEqual([
      '/usr/bin/node',
      '/usr/bin/bwrap',
      '/stubs/real/bwrap',
      '/jsio/build/records/c/c',
      '/usr/bin/bwrap',
      '/usr/bin/bwrap',
    ]);
  });

  it('a repeat whose insides differ from the first run keeps them: that difference is the harness’s', () => {
    const log = recording([true, true]);
    log[log.length - 1] = log.at(-1)!.replace('["c", "read"]', '["c", "write"]');
    expect(
      normal(log)
        .filter((r) => r.exe === '/jsio/build/records/c/c')
        .map((r) => r.argv),
    ).toEqual([
      ['c', 'read'],
      ['c', 'write'],
    ]);
  });

  it('marks what runs inside a sandbox with its start, and nothing outside one', () => {
    const runs = processRuns(readStraceLog(recording([true]).join('\n')), '/work/side', CACHE);
    expect(runs.map((r) => r.within)).toEqual([undefined, undefined, 1, 1]);
  });
});
