// Counted work, as a user runs it: `npm run bench` counts each chosen point's user-space
// instructions under the real Valgrind, with the runtime's deterministic settings, and writes
// them beside the timings; a fit's count per operation cancels start-up. Without a working
// Valgrind the timings are all still written and the counts say why they are missing.
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { countJobs, jobsToCount } from '../../src/counts/count-jobs.js';
import type { Results } from '../../src/formats/results-format.js';
import { loadAllExperiments } from '../../src/plan/experiments.js';
import { expand } from '../../src/plan/plan.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { jobOf } from '../helpers/jobs.js';

const read = (out: string) => JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
const bench = (out: string, flags: string[], env: NodeJS.ProcessEnv = {}) =>
  runCli(
    ['bench', '--profile', 'smoke', '--experiments', 'wc', '--param', 'bs=65536', '--out', out, '--no-store', ...flags],
    env,
  );

describe('bench counts the work of its points', () => {
  let results: Results;
  beforeAll(() => {
    const out = mkdtempSync(join(tmpdir(), 'jsio-counts-'));
    const r = bench(out, ['--variants', 'c,readsync', '--param', 'runtime=node20,node22', '--counts', 'all']);
    expect(r.status, r.stderr).toBe(0);
    results = read(out);
  });

  it('C: instructions per read from two sizes, repeats identical, the decision its own', () => {
    const c = results.benchmarks.find((b) => b.variant === 'c')!;
    expect(c.counts).toMatchObject({ status: 'ok', role: 'decides', deterministic: true, spread: 0 });
    // A read() loop: the call, the loop and the add, a few tens of instructions per read.
    expect(c.metrics.instructions_per_op?.value).toBeGreaterThan(5);
    expect(c.metrics.instructions_per_op?.value).toBeLessThan(100);
    // A fit's count per run would depend on the counted size: only the count per operation is kept.
    expect(c.metrics.instructions).toBeUndefined();
    expect(c.metrics.instructions_per_op?.source).toBe('valgrind');
  });

  it("Node: under V8's predictable settings, repeated counts agree within the tolerance; Node 20's are evidence", () => {
    const node = results.benchmarks.find((b) => b.variant === 'readsync' && b.params.runtime === 'node22')!;
    expect(node.counts?.status).toBe('ok');
    if (node.counts?.status !== 'ok') return;
    expect(node.counts.settings).toContain('--predictable');
    expect(node.counts.spread).toBeLessThanOrEqual(node.counts.tolerance);
    expect(node.counts).toMatchObject({ deterministic: true, role: 'decides' });
    // Hundreds to thousands of instructions per read: the loop, the binding, the buffer.
    expect(node.metrics.instructions_per_op?.value).toBeGreaterThan(100);
    const node20 = results.benchmarks.find((b) => b.variant === 'readsync' && b.params.runtime === 'node20')!;
    expect(node20.counts).toMatchObject({ status: 'ok', role: 'evidence' });
    expect(node20.counts?.status === 'ok' && node20.counts.because).toMatch(/Node 20/);
    expect(results.run.toolchains.valgrind).toMatch(/^\d+\.\d+/);
    expect(results.run.toolchains.glibc).toMatch(/\d+\.\d+/);
  });

  it('a Valgrind that fails: counts unavailable with the reason, every timing still written, exit 0', () => {
    const bin = mkdtempSync(join(tmpdir(), 'jsio-fakebin-'));
    writeFileSync(join(bin, 'valgrind'), '#!/bin/sh\necho "valgrind: broken on purpose" >&2\nexit 1\n');
    chmodSync(join(bin, 'valgrind'), 0o755);
    const out = mkdtempSync(join(tmpdir(), 'jsio-counts-'));
    const r = bench(out, ['--variants', 'c'], {
      PATH: `${bin}:${process.env.PATH}`,
      JSIO_TOOL_DIRS: `${bin}:/usr/local/bin:/usr/bin:/bin`,
    });
    expect(r.status, r.stderr).toBe(0);
    const c = read(out).benchmarks[0]!;
    expect(c.status).toBe('ok');
    expect(c.metrics.wall_time?.samples?.length).toBeGreaterThan(0);
    expect(c.counts).toMatchObject({ status: 'unavailable' });
    expect(c.counts?.status === 'unavailable' && c.counts.reason).toMatch(
      /counts unavailable: the run under valgrind .*broken on purpose/,
    );
  });

  it('a program that writes its output file counts in a scratch folder of its own', () => {
    const out = mkdtempSync(join(tmpdir(), 'jsio-counts-'));
    const r = runCli([
      ...['bench', '--profile', 'smoke', '--experiments', 'records', '--variants', 'c', '--param', 'op=write'],
      ...['--param', 'record=4096', '--param', 'cache=warm', '--counts', 'all', '--out', out, '--no-store'],
    ]);
    expect(r.status, r.stderr).toBe(0);
    const b = read(out).benchmarks[0]!;
    expect(b.counts, JSON.stringify(b.counts)).toMatchObject({ status: 'ok', deterministic: true });
    expect(b.metrics.instructions?.value).toBeGreaterThan(0);
  });

  it('--counts none counts nothing; a bad --counts is refused before anything runs', () => {
    const out = mkdtempSync(join(tmpdir(), 'jsio-counts-'));
    expect(bench(out, ['--variants', 'c', '--counts', 'none']).status).toBe(0);
    expect(read(out).benchmarks[0]!.counts).toBeUndefined();
    const bad = bench(mkdtempSync(join(tmpdir(), 'jsio-counts-')), ['--counts', 'some']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--counts some: expected headline, all, none/);
  });
});

describe('which points bench counts by default, and without Valgrind', () => {
  const jobs = () => expand(loadAllExperiments(join(ROOT, 'programs')), 'quick', {}).map((p) => jobOf(p));

  it('headline: one headline point per runtime family in each experiment', () => {
    const chosen = jobsToCount(jobs(), 'headline');
    const wc = chosen.filter((j) => j.experiment.id === 'wc');
    expect(wc.every((j) => j.params.bs === 65536)).toBe(true);
    expect(
      new Set(wc.map((j) => (j.variant.build?.kind === 'just-static' ? 'just-static' : j.runtime.split('@')[0]))),
    ).toEqual(new Set(['gcc', 'node', 'bun', 'deno', 'just', 'just-static', 'wc']));
    expect(chosen.length).toBeLessThan(jobs().length / 10);
    expect(jobsToCount(jobs(), 'none')).toEqual([]);
  });

  it('without valgrind every chosen point says how to install it, and nothing runs', async () => {
    const seen: string[] = [];
    await countJobs(jobsToCount(jobs(), 'headline').slice(0, 3), {}, { count: 2 }, (_j, w) =>
      seen.push(w.counts.status === 'unavailable' ? w.counts.reason : 'ran'),
    );
    expect(seen).toEqual(Array(3).fill('instructions not counted: valgrind missing (apt-get install valgrind)'));
  });
});
