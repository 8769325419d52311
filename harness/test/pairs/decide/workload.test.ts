// The paired diff's workload: what a point's program is asked to do, the generated input by its
// bytes (not by its generator's text). A point whose workload changed is matched and measured in
// pairs like any other, marked with what changed; nothing is set aside as "not comparable".
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Job } from '../../../src/model/job.js';
import { pairsWorkloadChange } from '../../../src/pairs/decide/workload.js';
import { matchPoints, type PreparedSide } from '../../../src/pairs/engine/diff-sides.js';
import { loadExperiment } from '../../../src/plan/experiments.js';
import { expand, type Point } from '../../../src/plan/plan.js';
import { ROOT } from '../../helpers/cli.js';
import { jobOf } from '../../helpers/jobs.js';

const scan = loadExperiment(join(ROOT, 'programs', 'scan'));
const wc = loadExperiment(join(ROOT, 'programs', 'wc'));
const FACTS = { files: 100, imports: 120, constants: 250, functions: 150, bytes: 40_000, sha256: 'abc' };
const scanPoint = (): Point =>
  expand([scan], 'smoke', { variants: ['c-blocking'], params: { files: [100], cache: ['warm'] } })[0]!;

/** A scan job whose generated input is in `dir`, with these facts and this content digest. */
function scanJob(digest: string, facts: Record<string, number | string> = FACTS, dir = '/cache/inputs/scan/k1'): Job {
  return jobOf(scanPoint(), { input: { ok: true, dir, facts, digest } });
}

describe('the paired workload', () => {
  it('the same bytes from another cache folder (a generator changed only in a comment) are the same workload', () => {
    const base = scanJob('d'.repeat(64), FACTS, '/cache/inputs/scan/base-key');
    const head = scanJob('d'.repeat(64), FACTS, '/cache/inputs/scan/head-key');
    // The store's series key hashes the generator's text; this one does not look at it.
    expect(pairsWorkloadChange(base, head)).toBeUndefined();
  });

  it('other bytes, other reported facts: a changed workload, said by what differs; a check or a placement is none', () => {
    const base = scanJob('d'.repeat(64));
    expect(pairsWorkloadChange(base, scanJob('e'.repeat(64)))).toBe("the generated input's bytes");
    expect(pairsWorkloadChange(base, scanJob('e'.repeat(64), { ...FACTS, bytes: 80_000, sha256: 'def' }))).toBe(
      "input_bytes 40000 → 80000; input_sha256 abc → def; the generated input's bytes",
    );
    const checks: Job = {
      ...scanJob('d'.repeat(64)),
      experiment: { ...scan, manifest: { ...scan.manifest, validate: [] } },
    };
    // What the harness does around the program is judged as usual, never claimed as another workload.
    expect(pairsWorkloadChange(base, checks)).toBeUndefined();
    expect(pairsWorkloadChange(base, { ...base, placement: 'none: elsewhere' })).toBeUndefined();
  });

  it('a runtime is the program, not the workload; a fit compares every size it runs at', () => {
    const wcJob = (bs: number, count?: number): Job => {
      const p = expand([wc], 'smoke', { variants: ['c'], params: { bs: [bs] } })[0]!;
      return jobOf(
        count === undefined ? p : { ...p, smaller: p.smaller.map((s) => ({ ...s, derived: { ...s.derived, count } })) },
      );
    };
    const j = wcJob(4096);
    expect(pairsWorkloadChange(j, { ...j, params: { ...j.params, runtime: 'node22' } })).toBeUndefined();
    expect(pairsWorkloadChange(j, wcJob(4096, 7))).toMatch(/^count@0\.125 \d+ → 7$/);
  });

  it('matching measures a point whose workload changed, marked with what changed; none is set aside', () => {
    const side = (job: Job): PreparedSide => ({
      root: '/x',
      experiments: [scan],
      jobs: [job],
      builds: new Map(),
      toolchains: {},
      commit: 'c',
    });
    const m = matchPoints(side(scanJob('d'.repeat(64))), side(scanJob('e'.repeat(64))), undefined, () => 'affected');
    expect(m.plans).toHaveLength(1);
    expect(m.plans[0]).toMatchObject({
      kind: 'self',
      impact: 'affected',
      workloadChange: "the generated input's bytes",
    });
    expect(m).not.toHaveProperty('incomparable');
    const same = matchPoints(side(scanJob('d'.repeat(64))), side(scanJob('d'.repeat(64))), undefined, () => 'affected');
    expect(same.plans[0]!.workloadChange).toBeUndefined();
  });
});
