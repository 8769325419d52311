// A run that should never have been published (the failed `--param bs=-1` run reached the
// history and the site's Overview, with no documented way out) is removed with
// `npm run publish-run -- --remove SHA`: the store is then what it would be had the run never
// been published, and the rebuilt site no longer shows it.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishRun } from '../../src/store/publish-run.js';
import { dropColumn } from '../../src/store/remove.js';
import { runCli } from '../helpers/cli.js';
import { bench, results, timed } from '../helpers/results.js';
import { catalogOf, indexOf, machinesOf, trendOf } from '../helpers/store.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
function run(sha: string, date: string, value: number) {
  const r = results(
    [
      bench('c', { bs: 4096 }, { wall_time: timed([value, value + 0.1, value + 0.2]) }),
      bench('js', { bs: 4096 }, { wall_time: timed([value * 2, value * 2, value * 2]) }),
    ],
    sha,
  );
  r.run.commit.date = date;
  r.run.end = date;
  return r;
}

describe('publish-run --remove', () => {
  it('leaves the store as if the run had never been published, and the site shows it gone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-remove-'));
    const both = join(dir, 'both');
    const only = join(dir, 'only');
    await publishRun(both, run(A, '2026-11-20T00:00:00Z', 1));
    await publishRun(both, run(B, '2026-11-21T00:00:00Z', 5));
    await publishRun(only, run(A, '2026-11-20T00:00:00Z', 1));

    const r = runCli(['publish-run', '--remove', B.slice(0, 9), '--store', both]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      `removed the smoke run of commit ${B} (machine test-machine) from ${both}; the commit has no run left\n`,
    );
    expect(indexOf(both).commits).toEqual(indexOf(only).commits);
    expect(catalogOf(both, 'smoke').experiments).toEqual(catalogOf(only, 'smoke').experiments);
    expect(catalogOf(both, 'smoke').windows).toEqual(catalogOf(only, 'smoke').windows);
    expect(trendOf(both, 'smoke', 'wc', 'wall_time')).toEqual(trendOf(only, 'smoke', 'wc', 'wall_time'));
    expect(machinesOf(both).machines['test-machine']!.commits).toBe(1);
    expect(existsSync(join(both, 'test-machine', 'runs', B))).toBe(true); // the emptied folder only
    expect(existsSync(join(both, 'test-machine', 'runs', B, 'smoke.json'))).toBe(false);

    const site = join(dir, 'site');
    expect(runCli(['site', '--store', both, '--out', site]).status).toBe(0);
    const shown = JSON.parse(readFileSync(join(site, 'data', 'test-machine', 'index.json'), 'utf8')) as {
      commits: { sha: string }[];
    };
    expect(shown.commits.map((c) => c.sha)).toEqual([A]);
    expect(readFileSync(join(site, 'data', 'test-machine', 'trends', 'smoke', 'catalog.json'), 'utf8')).not.toContain(
      B,
    );
  });

  it('refuses an unknown commit and an ambiguous machine in one line, changing nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-remove-'));
    await publishRun(dir, run(A, '2026-11-20T00:00:00Z', 1));
    const before = readFileSync(join(dir, 'test-machine', 'index.json'), 'utf8');
    const r = runCli(['publish-run', '--remove', 'c'.repeat(12), '--store', dir]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`error: --remove ${'c'.repeat(12)}: no run of that commit for machine test-machine\n`);
    const bad = runCli(['publish-run', '--remove', 'not-a-sha', '--store', dir]);
    expect(bad.stderr).toBe('error: --remove not-a-sha: expected a commit sha (7 to 40 hex digits)\n');
    expect(readFileSync(join(dir, 'test-machine', 'index.json'), 'utf8')).toBe(before);
    writeFileSync(join(dir, 'x.json'), '{}'); // a stray file in the store is not a machine
    expect(runCli(['publish-run', '--remove', A, '--store', dir, '--machine', 'other']).stderr).toBe(
      'error: --machine other: no such machine; the store has test-machine\n',
    );
  });

  it('dropColumn keeps every other column and the program and counts runs aligned', () => {
    const facts = { role: 'decides' as const, deterministic: true, settings: 'as compiled' };
    const shard = {
      schema: 4 as const,
      profile: 'smoke',
      window: '0000',
      experiment: 'wc',
      metric: 'wall_time',
      commits: ['x', 'y', 'z'],
      series: {
        k: {
          id: 'wc/c/bs=1',
          variant: 'c',
          params: { bs: 1 },
          workload: 'w',
          unit: 's',
          direction: 'smaller' as const,
          values: [1, 2, 3],
          ranges: [null, 0.1, null],
          programs: [
            [0, 'p1'],
            [1, 'p2'],
          ] as [number, string | null][],
          counts: [
            [0, facts],
            [1, null],
            [2, { ...facts, deterministic: false }],
          ] as [number, typeof facts | null][],
        },
        gone: {
          id: 'wc/js/bs=1',
          variant: 'js',
          params: { bs: 1 },
          workload: 'w',
          unit: 's',
          direction: 'smaller' as const,
          values: [null, 7, null],
          ranges: [null, null, null],
          programs: [[0, 'q']] as [number, string | null][],
        },
      },
    };
    const out = dropColumn(shard, 'y');
    expect(out.commits).toEqual(['x', 'z']);
    expect(Object.keys(out.series)).toEqual(['k']);
    expect(out.series.k!.values).toEqual([1, 3]);
    expect(out.series.k!.ranges).toEqual([null, null]);
    expect(out.series.k!.programs).toEqual([
      [0, 'p1'],
      [1, 'p2'],
    ]);
    expect(out.series.k!.counts).toEqual([
      [0, facts],
      [1, { ...facts, deterministic: false }],
    ]);
  });
});
