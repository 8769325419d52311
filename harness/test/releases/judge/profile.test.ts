/**
 * Self times from real profiles: a fixture cut from a real `node --cpu-prof` run (the first 300
 * samples of a read loop), a fresh --cpu-prof of a real program under the installed node, and a
 * perf report table; then the functions whose self time changed most.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  addSelfTimes,
  cpuProfileSelfTimes,
  perfReportSelfTimes,
  topFunctionChanges,
} from '../../../src/releases/judge/profile.js';
import { FIXTURES } from '../../helpers/cli.js';
import { removeScratch } from '../../helpers/scratch.js';

const tmp = mkdtempSync(join(tmpdir(), 'jsio-cpuprof-'));
afterAll(() => removeScratch(tmp));

describe('cpuProfileSelfTimes', () => {
  it('reads the fixture cut from a real profile: its self times add up to its sampled time', () => {
    const raw = JSON.parse(readFileSync(join(FIXTURES, 'cpuprofile', 'readsync-node20.cpuprofile'), 'utf8'));
    const t = cpuProfileSelfTimes(raw);
    const total = [...t.values()].reduce((a, b) => a + b, 0);
    const sampled = raw.timeDeltas.slice(1).reduce((a: number, b: number) => a + b, 0) / 1000;
    // Every sample but the idle ones counts once; the last one the mean gap.
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(sampled + (raw.endTime - raw.startTime) / raw.samples.length / 1000 + 1e-9);
    expect([...t.keys()].some((k) => /\(w\.js:\d+\)$/.test(k))).toBe(true);
    expect(t.has('(idle)')).toBe(false);
  });

  it('refuses what is not a CPU profile', () => {
    expect(() => cpuProfileSelfTimes({ nodes: 'x' })).toThrow();
  });

  it('reads a fresh --cpu-prof of a real program under the installed node', () => {
    const prog = join(tmp, 'spin.js');
    writeFileSync(
      prog,
      [
        'function busyLoop(n) { let s = 0; for (let i = 0; i < n; i++) s = (s + i * 7) % 1000003; return s; }',
        'let t = 0; for (let k = 0; k < 20; k++) t += busyLoop(2e6);',
        'console.log(t);',
      ].join('\n'),
    );
    const dir = join(tmp, 'prof');
    const r = spawnSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, prog], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!;
    const t = cpuProfileSelfTimes(JSON.parse(readFileSync(join(dir, file), 'utf8')));
    const busy = [...t.entries()].find(([k]) => k.startsWith('busyLoop (spin.js:1)'));
    expect(busy).toBeDefined();
    // The program does nothing else: its loop is the function with the most self time.
    expect(Math.max(...t.values())).toBe(busy![1]);
  });
});

describe('perfReportSelfTimes', () => {
  it('reads the period column of perf report (cpu-clock, nanoseconds) per symbol', () => {
    const text = [
      '# Samples: 2K of event cpu-clock',
      '#',
      '#       Period  Symbol',
      '# ............  .............................',
      '#',
      '    812500000  [k] copy_user_enhanced_fast_string',
      '    250000000  [.] Builtins_ReadSync',
      '      1000000  [.] 0x00007f3a1c2b4d10',
      // As perf 6.1 prints it on a machine without hardware counters: IPC columns after the symbol.
      `        250000  [.] ASN1_ANY_it${' '.repeat(40)}-      -            `,
      '',
    ].join('\n');
    expect([...perfReportSelfTimes(text)]).toEqual([
      ['copy_user_enhanced_fast_string', 812.5],
      ['Builtins_ReadSync', 250],
      ['0x00007f3a1c2b4d10', 1],
      ['ASN1_ANY_it', 0.25],
    ]);
  });
});

describe('topFunctionChanges', () => {
  it('ranks functions by how much their self time changed, in either direction, and drops the unchanged', () => {
    const before = new Map([
      ['a', 10],
      ['b', 50],
      ['same', 5],
    ]);
    const after = addSelfTimes([
      new Map([['a', 12]]),
      new Map([
        ['b', 20],
        ['c', 7],
        ['same', 5],
      ]),
    ]);
    expect(topFunctionChanges(before, after, 2)).toEqual([
      { name: 'b', before: 50, after: 20 },
      { name: 'c', before: 0, after: 7 },
    ]);
    expect(topFunctionChanges(before, after).map((f) => f.name)).toEqual(['b', 'c', 'a']);
  });
});
