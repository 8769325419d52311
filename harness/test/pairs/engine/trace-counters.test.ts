import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findTools } from '../../../src/machine/tools.js';
import { MAX_COUNTER_TRACES, traceUntilSettled } from '../../../src/pairs/engine/prepare.js';
import { loadExperiment } from '../../../src/plan/experiments.js';
import { expand } from '../../../src/plan/plan.js';
import { countSyscalls } from '../../../src/run/common.js';
import { ROOT } from '../../helpers/cli.js';
import { jobOf } from '../../helpers/jobs.js';

type Side = 'base' | 'head';
const calls = (n: number) => ({ value: n, unit: 'calls' });

/** A trace function that hands out each side's scripted counts in order and counts its calls. */
function scripted(script: Record<Side, Record<string, number>[]>) {
  const taken = { base: 0, head: 0 };
  const trace = async (side: Side) => {
    const counts = script[side][taken[side]++];
    if (!counts) throw new Error(`${side} traced more often than scripted`);
    return {
      counts: Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, calls(v)])),
      traced: true,
    };
  };
  return { trace, taken };
}

const repeat = <T>(x: T, n = MAX_COUNTER_TRACES) => Array.from({ length: n }, () => x);

describe('counter traces of a paired point', () => {
  it('traces each side once when nothing differs', async () => {
    const s = scripted({ base: repeat({ 'syscalls.read': 40 }), head: repeat({ 'syscalls.read': 40 }) });
    const r = await traceUntilSettled(s.trace);
    expect(r).toEqual({ changed: [], tracesPerSide: 1 });
    expect(s.taken).toEqual({ base: 1, head: 1 });
  });

  it('calls a difference that holds over every trace, and only after the most traces', async () => {
    const s = scripted({
      base: repeat({ 'syscalls.statx': 20, 'syscalls.read': 7 }),
      head: repeat({ 'syscalls.statx': 1045, 'syscalls.read': 7 }),
    });
    const r = await traceUntilSettled(s.trace);
    expect(r.tracesPerSide).toBe(MAX_COUNTER_TRACES);
    expect(r.changed).toEqual([{ metric: 'syscalls.statx', unit: 'calls', base: 20, head: 1045 }]);
  });

  it('does not call a two-valued count whose split between the sides breaks on a later trace', async () => {
    // The first three runs of each side agree by chance (the false call seen in a control); the
    // fourth head run takes the base's value.
    const base = repeat({ 'syscalls.sched_getparam': 9 });
    const head = [...repeat({ 'syscalls.sched_getparam': 10 }, 3), ...repeat({ 'syscalls.sched_getparam': 9 }, 3)];
    const s = scripted({ base, head });
    const r = await traceUntilSettled(s.trace);
    expect(r.changed).toEqual([]);
    expect(r.tracesPerSide).toBe(4);
  });

  it('counts a syscall a side never made as zero on that side', async () => {
    const s = scripted({
      base: repeat({ 'syscalls.read': 3 }),
      head: repeat({ 'syscalls.read': 3, 'syscalls.openat': 2 }),
    });
    const r = await traceUntilSettled(s.trace);
    expect(r.changed).toEqual([{ metric: 'syscalls.openat', unit: 'calls', base: 0, head: 2 }]);
  });

  it("leaves out a program count a trace could not report (it never borrows the check run's)", async () => {
    const base = repeat<Record<string, number>>({ reads: 5 });
    base[2] = {};
    const s = scripted({ base, head: repeat({ reads: 6 }) });
    const r = await traceUntilSettled(s.trace);
    expect(r.changed).toEqual([]);
  });
});

describe('a real traced run', () => {
  it("reports the traced run's own program counts beside its syscalls (strace, node)", async () => {
    const wc = loadExperiment(join(ROOT, 'programs', 'wc'));
    const point = expand([wc], 'smoke', { variants: ['node-pipe'], params: { bs: [65536] } })[0]!;
    const job = jobOf(point, {
      runtimes: new Map([[point.runtime, { ok: true, path: process.execPath, version: process.versions.node }]]),
    });
    const t = await countSyscalls(job, findTools(), mkdtempSync(join(tmpdir(), 'jsio-trace-')));
    expect(t.note).toBeUndefined();
    expect(t.syscalls?.calls.read).toBeGreaterThan(0);
    // node-pipe reports its own reads: the trace carries them, so each trace is judged on its own run.
    expect(t.fields?.reads).toBeGreaterThan(0);
    expect(t.fields?.bytes).toBe(job.scope.bytes);
  });
});
