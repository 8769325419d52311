// The rounds with a fake bench (hyperfine's MockExecutor idea): who goes first, what is dropped,
// and how each round's results become the pooled shift's observations.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pooledShifts } from '../../../src/pairs/harness-shift/pooled-shift.js';
import { keepQuietest } from '../../../src/pairs/harness-shift/quietest.js';
import { baseFirst, type RunBench, runRounds } from '../../../src/pairs/harness-shift/rounds.js';
import type { SamplePoint } from '../../../src/pairs/harness-shift/sample.js';
import {
  candidatesOf,
  firstRoundOf,
  observationsOf,
  roundSeconds,
} from '../../../src/pairs/harness-shift/shift-observations.js';
import { bench, results, timed } from '../../helpers/results.js';
import { removeScratch } from '../../helpers/scratch.js';

const dir = mkdtempSync(join(tmpdir(), 'jsio-shift-rounds-'));
afterAll(() => removeScratch(dir));

const point = (variant: string): SamplePoint => ({
  id: `wc/${variant}/bs=4096`,
  experiment: { id: 'wc' },
  variant: { id: variant },
  params: { bs: 4096 },
});

/** A bench that writes one results.json per call: head reads `factor` times base; `broken` fails on head. */
function fakeBench(factor: number, broken?: string): { run: RunBench; calls: string[] } {
  const calls: string[] = [];
  const run: RunBench = async (side, _root, args) => {
    const variant = args[args.indexOf('--variants') + 1]!;
    const out = args[args.indexOf('--out') + 1]!;
    calls.push(`${side} ${variant}`);
    if (variant === 'gone') return { code: 2, stderr: 'error: unknown variant "gone"\n' };
    mkdirSync(out, { recursive: true });
    const value = side === 'head' ? 0.1 * factor : 0.1;
    const b =
      variant === broken && side === 'head'
        ? bench(variant, { bs: 4096 }, {}, { status: 'failed', reason: 'validation failed: lines 3 != 4' })
        : bench(variant, { bs: 4096 }, { wall_time: timed([value, value, value]) });
    writeFileSync(join(out, 'results.json'), JSON.stringify(results([b])));
    return { code: 0, stderr: '' };
  };
  return { run, calls };
}

const plan = (sample: SamplePoint[], rounds: number) => ({
  sample,
  rounds,
  profile: 'smoke' as const,
  sides: { base: join(dir, 'base'), head: join(dir, 'head'), dir },
});
const manifest = { fit: undefined, headline: { at: {}, metrics: ['read_cost'] } };

describe('runRounds', () => {
  it('times a point with the runs runsFor gives for its round, the same on both sides', async () => {
    const seen: string[] = [];
    const run: RunBench = async (side, root, args) => {
      const i = args.indexOf('--runs');
      seen.push(`${side} ${i < 0 ? 'profile' : args[i + 1]}`);
      return fakeBench(1).run(side, root, args);
    };
    const asked: number[] = [];
    await runRounds(
      {
        ...plan([point('c')], 3),
        runsFor: (_p, measured) => {
          asked.push(measured.length);
          return measured.length ? 12 : undefined;
        },
      },
      run,
    );
    expect(seen).toEqual(['base profile', 'head profile', 'head 12', 'base 12', 'base 12', 'head 12']);
    // Asked once per point and round, with what was measured before it.
    expect(asked).toEqual([0, 2, 4]);
  });

  it('alternates which harness goes first over rounds and points', async () => {
    const { run, calls } = fakeBench(1);
    await runRounds(plan([point('c'), point('node-stream')], 2), run);
    expect(calls).toEqual([
      'base c',
      'head c',
      'head node-stream',
      'base node-stream',
      'head c',
      'base c',
      'base node-stream',
      'head node-stream',
    ]);
    expect([0, 1, 2, 3].map((r) => baseFirst(r, 0))).toEqual([true, false, true, false]);
  });

  it('drops a point that fails on a side from the later rounds, with its reason', async () => {
    const { run, calls } = fakeBench(1.02, 'c');
    const ms = await runRounds(plan([point('c'), point('node-stream'), point('gone')], 6), run);
    expect(calls.filter((c) => c.endsWith(' c'))).toHaveLength(2);
    expect(calls.filter((c) => c.endsWith(' gone'))).toHaveLength(1);
    const { observations, notMeasured } = observationsOf(ms, () => manifest);
    expect(notMeasured).toEqual([
      { benchmark: 'wc/c/bs=4096', reason: 'head: failed: validation failed: lines 3 != 4' },
      { benchmark: 'wc/gone/bs=4096', reason: 'base: bench exited 2: error: unknown variant "gone"' },
    ]);
    expect(observations.map((o) => [o.round, o.benchmark])).toEqual(
      [0, 1, 2, 3, 4, 5].map((r) => [r, 'wc/node-stream/bs=4096']),
    );
    const [wc] = pooledShifts(observations);
    expect(wc?.ratio).toBeCloseTo(1.02, 9);
    expect(wc?.rounds).toBe(6);
    expect(wc?.flagged).toBe(true);
  });

  it('stops at the deadline, keeping the rounds measured', async () => {
    const { run, calls } = fakeBench(1);
    let n = 0;
    const ms = await runRounds({ ...plan([point('c')], 5), stop: () => n++ >= 2 }, run);
    expect(calls).toHaveLength(4);
    expect(ms).toHaveLength(4);
  });
});

