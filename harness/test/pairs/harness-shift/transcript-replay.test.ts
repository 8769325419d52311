// Which points a harness change moves only inside their own timed commands, with each side's
// commands as its recording shows them (pure).
import { describe, expect, it } from 'vitest';
import {
  type NormalRun,
  pointsToPair,
  pointsToTime,
  type TranscriptVerdict,
} from '../../../src/formats/transcript-format.js';
import { replayable, replayOf } from '../../../src/pairs/harness-shift/transcript-replay.js';

const POINT = 'wc/c/bs=4096';
const SANDBOX = [
  '/usr/bin/bwrap',
  '--unshare-all',
  '--ro-bind',
  '<side>',
  '/jsio/side',
  '--chdir',
  '/jsio/side/programs/wc',
];
const small = 'set -o pipefail; /usr/bin/taskset -c 1 dd if=/dev/zero bs=4096 count=512 | /jsio/build/wc/c/c 4096';
const large = small.replace('count=512', 'count=4096');

const start = (argv: string[], point = POINT): NormalRun => ({
  exe: argv[0]!.startsWith('/') ? argv[0]! : `/usr/bin/${argv[0]}`,
  argv,
  env: ['TZ=UTC'],
  cwd: '/jsio/side/programs/wc',
  limits: {},
  point,
});

/** A point's timed stage on one side: the sandbox that starts hyperfine, and hyperfine timing `commands` (slots interleaved). */
function timed(commands: string[], o: { sandbox?: string[]; options?: string[]; point?: string } = {}): NormalRun[] {
  const hf = ['/usr/bin/hyperfine', '--shell=bash', ...(o.options ?? ['--runs=1', '--warmup=0'])];
  const slots = [...commands, ...commands.slice().reverse()];
  return [
    start([...(o.sandbox ?? SANDBOX), '--', ...hf, ...slots], o.point),
    start([...hf, ...slots], o.point),
    // The check run before it: a start of the point's, not hyperfine's.
    start(['bash', '-c', `${commands[0]} # checked`], o.point),
  ];
}

const nounset = (c: string) => c.replace('set -o pipefail;', 'set -o pipefail -o nounset;');

describe('replayOf', () => {
  it("takes each side's timed commands, distinct, in the order hyperfine first ran them", () => {
    const r = replayOf(timed([small, large]), timed([small, large].map(nounset)), POINT);
    expect(r).toEqual({ point: POINT, base: [small, large], head: [nounset(small), nounset(large)] });
  });

  it('leaves a point to the timed shift, with why, when anything but its timed commands differs', () => {
    const base = timed([small, large]);
    const cases: [NormalRun[], string][] = [
      [
        timed([small, large].map(nounset), { sandbox: [...SANDBOX, '--ro-bind', '/opt', '/opt'] }),
        "its sandbox's mounts differ",
      ],
      [timed([small, large].map(nounset), { options: ['--runs=1', '--warmup=1'] }), "hyperfine's options differ"],
      [timed([nounset(small)]), 'the two sides time a different number of commands'],
      [timed([small, large]), 'its timed commands and their environment are the same on both sides'],
      [timed([small, `${large} <tmp>/x`]), 'a timed command or its environment names a path outside the sandbox'],
      // A place named later than this test is an outside path too.
      [
        timed([small, `${large} <some-new-place>/x`]),
        'a timed command or its environment names a path outside the sandbox',
      ],
      [
        timed([small, large], { sandbox: [...SANDBOX, '--setenv', 'TMPDIR', '<tmp>'] }),
        'a timed command or its environment names a path outside the sandbox',
      ],
      [timed([small, `${large} ${'x'.repeat(4000)}`]), 'a timed command is too long to replay'],
      [[start(['bash', '-c', small])], 'hyperfine does not time it on both sides'],
    ];
    for (const [head, why] of cases) expect(replayOf(base, head, POINT)).toEqual({ point: POINT, why });
  });

  it("takes each side's sandbox environment when it differs, with the same commands or other ones", () => {
    const env = (...kv: string[]) => [...SANDBOX.slice(0, 2), ...kv, ...SANDBOX.slice(2)];
    const base = timed([small, large], { sandbox: env('--setenv', 'TZ', 'UTC', '--setenv', 'LANG', 'C') });
    const head = timed([small, large], {
      sandbox: env('--setenv', 'LANG', 'C', '--setenv', 'MALLOC_ARENA_MAX', '2', '--setenv', 'TZ', 'UTC'),
    });
    expect(replayOf(base, head, POINT)).toEqual({
      point: POINT,
      base: [small, large],
      head: [small, large],
      env: {
        base: [
          ['LANG', 'C'],
          ['TZ', 'UTC'],
        ],
        head: [
          ['LANG', 'C'],
          ['MALLOC_ARENA_MAX', '2'],
          ['TZ', 'UTC'],
        ],
      },
    });
    // The same variables in another order are the same environment.
    const reordered = timed([small, large], { sandbox: env('--setenv', 'LANG', 'C', '--setenv', 'TZ', 'UTC') });
    expect(replayOf(base, reordered, POINT)).toEqual({
      point: POINT,
      why: 'its timed commands and their environment are the same on both sides',
    });
  });

  it("reads only the point's own starts", () => {
    const other = 'wc/c/bs=65536';
    const base = [...timed([small]), ...timed(['x'], { point: other })];
    const head = [...timed([nounset(small)]), ...timed(['y'], { point: other })];
    expect(replayOf(base, head, POINT)).toEqual({ point: POINT, base: [small], head: [nounset(small)] });
  });
});

