// Which points a run counts given the counts stored under their keys, whether a live re-count
// agrees with a stored one (exact for C, within the tolerance for the others), what the key
// holds, and how the run says it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jobsToCount } from '../../src/counts/count-jobs.js';
import { type CountMachine, countKey, countKeyParts } from '../../src/counts/count-key.js';
import { type Keyed, planReuse, recountAgrees, sameOperations, steadyStored } from '../../src/counts/count-reuse.js';
import { countingSentence } from '../../src/counts/counting-text.js';
import type { StoredCount } from '../../src/formats/count-store-format.js';
import { loadAllExperiments } from '../../src/plan/experiments.js';
import { forgetMeasuredInputs, measuredInputs } from '../../src/plan/identify-inputs.js';
import { expand } from '../../src/plan/plan.js';
import { ROOT } from '../helpers/cli.js';
import { jobOf } from '../helpers/jobs.js';

const point = (id: string, family: string, decides = true): Keyed<string> => ({
  job: id,
  id,
  key: `k-${id}`,
  family,
  decides,
});
const stored = (id: string, family: string, checks = 0): StoredCount => ({
  id: `wc/${id}/bs=1`,
  family,
  runs: [{ size: 'own', instructions: 100 }],
  commit: 'unknown',
  counted: '2026-11-28T00:00:00Z',
  checks,
});

describe('planReuse', () => {
  const points = [point('c1', 'native'), point('c2', 'native'), point('n1', 'node'), point('d1', 'deno', false)];

  it('an empty store counts every point within the budget, and leaves the rest for later', () => {
    const p = planReuse(points, {}, 3);
    expect(p.count.map((x) => x.id)).toEqual(['c1', 'c2', 'n1']);
    expect(p.deferred.map((x) => x.id)).toEqual(['d1']);
    expect(p.reuse).toEqual([]);
    expect(p.recheck).toEqual([]);
  });

  it('stored keys are reused; one point per deciding family is re-checked, the least checked first', () => {
    const s = {
      'k-c1': stored('c1', 'native', 2),
      'k-c2': stored('c2', 'native', 1),
      'k-n1': stored('n1', 'node', 0),
      'k-d1': stored('d1', 'deno', 0),
    };
    const p = planReuse(points, s, 60);
    expect(p.count).toEqual([]);
    expect(p.reuse.map((r) => r.point.id)).toEqual(['c1', 'c2', 'n1', 'd1']);
    // Deno's counts are evidence: nothing of its is re-checked.
    expect(p.recheck.map((r) => r.point.id).sort()).toEqual(['c2', 'n1']);
  });

  it('a point whose stored repeats were not steady never stands for its family (a pipe-fed point)', () => {
    // wc/node-pipe at bs=1024 as stored on the development VM: the reads follow how the kernel
    // splits the pipe (1,322 and 1,264), so the point disagrees with itself run to run.
    const pipe: StoredCount = {
      ...stored('n0', 'node'),
      runs: [
        { size: 'small', instructions: 60_100_000, x: 313 },
        { size: 'large', instructions: 88_400_000, x: 1_322 },
        { size: 'large', instructions: 86_600_000, x: 1_264 },
      ],
    };
    const steady: StoredCount = {
      ...stored('n1', 'node', 3),
      runs: [
        { size: 'small', instructions: 60_100_000, x: 256 },
        { size: 'large', instructions: 90_000_000, x: 1_024 },
        { size: 'large', instructions: 90_010_000, x: 1_024 },
      ],
    };
    const nodes = [point('n0', 'node'), point('n1', 'node')];
    const p = planReuse(nodes, { 'k-n0': pipe, 'k-n1': steady }, 60);
    // n0 is the least checked, yet n1 is re-checked.
    expect(p.recheck.map((r) => r.point.id)).toEqual(['n1']);
    expect(p.unchecked).toEqual([]);
    // A family with no steady point is reused unchecked, and said so.
    const only = planReuse([point('n0', 'node')], { 'k-n0': pipe }, 60);
    expect(only.recheck).toEqual([]);
    expect(only.unchecked).toEqual(['node']);
  });

  it('a key the store does not hold is counted even when its point has another stored', () => {
    const p = planReuse([{ ...point('c1', 'native'), key: 'new' }], { 'k-c1': stored('c1', 'native') }, 60);
    expect(p.count.map((x) => x.id)).toEqual(['c1']);
  });
});

