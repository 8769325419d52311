// What a sweep still measures of each release: nothing where the store has every suite asked for;
// the suites an entry lacks, added to it, where the same commit measured it (bisection measures one
// experiment of a build at a time); the release again whole where another commit did.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Release } from '../../src/model/release-catalog.js';
import { loadAllExperiments } from '../../src/plan/experiments.js';
import { sweepPlans, withSuites } from '../../src/releases/sweep-plan.js';
import { suiteExperiments } from '../../src/releases/sweeps/sweep.js';
import { ROOT } from '../helpers/cli.js';
import { releaseEntry } from './helpers.js';

const all = suiteExperiments(loadAllExperiments(join(ROOT, 'programs')));
const only = (...ids: string[]) => all.filter((s) => ids.includes(s.id));
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

const release = (version: string, family: 'node' | 'bun' = 'node'): Release => ({
  family,
  version,
  line: family === 'node' ? `node${version.split('.')[0]}` : 'bun',
  date: `2024-0${version.split('.')[1]}-01T00:00:00.000Z`,
  canary: false,
});

describe('sweepPlans', () => {
  const stored = [
    releaseEntry('20.5.0', 100, { experiments: ['wc', 'scan'], commit: A }),
    releaseEntry('20.5.1', 100, { experiments: ['wc'], commit: A }),
    releaseEntry('20.3.1', 100, { experiments: ['records'], commit: B }),
  ];
  const plans = (asked: string[], releases: Release[]) =>
    sweepPlans(releases, only(...asked), all, stored, 'quick', A).map((p) => ({
      version: p.release.version,
      suites: p.suites.map((s) => s.id).sort(),
      keep: p.keep?.version,
    }));

  it('measures a release the store lacks, newest first, and skips one it has with every suite asked for', () => {
    expect(plans(['wc', 'scan'], [release('20.4.0'), release('20.5.0'), release('20.6.0')])).toEqual([
      { version: '20.6.0', suites: ['scan', 'wc'], keep: undefined },
      { version: '20.4.0', suites: ['scan', 'wc'], keep: undefined },
    ]);
  });

  it('adds the suites an entry lacks to it where this commit measured it', () => {
    expect(plans(['scan'], [release('20.5.1')])).toEqual([{ version: '20.5.1', suites: ['scan'], keep: '20.5.1' }]);
  });

  it('measures a release again whole, its stored experiments too, where another commit measured it', () => {
    expect(plans(['wc'], [release('20.3.1')])).toEqual([
      { version: '20.3.1', suites: ['records', 'wc'], keep: undefined },
    ]);
  });

  it('asks a family only for the suites it takes part in (scan has no Bun variant)', () => {
    expect(plans(['scan'], [release('1.4.5', 'bun')])).toEqual([]);
  });
});

describe('withSuites', () => {
  it("adds the new suites' experiments, values, counts and seconds to the stored entry", () => {
    const keep = releaseEntry('20.5.1', 100, {
      experiments: ['wc'],
      seconds: 20,
      countSeconds: 12,
      released: '2023-06-20',
      counters: [
        {
          experiment: 'wc',
          variant: 'readsync',
          params: { bs: 65536 },
          reference: false,
          counts: { 'syscalls.read': [9, 9] },
        },
      ],
    });
    const fresh = releaseEntry('20.5.1', 200, {
      experiments: ['scan'],
      measured: '2026-11-28T02:00:00.000Z',
      problems: ['scan/node-sync/files=100: failed: exit 1'],
      seconds: 30.04,
      work: [
        {
          experiment: 'scan',
          variant: 'node-async',
          params: { files: 100 },
          reference: false,
          counts: { status: 'unavailable', reason: 'valgrind missing' },
        },
      ],
    });
    const got = withSuites(keep, fresh);
    expect(got.experiments).toEqual(['wc', 'scan']);
    expect(got.values.map((v) => v.value)).toEqual([100, 9000, 200, 9000]);
    expect(got.problems).toEqual(['scan/node-sync/files=100: failed: exit 1']);
    expect(got.counters).toEqual(keep.counters);
    expect(got.work).toEqual(fresh.work);
    expect([got.seconds, got.countSeconds, got.released, got.measured]).toEqual([
      50,
      12,
      '2023-06-20',
      '2026-11-28T02:00:00.000Z',
    ]);
  });
});
