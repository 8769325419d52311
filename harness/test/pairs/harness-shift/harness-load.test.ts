// The harness's own load in a recording: read from /proc, bounded A/A, and what it decides (pure).
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { needsNoTiming, pointsToTime, type TranscriptVerdict } from '../../../src/formats/transcript-format.js';
import {
  cpuBetween,
  ownProcesses,
  type ProcStat,
  parseStat,
  statCpuSeconds,
  watchCpu,
} from '../../../src/pairs/harness-shift/harness-cpu.js';
import { HARNESS_LOAD_FLOOR, harnessLoad } from '../../../src/pairs/harness-shift/harness-load.js';
import { verdictText } from '../../../src/pairs/harness-shift/verdict-text.js';

describe('statCpuSeconds', () => {
  it('reads user and system time after the command name, whatever the name holds', () => {
    const stat = '4242 (node (x) y) S 1 4242 4242 0 -1 4194560 9000 0 0 0 1234 56 0 0 20 0 11 0 100 0 0';
    expect(statCpuSeconds(stat)).toBeCloseTo(12.9, 5);
    expect(statCpuSeconds('4242 (node) S')).toBeUndefined();
  });
});

describe("the harness's own processes", () => {
  const p = (comm: string, ppid: number, cpu = 1): ProcStat => ({ comm, ppid, cpu, start: 1 });

  it('reads the parent, the times and the start, whatever the name holds', () => {
    const stat = '4242 (a) b) S 17 4242 4242 0 -1 4194560 9000 0 0 0 150 50 0 0 20 0 11 0 777 0 0';
    expect(parseStat(stat)).toEqual({ comm: 'a) b', ppid: 17, cpu: 2, start: 777 });
    expect(parseStat('garbage')).toBeUndefined();
  });

  it('are the harness and what it starts, except each sandbox and everything under it', () => {
    const table = new Map<number, ProcStat>([
      [1, p('systemd', 0)],
      [10, p('node', 1)],
      [11, p('sh', 10)],
      [12, p('node', 11)],
      [20, p('bwrap', 10)],
      [21, p('hyperfine', 20)],
      [22, p('wc-c', 21)],
      [30, p('git', 10)],
      [40, p('node', 1)],
    ]);
    expect(ownProcesses(table, 10).sort()).toEqual([10, 11, 12, 30]);
    expect(ownProcesses(table, 99)).toEqual([]);
  });

  // Real processes: a helper the watched process starts counts, a sandboxed one does not.
  const busy = (seconds: number) =>
    `const t=process.cpuUsage();while((process.cpuUsage(t).user+process.cpuUsage(t).system)/1e6<${seconds});`;
  const watchOf = async (script: string) => {
    const marker = `jsio-cpu-watch-${process.pid}-${Math.random().toString(36).slice(2)}`;
    const w = watchCpu((a) => a.includes(marker));
    const child = spawn('sh', ['-c', script, marker], { stdio: 'ignore' });
    await new Promise((ok) => child.on('close', ok));
    return w.stop()?.whole;
  };

  it("sums a helper's CPU time with the watched process's own", { timeout: 60_000 }, async () => {
    const cpu = await watchOf(`node -e '${busy(1)}'; sleep 0.3`);
    // The helper spent 1 s of CPU; samples come every 200 ms, so at most that much of it can be missed.
    expect(cpu).toBeGreaterThan(0.6);
  });

  it('leaves out what runs in a sandbox', { timeout: 60_000 }, async () => {
    const cpu = await watchOf(`bwrap --dev-bind / / node -e '${busy(1)}'; sleep 0.3`);
    expect(cpu ?? 0).toBeLessThan(0.3);
  });
});

describe('cpuBetween', () => {
  const series = [
    { t: 10, cpu: 1 },
    { t: 10.2, cpu: 1.5 },
    { t: 10.4, cpu: 4 },
    { t: 10.6, cpu: 4.1 },
  ];
  it('takes the window widened to whole samples: the sum after its end less the sum before its start', () => {
    expect(cpuBetween(series, 10.25, 10.45)).toBeCloseTo(2.6, 5);
    expect(cpuBetween(series, 10.2, 10.4)).toBeCloseTo(2.5, 5);
    // Before the first sample nothing was spent; after the last, the last sum stands.
    expect(cpuBetween(series, 5, 99)).toBeCloseTo(4.1, 5);
    expect(cpuBetween([], 0, 1)).toBeUndefined();
  });
});

