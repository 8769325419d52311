// The sandbox a recording shows the harness (harness/tools/sandbox-replay.c), with real gcc and
// bubblewrap: a sandbox started again unchanged is played back, anything it could see changed runs
// it again; and in a recording under strace every start is still there, so harnesses that differ in
// what is played back still differ.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheRoot } from '../../../src/machine/cache-root.js';
import { sandboxPlayer } from '../../../src/pairs/harness-shift/sandbox-replay.js';
import { ONLY_STREAMS } from '../../../src/pairs/harness-shift/transcript-record.js';
import { processRuns } from '../../../src/pairs/harness-shift/transcript-starts.js';
import { readStraceLog } from '../../../src/run/strace-log.js';
import { ROOT, runCli } from '../../helpers/cli.js';
import { removeScratch } from '../../helpers/scratch.js';
import { borrowNodeModules, cloneWorkingTree, plantedClone } from '../../helpers/working-tree.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'jsio-sandbox-replay-test-'));
});
afterAll(() => removeScratch(dir));

describe('the sandbox player', () => {
  let stubs: string;
  let checkout: string;
  let writable: string;
  let fenced: string[];

  beforeAll(async () => {
    stubs = join(dir, 'stubs');
    checkout = join(dir, 'checkout');
    writable = join(dir, 'writable');
    for (const d of [stubs, checkout, writable]) mkdirSync(d);
    writeFileSync(join(checkout, 'program.txt'), 'v1');
    // As a recording does: the player over /usr/bin/bwrap, the real one where only it starts it.
    fenced = ['/usr/bin/bwrap', '--dev-bind', '/', '/', ...(await sandboxPlayer(ROOT, stubs)), '--'];
  }, 120_000);

  /** One sandbox as the harness starts one: output to pipes, a writable folder, a random answer. */
  const sandbox = (
    script = 'echo "$RANDOM$RANDOM"; ls /run/w | tr "\\n" " "; date +%N > /run/w/left.txt; exit 3',
    how: { before?: string[] } = {},
  ) => {
    // As a recording starts: with the streams only (this test's runner may have leaked others).
    const [first, ...rest] = [...ONLY_STREAMS, ...(how.before ?? []), ...fenced];
    const r = spawnSync(
      first!,
      [
        ...rest,
        '/usr/bin/bwrap',
        '--unshare-all',
        '--die-with-parent',
        '--ro-bind',
        '/',
        '/',
        '--tmpfs',
        '/run',
        '--ro-bind',
        checkout,
        '/run/c',
        '--bind',
        writable,
        '/run/w',
        '--',
        'bash',
        '-c',
        script,
      ],
      { encoding: 'utf8' },
    );
    expect(r.stderr).toBe('');
    return { out: r.stdout, status: r.status };
  };

  it('runs a sandbox the first time, and plays it back when it starts again with nothing changed', () => {
    const first = sandbox();
    expect(first.status).toBe(3);
    // The second sees the file the first left (it runs); from the third on, nothing is new.
    const second = sandbox();
    expect(second.out).not.toBe(first.out);
    const third = sandbox();
    expect(third).toEqual(second);
    expect(sandbox()).toEqual(second);
    // What the played-back sandbox left is there, as the real one left it.
    expect(readFileSync(join(writable, 'left.txt'), 'utf8')).toMatch(/^\d+\n$/);
  });

  it('runs it again when the harness wrote where it can see, or its command changed', () => {
    const before = sandbox();
    expect(sandbox()).toEqual(before);
    writeFileSync(join(writable, 'from-the-harness.txt'), 'a');
    const afterWrite = sandbox();
    expect(afterWrite.out).not.toBe(before.out);
    expect(afterWrite.out).toContain('from-the-harness.txt');
    expect(sandbox()).toEqual(afterWrite);
    // A file it wrote, rewritten by the harness with the same size: compared by content.
    const left = readFileSync(join(writable, 'left.txt'), 'utf8');
    writeFileSync(
      join(writable, 'left.txt'),
      left.replace(/\d/, (d) => String((Number(d) + 1) % 10)),
    );
    expect(sandbox().out).not.toBe(afterWrite.out);
    const other = sandbox('echo "$RANDOM$RANDOM"; exit 4');
    expect(other.status).toBe(4);
    expect(sandbox('echo "$RANDOM$RANDOM"; exit 4')).toEqual(other);
  });

  it('a sandbox handed a descriptor besides its streams runs every time, and the recording sees the descriptor', () => {
    const log = join(dir, 'fds.strace');
    // Descriptor 3 opened on a file, then the recording's strace and its fence, as a harness would hand it.
    const how = {
      before: ['/bin/sh', '-c', 'exec "$@" 3</etc/hostname', 'fd3', '/usr/bin/strace', '-f', '-q', '-y'],
    };
    how.before.push('-e', 'trace=execve,dup2', '-o', log);
    const script = 'echo "$RANDOM$RANDOM"; ls /proc/self/fd | tr "\\n" " "';
    const first = sandbox(script, how);
    // The program inside was handed descriptor 3 too.
    expect(first.out).toMatch(/^\d+\n0 1 2 3 \d+ $/);
    expect(sandbox(script, how).out).not.toBe(first.out);
    const runs = processRuns(readStraceLog(readFileSync(log, 'utf8')), '/', cacheRoot());
    const player = runs.find((r) => r.exe === '/usr/bin/bwrap' && r.argv[1] === '--unshare-all');
    expect(player?.fds).toEqual(['3 /etc/hostname']);
    // Without it, the same sandbox is played back from its second start.
    const plain = sandbox(script);
    expect(sandbox(script)).toEqual(plain);
  });
  it('what its command names in a read-only folder is part of what it sees: other bytes under one name run it again, and strace sees them', () => {
    const log = join(dir, 'reads.strace');
    const how = { before: ['/usr/bin/strace', '-f', '-q', '-y', '-e', 'trace=execve,statfs', '-o', log] };
    const script = 'echo "$RANDOM$RANDOM"; cat /run/c/program.txt';
    const reads = () =>
      processRuns(readStraceLog(readFileSync(log, 'utf8')), '/', cacheRoot()).find(
        (r) => r.exe === '/usr/bin/bwrap' && r.argv[1] === '--unshare-all',
      )?.reads;
    const first = sandbox(script, how);
    expect(sandbox(script, how)).toEqual(first);
    const before = reads();
    expect(before).toEqual([expect.stringMatching(/^\/run\/c\/program\.txt [0-9a-f]{32}$/)]);
    writeFileSync(join(checkout, 'program.txt'), 'v2');
    const changed = sandbox(script, how);
    expect(changed.out).toMatch(/^\d+\nv2$/);
    expect(reads()).not.toEqual(before);
    writeFileSync(join(checkout, 'program.txt'), 'v1');
  });
});