describe('replayable', () => {
  it('takes the points that qualify, says why of the others, and never a build', () => {
    const base = timed([small]);
    const head = timed([nounset(small)]);
    expect(replayable(base, head, [POINT, 'wc/c/', 'wc/c/bs=65536'])).toEqual({
      replay: [{ point: POINT, base: [small], head: [nounset(small)] }],
      not: [
        { point: 'wc/c/', why: 'a build differs' },
        { point: 'wc/c/bs=65536', why: 'hyperfine does not time it on both sides' },
      ],
    });
  });
});

describe('pointsToPair and pointsToTime', () => {
  const verdict = (over: Partial<TranscriptVerdict['runs']> = {}, exits = { base: 0, head: 0 }): TranscriptVerdict => ({
    bench: ['--profile', 'smoke'],
    runs: {
      same: false,
      alike: 10,
      differences: [{ what: 'hyperfine: …', runs: 2, kind: 'program', points: 2 }],
      more: 0,
      inPoints: [POINT, 'wc/c/bs=65536'],
      replay: [{ point: POINT, base: [small], head: [nounset(small)] }],
      ...over,
    },
    numbers: { same: true, compared: 10, notReplayed: 0, moves: [] },
    harnessLoad: { base: 1, head: 1, bound: 1.5, within: true },
    exits,
    seconds: 10,
  });

  it('pairs the replayed points, and leaves only the others to the timed shift', () => {
    expect(pointsToPair(verdict()).map((r) => r.point)).toEqual([POINT]);
    expect(pointsToTime(verdict())).toEqual(['wc/c/bs=65536']);
    // Every point replayed: nothing left for the timed shift (an empty list, not "every point").
    expect(pointsToTime(verdict({ inPoints: [POINT] }))).toEqual([]);
  });

  it('pairs nothing where the recordings cannot confine the difference to points', () => {
    const { inPoints: _, ...harness } = verdict().runs;
    expect(pointsToPair({ ...verdict(), runs: harness })).toEqual([]);
    expect(pointsToPair(verdict({}, { base: 0, head: 1 }))).toEqual([]);
    expect(pointsToPair({ ...verdict(), harnessLoad: { base: 1, head: 9, bound: 1.5, within: false } })).toEqual([]);
    expect(
      pointsToTime({ ...verdict(), harnessLoad: { base: 1, head: 9, bound: 1.5, within: false } }),
    ).toBeUndefined();
  });
});