describe('runRounds with a question to answer', () => {
  it('stops after the round whose measurements answer it, and never before it is asked', async () => {
    const { run, calls } = fakeBench(1);
    const asked: number[] = [];
    const ms = await runRounds(
      {
        ...plan([point('c')], 40),
        enough: (measured, done) => {
          asked.push(done);
          expect(measured).toHaveLength(done * 2);
          return done >= 3;
        },
      },
      run,
    );
    expect(asked).toEqual([1, 2, 3]);
    expect(calls).toHaveLength(6);
    expect(new Set(ms.map((m) => m.round))).toEqual(new Set([0, 1, 2]));
  });
});

describe('runRounds with answered points', () => {
  it('measures a point no more once it is answered; the others go on', async () => {
    const { run, calls } = fakeBench(1);
    await runRounds(
      {
        ...plan([point('c'), point('node-stream')], 8),
        answered: (_measured, done) => new Set(done >= 3 ? ['wc/c/bs=4096'] : []),
      },
      run,
    );
    expect(calls.filter((c) => c.endsWith(' c'))).toHaveLength(6);
    expect(calls.filter((c) => c.endsWith(' node-stream'))).toHaveLength(16);
  });
});

describe('firstRoundOf', () => {
  it("reads a point's first round: its runs and the slower side's median wall time", async () => {
    const { run } = fakeBench(1.5);
    const ms = await runRounds(plan([point('c'), point('node-stream')], 2), run);
    // The fake times 3 runs of 0.1 s on base and 0.15 s on head.
    expect(firstRoundOf(point('c'), ms)).toEqual({ runs: 3, wallSeconds: expect.closeTo(0.15, 9) });
    expect(firstRoundOf(point('c'), [])).toBeUndefined();
    expect(firstRoundOf(point('gone'), ms)).toBeUndefined();
  });
});

describe('candidates', () => {
  it('after the first round only the points narrow keeps go on', async () => {
    const { run, calls } = fakeBench(1);
    await runRounds(
      {
        ...plan([point('c'), point('node-stream'), point('readsync')], 3),
        narrow: () => new Set(['wc/node-stream/bs=4096']),
      },
      run,
    );
    expect(calls.filter((c) => c.endsWith(' c'))).toHaveLength(2);
    expect(calls.filter((c) => c.endsWith(' readsync'))).toHaveLength(2);
    expect(calls.filter((c) => c.endsWith(' node-stream'))).toHaveLength(6);
  });

  it('narrows after the rounds narrowAfter names, every candidate measured in each', async () => {
    const { run, calls } = fakeBench(1);
    await runRounds(
      {
        ...plan([point('c'), point('node-stream')], 4),
        narrow: () => new Set(['wc/node-stream/bs=4096']),
        narrowAfter: 2,
      },
      run,
    );
    expect(calls.filter((c) => c.endsWith(' c'))).toHaveLength(4);
    expect(calls.filter((c) => c.endsWith(' node-stream'))).toHaveLength(8);
  });

  it("reads each candidate's spread from how its ratio moved between rounds, floored by its latest round's runs", async () => {
    // c: steady runs, but its head reads 10 % higher in round 1 only (a whole invocation's state);
    // node-stream: its runs scatter by a few %, its ratio the same in both rounds.
    const moody: RunBench = async (side, _root, args) => {
      const variant = args[args.indexOf('--variants') + 1]!;
      const out = args[args.indexOf('--out') + 1]!;
      const round = Number(/r(\d+)-/.exec(out)![1]);
      mkdirSync(out, { recursive: true });
      const runs =
        variant === 'c'
          ? [1, 1.001, 0.999].map((x) => (side === 'head' && round === 1 ? x * 1.1 : x))
          : [1, 1.02, 0.98, 1.01, 0.99];
      writeFileSync(
        join(out, 'results.json'),
        JSON.stringify(results([bench(variant, { bs: 4096 }, { wall_time: timed(runs) })])),
      );
      return { code: 0, stderr: '' };
    };
    const ms = await runRounds(plan([point('c'), point('node-stream')], 2), moody);
    const c = candidatesOf([point('c'), point('node-stream')], ms, () => manifest);
    expect(c.map((x) => x.id)).toEqual(['wc/c/bs=4096', 'wc/node-stream/bs=4096']);
    expect(c[0]!.spread).toBeCloseTo(Math.log(1.1) / Math.SQRT2, 6);
    // node-stream's rounds agree exactly: its floor from 5 runs of spread 1.4826 × 0.01 per side.
    expect(c[1]!.spread).toBeCloseTo(Math.sqrt((2 * (1.2533 * 0.014826) ** 2) / 5), 6);
    expect(keepQuietest(c, 1)).toEqual(new Set(['wc/node-stream/bs=4096']));
  });

  it("times every bench, and expects a later round to cost its candidate rounds' mean plus the runs the kept point adds", async () => {
    const { run } = fakeBench(1);
    const slow: RunBench = async (side, root, args) => {
      await new Promise((r) => setTimeout(r, 20));
      return run(side, root, args);
    };
    const ms = await runRounds(plan([point('c')], 2), slow);
    expect(ms).toHaveLength(4);
    for (const m of ms) expect(m.seconds).toBeGreaterThanOrEqual(0.015);
    const spent = ms.reduce((a, m) => a + m.seconds!, 0) / 2;
    const first = firstRoundOf(point('c'), ms)!;
    // The fake's runs: the profile's few, at 0.1 s each; the kept point's rounds time 30 (RUN_SECONDS 3 s).
    expect(first.wallSeconds).toBeCloseTo(0.1, 12);
    expect(roundSeconds(point('c'), ms)).toBeCloseTo(spent + 2 * (30 - first.runs) * 0.1, 9);
    expect(
      roundSeconds(
        point('c'),
        ms.map(({ seconds: _s, ...m }) => m),
      ),
    ).toBeUndefined();
    expect(candidatesOf([point('c')], ms, () => manifest)[0]!.seconds).toBe(roundSeconds(point('c'), ms));
  });
});
