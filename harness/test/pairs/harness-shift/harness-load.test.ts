// The harness's own load in a recording: read from /proc, bounded A/A, and what it decides (pure).
import { describe, expect, it } from 'vitest';
import { needsNoTiming, pointsToTime, type TranscriptVerdict } from '../../../src/model/transcript-document.js';
import { statCpuSeconds } from '../../../src/pairs/harness-shift/harness-cpu.js';
import { HARNESS_LOAD_FLOOR, harnessLoad } from '../../../src/pairs/harness-shift/harness-load.js';
import { verdictText } from '../../../src/pairs/harness-shift/verdict-text.js';

describe('statCpuSeconds', () => {
  it('reads user and system time after the command name, whatever the name holds', () => {
    const stat = '4242 (node (x) y) S 1 4242 4242 0 -1 4194560 9000 0 0 0 1234 56 0 0 20 0 11 0 100 0 0';
    expect(statCpuSeconds(stat)).toBeCloseTo(12.9, 5);
    expect(statCpuSeconds('4242 (node) S')).toBeUndefined();
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
});
