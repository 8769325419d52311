// The pair timer's gated mode with the real bubblewrap: each process starts its side's sandbox
// with the timer's gate as its program, and the clock starts once the gate is inside (a sandbox
// that never starts is the point's failure with the reason, not a time). Real gcc, bwrap, timer.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shellQuote, which } from '../../../src/lib/exec.js';
import { sandboxCommand, translate } from '../../../src/machine/sandbox/argv.js';
import { openSandbox } from '../../../src/machine/sandbox/open.js';
import { buildTool } from '../../../src/machine/tools.js';
import type { Sandbox } from '../../../src/model/sandbox.js';
import { runSchedule } from '../../../src/pairs/engine/pair-timer.js';
import { prepareStep } from '../../../src/run/empty-scratch.js';
import { ROOT } from '../../helpers/cli.js';
import { removeScratch } from '../../helpers/scratch.js';

const world = mkdtempSync(join(tmpdir(), 'jsio-gated-'));
afterAll(() => removeScratch(world));

function side(name: string, cache: string): { root: string; sandbox: Sandbox } {
  const root = join(world, name);
  mkdirSync(join(root, 'programs'), { recursive: true });
  writeFileSync(join(root, 'programs', 'side.txt'), name);
  const o = openSandbox({
    root,
    cacheDir: cache,
    scratchDir: join(cache, 'scratch'),
  });
  if (!o.ok) throw new Error(o.reason);
  return { root, sandbox: o.sandbox };
}

/** A command as the paired runner starts it in a sandbox: through the timer's gate. */
const gated = (s: { root: string; sandbox: Sandbox }, timer: string, line: string) =>
  `exec ${sandboxCommand(s.sandbox, join(s.root, 'programs'), [
    translate(timer, s.sandbox.roots),
    '--gate',
    '/bin/bash',
    '-c',
    line,
  ])
    .map(shellQuote)
    .join(' ')}`;

describe('the pair timer, gated', () => {
  const cache = join(world, 'cache');

  it('times each side inside its sandbox, at the same path, in schedule order', async () => {
    const timer = await buildTool('pair-timer', which('gcc')!, ROOT, cache, () => {});
    expect(timer).toBeDefined();
    const base = side('base', cache);
    const head = side('head', cache);
    // Each process appends what it sees at the fixed path to the shared scratch.
    const line = 'echo "$(pwd) $(cat side.txt)" >> /jsio/scratch/seen';
    const r = await runSchedule(timer!, [gated(base, timer!, line), gated(head, timer!, line)], [0, 1, 1, 0], {
      cwd: world,
      timeoutMs: 20_000,
      gated: true,
    });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(r.seconds).toHaveLength(4);
    for (const s of r.seconds) expect(s).toBeGreaterThan(0);
    expect(
      readFileSync(join(cache, 'scratch', 'seen'), 'utf8')
        .trim()
        .split('\n'),
    ).toEqual([
      '/jsio/side/programs base',
      '/jsio/side/programs head',
      '/jsio/side/programs head',
      '/jsio/side/programs base',
    ]);
  });

  // The paired runner's prepare step (strategies.ts): the shared scratch emptied, untimed, before
  // every process, so neither side finds what the other, or its own previous process, left there.
  it('starts every process of either side with the shared scratch empty', async () => {
    const timer = (await buildTool('pair-timer', which('gcc')!, ROOT, cache, () => {}))!;
    const base = side('base3', cache);
    const head = side('head3', cache);
    const mine = join(cache, 'scratch', 'exp', 'variant');
    mkdirSync(mine, { recursive: true });
    writeFileSync(join(mine, 'mark'), 'left by an earlier process');
    const line = 'test ! -e /jsio/scratch/exp/variant/mark && touch /jsio/scratch/exp/variant/mark';
    const run = (prepare?: string) =>
      runSchedule(timer, [gated(base, timer, line), gated(head, timer, line)], [0, 1, 1, 0], {
        cwd: world,
        timeoutMs: 20_000,
        gated: true,
        ...(prepare ? { prepare } : {}),
      });
    const r = await run(prepareStep([mine, mine]));
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(r.seconds).toHaveLength(4);
    // Without the step, the first process already finds the mark.
    const without = await run();
    expect(!without.ok && without.failed).toBe(0);
  });

  it('fails a process whose sandbox does not start, with the reason, and times nothing of it', async () => {
    const timer = (await buildTool('pair-timer', which('gcc')!, ROOT, cache, () => {}))!;
    const base = side('base2', cache);
    const broken = { ...base, sandbox: { ...base.sandbox, bwrap: '/bin/false' } };
    const r = await runSchedule(timer, [gated(base, timer, 'true'), gated(broken, timer, 'true')], [0, 1], {
      cwd: world,
      timeoutMs: 20_000,
      gated: true,
    });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.failed).toBe(1);
    expect(!r.ok && r.reason).toMatch(/could not start in its sandbox \(exit status 1\)/);
    expect(r.seconds).toHaveLength(1);
  });
});