describe('a recording with the player', () => {
  let base: string;
  // One self-timed point, cold: each of its runs is evicted before, the same sandbox every time.
  const BENCH = [
    '--',
    '--profile',
    'smoke',
    '--experiments',
    'scan',
    '--variants',
    'c-blocking',
    '--param',
    'files=10',
  ];
  const record = (side: string, name: string, ...flags: string[]) => {
    const out = join(dir, `${name}.json`);
    const r = runCli(['transcript', '--side', side, '--out', out, ...flags, ...BENCH]);
    expect(r.status, r.stderr).toBe(0);
    return out;
  };
  const starts = (file: string, exe: RegExp) =>
    (JSON.parse(readFileSync(file, 'utf8')).runs as { exe: string }[]).filter((r) => exe.test(r.exe)).length;

  beforeAll(() => {
    base = join(dir, 'base');
    cloneWorkingTree(base);
    borrowNodeModules(base);
  }, 300_000);

  it('records every sandbox the harness starts, and runs the repeated ones once', () => {
    // The first recording fills the caches (builds, tools, inputs): the others come after it.
    record(base, 'cold');
    const every = record(base, 'every', '--run-every-sandbox');
    const played = record(base, 'played');
    // Every sandbox the harness started is in both: played back or not, its start is recorded.
    expect(starts(played, /^\/usr\/bin\/bwrap$/)).toBe(starts(every, /^\/usr\/bin\/bwrap$/));
    // The program ran in fewer of them.
    expect(starts(played, /\/c-blocking$/)).toBeGreaterThan(0);
    expect(starts(played, /\/c-blocking$/)).toBeLessThan(starts(every, /\/c-blocking$/));
    // Once per point: each run of a point starts with the same folder (GNU time's last report removed).
    const points = (file: string) =>
      (JSON.parse(readFileSync(file, 'utf8')).runs as { exe: string; point?: string }[])
        .filter((r) => r.exe.endsWith('/c-blocking'))
        .map((r) => r.point);
    expect(points(played).length).toBe(new Set(points(every)).size);
    // The same checkout recorded again: the same starts.
    const r = runCli(['transcript', '--base', played, '--head', record(base, 'played-again')]);
    expect(r.stdout).toMatch(/^runs the same programs the same way/);
  });

  it('a harness that runs one more repeat, or writes where its repeats can see, still differs', () => {
    const played = join(dir, 'played.json');
    const loop = 'i < s.warmup + s.runs;';
    const more = plantedClone(
      base,
      join(dir, 'more'),
      'harness/src/run/self-runner.ts',
      loop,
      'i < s.warmup + s.runs + 1;',
    );
    const extra = runCli(['transcript', '--base', played, '--head', record(more, 'more'), '--json']);
    const moreRuns = JSON.parse(extra.stdout);
    expect(moreRuns.same).toBe(false);
    expect(moreRuns.differences.some((d: { what: string }) => d.what.startsWith('bwrap: '))).toBe(true);
    // A file the harness writes into the run's folder before each run: no run is played back.
    const check = 'const run = await checkedRun(job, tools, work, label);';
    const noted = plantedClone(
      base,
      join(dir, 'noted'),
      'harness/src/run/self-runner.ts',
      check,
      `(await import('node:fs')).writeFileSync(\`\${work}/note\`, String(i));\n      ${check}`,
    );
    const notedFile = record(noted, 'noted');
    expect(starts(notedFile, /\/c-blocking$/)).toBeGreaterThan(starts(played, /\/c-blocking$/));
    const r = runCli(['transcript', '--base', played, '--head', notedFile]);
    expect(r.stdout).toMatch(/^runs differently/);
  });
});
