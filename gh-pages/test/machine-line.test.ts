// The machine line and the cold-read note in words (gh-pages/src/views/machine-line.ts).
import { describe, expect, it } from 'vitest';
import { coldReadNote, machineLine, plural } from '../src/views/machine-line.js';

const vm = { cpu: 'AMD EPYC', cores: 2, memoryBytes: 24 * 2 ** 30, kernel: 'Linux 6.18', governor: 'unavailable' };

describe('the machine line', () => {
  it('says every condition in words', () => {
    expect(machineLine(vm, { turbo: 'unavailable', smt: 'notsupported', measuredCpus: '1', harnessCpus: '0' })).toBe(
      'AMD EPYC, 2 cores, 24 GiB memory, kernel Linux 6.18, frequency governor not reported, turbo boost not reported, no SMT, programs pinned to CPU 1 (the harness on CPU 0)',
    );
    const line = machineLine(
      { ...vm, cores: 1, governor: 'performance' },
      { turbo: 'on', smt: 'active', measuredCpus: '1-3' },
    );
    expect(line).toBe(
      'AMD EPYC, 1 core, 24 GiB memory, kernel Linux 6.18, frequency governor performance, turbo boost on, SMT on, programs pinned to CPUs 1-3',
    );
    expect(machineLine(vm, { turbo: 'on', smt: 'on', measuredCpus: '1', rssLayout: 'fixed' })).toMatch(
      /programs pinned to CPU 1, max RSS of hyperfine-timed programs read with ASLR off$/,
    );
    expect(machineLine(vm, { turbo: 'on', smt: 'on', measuredCpus: '1', rssLayout: 'random' })).toMatch(
      /max RSS read with ASLR on \(it moves a few %\)$/,
    );
    expect(machineLine(vm, { turbo: 'off', smt: 'weird', measuredCpus: 'all' })).toMatch(
      /SMT not reported, programs not pinned to CPUs$/,
    );
  });
  it('counts in the singular and the plural', () => {
    expect([plural(1, 'commit'), plural(2, 'commit'), plural(0, 'round')]).toEqual([
      '1 commit',
      '2 commits',
      '0 rounds',
    ]);
  });
});

describe('the cold-read note', () => {
  it('gives the machine’s cold 4 KiB read beside a cold-cache answer', () => {
    const c = { turbo: 'on', smt: 'active', measuredCpus: '1' };
    const note = coldReadNote({ ...c, coldRead: { medianMicros: 28, p90Micros: 61.5, reads: 128, blockBytes: 4096 } });
    expect(note).toMatch(
      /one 4 KiB read from an evicted file takes 28\.0 µs \(median of 128; 90th percentile 61\.5 µs\)/,
    );
    expect(coldReadNote(c)).toMatch(/did not record the machine’s cold-read latency/);
  });
});