describe('recountAgrees', () => {
  const runs = (small: number, large: number) => [
    { size: 'small' as const, instructions: small, x: 256 },
    { size: 'large' as const, instructions: large, x: 1024 },
    { size: 'large' as const, instructions: large, x: 1024 },
  ];
  it('C: only the very same counts agree', () => {
    expect(recountAgrees('native', runs(137_259, 150_315), runs(137_259, 150_315))).toBe(true);
    expect(recountAgrees('native', runs(137_259, 150_315), runs(137_259, 150_316))).toBe(false);
  });
  it("C whose stored repeats differ (records' writes): within the tolerance, not to the instruction", () => {
    const own = (...xs: number[]) => xs.map((instructions) => ({ size: 'own' as const, instructions }));
    expect(recountAgrees('native', own(160_928, 160_972), own(160_968, 160_991))).toBe(true);
    expect(recountAgrees('native', own(160_928, 160_972), own(170_000, 170_000))).toBe(false);
    expect(recountAgrees('native', own(160_928, 160_928), own(160_968, 160_968))).toBe(false);
  });
  it('C that declares how far a run moves (countsVary): within that, whether its stored repeats agreed by chance or not', () => {
    const own = (...xs: number[]) => xs.map((instructions) => ({ size: 'own' as const, instructions }));
    // The stored repeats agreed by chance (the measured times printed alike); the re-check printed others.
    expect(recountAgrees('native', own(517_695, 517_695), own(517_830, 517_596), 5000)).toBe(true);
    expect(recountAgrees('native', own(517_695, 517_695), own(523_000, 523_000), 5000)).toBe(false);
    // Tighter than the 1 % tolerance: 1 % of 517,695 would let 5,176 through.
    expect(recountAgrees('native', own(517_695, 517_601), own(522_800, 522_800), 5000)).toBe(false);
  });
  it('every C program whose counts decide and that prints a float (a time it measured) declares countsVary', () => {
    const experiments = loadAllExperiments(join(ROOT, 'programs'));
    const printsFloat = experiments.flatMap((e) =>
      e.manifest.variants
        .filter((v) => v.runtime === 'native' && v.source && !(v.countsEvidence ?? e.manifest.countsEvidence))
        .filter((v) => /printf\([^;]*%[0-9.]*f/.test(readFileSync(join(ROOT, 'programs', e.id, v.source!), 'utf8')))
        .map((v) => `${e.id}/${v.id}: ${v.countsVary ? 'declared' : 'not declared'}`),
    );
    expect(printsFloat.sort()).toEqual(['records/c: declared', 'scan/c-blocking: declared']);
  });
  it("declaring countsVary re-keys no count: it is not part of a point's identity", () => {
    const point = expand(loadAllExperiments(join(ROOT, 'programs')), 'smoke', {
      experiments: ['records'],
      variants: ['c'],
    })[0]!;
    expect(point.variant.countsVary?.instructions).toBe(5000);
    const declared = measuredInputs(point);
    forgetMeasuredInputs();
    const { countsVary: _v, ...variant } = point.variant;
    const undeclared = measuredInputs({ ...point, variant });
    forgetMeasuredInputs();
    const other = measuredInputs({ ...point, variant: { ...variant, command: `${variant.command} ` } });
    forgetMeasuredInputs();
    expect(declared.ok && undeclared.ok && other.ok).toBe(true);
    if (declared.ok && undeclared.ok && other.ok) {
      expect(undeclared.digest).toBe(declared.digest);
      // The comparison can fail: a change of what runs is another identity.
      expect(other.digest).not.toBe(declared.digest);
    }
  });
  it('the others: within the 1 % tolerance of each size', () => {
    expect(recountAgrees('node', runs(138_354_959, 141_000_000), runs(138_355_115, 141_000_100))).toBe(true);
    expect(recountAgrees('node', runs(138_354_959, 141_000_000), runs(138_354_959, 143_000_000))).toBe(false);
  });
  it('different sizes counted never agree', () => {
    expect(recountAgrees('node', [{ size: 'own', instructions: 5 }], runs(5, 5))).toBe(false);
  });
});

describe('sameOperations', () => {
  const reads = (small: number, large: number) => [
    { size: 'small' as const, instructions: 1, x: small },
    { size: 'large' as const, instructions: 2, x: large },
    { size: 'large' as const, instructions: 3, x: large },
  ];
  it('compares the operations made at each counted size, not the totals', () => {
    expect(sameOperations(reads(313, 1255), reads(313, 1255))).toBe(true);
    expect(sameOperations(reads(313, 1255), reads(313, 1267))).toBe(false);
    expect(sameOperations([{ size: 'own', instructions: 5 }], [{ size: 'own', instructions: 9 }])).toBe(true);
  });
});

describe('steadyStored', () => {
  const own = (...xs: number[]) => xs.map((instructions) => ({ size: 'own' as const, instructions }));
  it('C: repeats to the instruction, or within what it declares (countsVary)', () => {
    expect(steadyStored('native', own(160_928, 160_928))).toBe(true);
    expect(steadyStored('native', own(160_928, 160_972))).toBe(false);
    expect(steadyStored('native', own(160_928, 160_972), 500)).toBe(true);
  });
  it('the others: repeats within half the tolerance, and the same operations at each size', () => {
    expect(steadyStored('node', own(100_000_000, 100_400_000))).toBe(true);
    expect(steadyStored('node', own(100_000_000, 100_600_000))).toBe(false);
    const largeRuns = (x2: number) => [
      { size: 'large' as const, instructions: 100_000_000, x: 1_024 },
      { size: 'large' as const, instructions: 100_000_000, x: x2 },
    ];
    expect(steadyStored('node', largeRuns(1_024))).toBe(true);
    expect(steadyStored('node', largeRuns(1_025))).toBe(false);
  });
});

describe('countKey', () => {
  const job = jobsToCount(
    expand(loadAllExperiments(join(ROOT, 'programs')), 'smoke', { experiments: ['wc'] }).map((p) => jobOf(p)),
    'headline',
  ).find((j) => j.runtime.startsWith('node'))!;
  const machine: CountMachine = {
    valgrind: '3.19.0',
    glibc: '2.36',
    kernel: '6.18.44',
    cpu: 'GenuineIntel 000306c3 7ffafbff bfebfbff 000427aa 00000000 00000000',
    onlineCpus: 2,
  };
  const digests = { [job.scope.runtime as string]: 'aaaa' };
  const key = countKey(countKeyParts(job, machine, digests));

  it('holds the runtime binary’s digest, the CPU Valgrind presents, the CPUs, the environment and the settings', () => {
    const parts = countKeyParts(job, machine, digests);
    expect(parts).toMatchObject({
      definition: job.definition,
      workload: job.workload,
      settings: job.counting!.settings,
    });
    expect(countKey(countKeyParts(job, machine, { [job.scope.runtime as string]: 'bbbb' }))).not.toBe(key);
    expect(countKey(countKeyParts(job, { ...machine, cpu: `${machine.cpu.slice(0, -1)}1` }, digests))).not.toBe(key);
    expect(countKey(countKeyParts(job, { ...machine, onlineCpus: 4 }, digests))).not.toBe(key);
    expect(countKey(countKeyParts(job, { ...machine, valgrind: '3.20.0' }, digests))).not.toBe(key);
    const env = { ...job, counting: { ...job.counting!, env: { ...job.counting!.env, X: '1' } } };
    expect(countKey(countKeyParts(env, machine, digests))).not.toBe(key);
  });

  it('leaves out the CPU pinning: the same count on any core', () => {
    const pinned = {
      ...job,
      counting: { ...job.counting!, command: { ...job.counting!.command, pin: 'taskset -c 1 ' } },
    };
    expect(countKey(countKeyParts(pinned, machine, digests))).toBe(key);
  });
});

describe('countingSentence', () => {
  const base = { store: 'reused', reused: 19, counted: 1, deferred: 0, budget: 60, rechecked: [], dropped: [] };
  it('says reused, counted, re-checked, left for later and dropped', () => {
    expect(countingSentence(base)).toBe(
      'Counted work: 19 points took the count stored under their key, 1 point counted by this run.',
    );
    const s = countingSentence({
      ...base,
      deferred: 340,
      rechecked: [{ id: 'wc/c/bs=65536', family: 'native', agreed: false }],
      dropped: ['native'],
    });
    expect(s).toContain(
      '340 points with a new key left for a later run (the budget of 60 new points per run was spent)',
    );
    expect(s).toContain('re-checked live: 0 of 1 agreed with the store');
    expect(s).toContain('a re-count disagreed with the stored counts of native');
    expect(
      countingSentence({
        ...base,
        rechecked: [
          { id: 'wc/node-pipe/bs=1024,runtime=node24', family: 'node', agreed: false, otherWork: true },
          { id: 'wc/c/bs=65536', family: 'native', agreed: true },
        ],
      }),
    ).toContain(
      're-checked live: 1 of 1 agreed with the store; not compared: wc/node-pipe/bs=1024,runtime=node24 (node) made another number of operations live than stored',
    );
    expect(countingSentence({ ...base, unchecked: ['node'] })).toContain(
      'not re-checked: node (no stored point of that family repeated steadily enough to stand for it)',
    );
    expect(countingSentence({ ...base, store: 'not reused: --recount', reused: 0 })).toContain(
      '(stored counts not reused: --recount)',
    );
  });
});
