// Other processes' share of the machine during a paired diff (machine/cpu-share.ts): the parsing
// over real /proc lines, the arithmetic, and on this Linux machine that a child's CPU time is
// counted as the diff's own (so an idle runner does not warn that it was busy).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { busyByOthers } from '../../src/analysis/busy.js';
import {
  cpuSnapshot,
  foreignCores,
  machineBusyTicks,
  processTicks,
  sampleForeignCores,
} from '../../src/machine/cpu-share.js';

const PROC_STAT =
  'cpu  1355279 6992 608964 1538499 15864 0 6895 4592 0 0\ncpu0 677000 3000 300000 769000 7000 0 3000 2000 0 0\n';
// A comm with spaces and a ")" in it: the fields are counted from the last ")".
const PID_STAT =
  '19244 (a) b c) R 19237 19237 5120 0 -1 4194304 101 0 0 0 250 40 1200 300 20 0 1 0 1776601 3133440 359 18446744073709551615';

describe('cpu-share', () => {
  it('reads the busy ticks of every CPU and leaves idle and iowait out', () => {
    expect(machineBusyTicks(PROC_STAT)).toBe(1355279 + 6992 + 608964 + 6895 + 4592);
    expect(machineBusyTicks('intr 1 2 3\n')).toBeUndefined();
    expect(machineBusyTicks('cpu  1 2 x 4 5 6 7 8\n')).toBeUndefined();
  });

  it("reads a process's own and reaped children's ticks, whatever its name holds", () => {
    expect(processTicks(PID_STAT)).toBe(250 + 40 + 1200 + 300);
    expect(processTicks('19244 no parenthesis')).toBeUndefined();
  });

  it('counts only what others used, in cores', () => {
    const a = { machineBusy: 1000, own: 100, at: 0 };
    // 10 s: the machine was busy 1,500 ticks, 1,200 of them ours: 300 ticks = 0.3 cores for 10 s.
    expect(foreignCores(a, { machineBusy: 2500, own: 1300, at: 10_000 })).toBeCloseTo(0.3, 10);
    expect(foreignCores(a, { machineBusy: 1500, own: 700, at: 10_000 })).toBe(0);
    expect(foreignCores(a, { ...a })).toBe(0);
    expect(busyByOthers(0.3, 2)).toBe(true);
    expect(busyByOthers(0.1, 2)).toBe(false);
  });

  it("counts a finished child's CPU time as ours on this machine", () => {
    const a = cpuSnapshot();
    expect(a).toBeDefined();
    // A fixed amount of work (not a fixed time), so a loaded machine changes only how long it takes.
    const r = spawnSync(process.execPath, [
      '-e',
      'let x = 0; for (let i = 0; i < 1e8; i++) x += i; if (!x) process.exit(1)',
    ]);
    expect(r.status).toBe(0);
    const b = cpuSnapshot()!;
    const own = b.own - a!.own;
    expect(own).toBeGreaterThanOrEqual(10);
    // The machine's busy time includes ours (a tick of slack for the two files' sampling).
    expect(b.machineBusy - a!.machineBusy).toBeGreaterThanOrEqual(own - 2);
  });

  it('samples what others use now (a share of the cores, never negative)', async () => {
    const now = await sampleForeignCores(100);
    expect(now).toBeGreaterThanOrEqual(0);
    expect(now).toBeLessThanOrEqual(64);
  });
});