describe('harnessLoad', () => {
  it('a difference inside the bound (a floor for short recordings, else a share of the base) is within', () => {
    expect(harnessLoad(2, 2 + HARNESS_LOAD_FLOOR)).toMatchObject({ within: true, bound: HARNESS_LOAD_FLOOR });
    expect(harnessLoad(2, 2 + HARNESS_LOAD_FLOOR + 0.1)?.within).toBe(false);
    expect(harnessLoad(100, 115)).toMatchObject({ within: true, bound: 20 });
    expect(harnessLoad(100, 79)?.within).toBe(false);
  });

  it('a side whose harness could not be sampled is not within: nothing shows its own work', () => {
    expect(harnessLoad(3, undefined)).toEqual({ base: 3, head: null, bound: HARNESS_LOAD_FLOOR, within: false });
  });

  it('beyond the bound, the same runs still need timing, on every point', () => {
    const v: TranscriptVerdict = {
      bench: ['--profile', 'smoke'],
      runs: { same: true, alike: 100, differences: [], more: 0, inPoints: [] },
      numbers: { same: true, compared: 10, notReplayed: 0, moves: [] },
      harnessLoad: harnessLoad(3, 9),
      exits: { base: 0, head: 0 },
      seconds: 20,
    };
    expect(needsNoTiming(v)).toBe(false);
    expect(pointsToTime(v)).toBeUndefined();
    expect(verdictText(v)).toContain('its own work while they run differs beyond the bound');
    expect(verdictText(v)).toContain('base 3.00 s, head 9.00 s; they may differ by 1.50 s (measured A/A) — beyond');
    expect(needsNoTiming({ ...v, harnessLoad: harnessLoad(3, 3.4) })).toBe(true);
  });

  it("a head that could not make numbers from the base's raw samples is timed on every point (fail closed)", () => {
    const v: TranscriptVerdict = {
      bench: ['--profile', 'smoke'],
      runs: { same: true, alike: 100, differences: [], more: 0, inPoints: [] },
      numbers: {
        same: false,
        compared: 10,
        notReplayed: 4,
        unreduced: true,
        moves: [{ what: "the head's harness could not make numbers from the base's raw samples", benchmarks: 4 }],
      },
      harnessLoad: harnessLoad(3, 3.1),
      exits: { base: 0, head: 0 },
      seconds: 20,
    };
    expect(needsNoTiming(v)).toBe(false);
    expect(pointsToTime(v)).toBeUndefined();
    expect(verdictText(v)).toContain("its harness could not make numbers from the base's raw samples");
    const { unreduced: _, ...reduced } = v.numbers;
    expect(needsNoTiming({ ...v, numbers: reduced })).toBe(true);
  });

  it("moves sized on main's real runs are shown after the recording's, escaped, and decide nothing more", () => {
    const v: TranscriptVerdict = {
      bench: ['--profile', 'quick'],
      runs: { same: true, alike: 100, differences: [], more: 0, inPoints: [] },
      numbers: {
        same: false,
        compared: 10,
        notReplayed: 0,
        reduced: 4,
        moves: [{ what: 'wall_time: reported value', benchmarks: 4, range: [-0.3, 0.4] }],
        trend: {
          profile: 'standard',
          benchmarks: 9,
          moves: [{ what: 'wall_time: <b>reported</b> value', benchmarks: 9, range: [-0.01, 0.02] }],
        },
      },
      harnessLoad: harnessLoad(3, 3.1),
      exits: { base: 0, head: 0 },
      seconds: 20,
    };
    const text = verdictText(v);
    expect(text).toContain("the sizes here are the recording's, whose hyperfine timings are made up; real ones below");
    expect(text).toContain(
      "How far on real runs — both analyses of main's timed run of the base (its standard profile, 9 benchmarks), what its trend will show after the merge:\n- wall_time: &lt;b&gt;reported&lt;/b&gt; value: 9 benchmarks by −1.0 … +2.0 %",
    );
    expect(needsNoTiming(v)).toBe(true);
    const { trend: _, ...recordingOnly } = v.numbers;
    expect(verdictText({ ...v, numbers: recordingOnly })).toContain(
      "how far, on the recording's samples, not real runs",
    );
  });
});
