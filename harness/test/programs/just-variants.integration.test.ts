// Every just(js) variant of every experiment, for real, through the harness CLI at smoke size:
// built (`just build --clean --static` for the static app), run, validated against what the
// generator sent, and measured. The run is the tests' shared smoke run of every experiment
// (helpers/shared-smoke.ts), which runs every just(js) variant where just(js) is installed. Under
// CI=true a machine without just(js) fails; elsewhere, without just(js), this file is skipped with
// how to get it.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseResults } from '../../src/formats/read-results.js';
import type { Results } from '../../src/formats/results-format.js';
import { justInstalled, justVariants } from '../helpers/just.js';
import { SHARED_SMOKE_TIMEOUT_MS, sharedResultsFile, sharedSmokeRun } from '../helpers/shared-smoke.js';

const inCi = Boolean(process.env.CI) && process.env.CI !== 'false';
const just = justInstalled();
const variants = justVariants();
const HOW_TO_GET_IT =
  'just(js) is not installed (no `just` in $JUST_HOME or in a root-owned system folder): build it with ../shared/just/build.sh where that folder exists ' +
  '(`npm test` does it by itself there), or `npm run install-just -- [--system] 0.1.13 ~/.cache/jsio-just` (docs/runners.md)';

if (!just && !inCi) {
  process.stderr.write(`just-variants.integration: skipped: ${HOW_TO_GET_IT}\n`);
  describe('just(js) variants', () => {
    it.skip(HOW_TO_GET_IT, () => {});
  });
}

describe.skipIf(!just && !inCi)('every just(js) variant, run and validated through the harness', () => {
  let results: Results;
  type Bench = Results['benchmarks'][number];
  const ofExperiment = (e: string) => results.benchmarks.filter((b) => b.experiment === e);

  beforeAll(async () => {
    const run = await sharedSmokeRun();
    expect(run.status, run.stderr.slice(-3000)).toBe(0);
    const all = parseResults('results.json', readFileSync(sharedResultsFile(run), 'utf8'));
    // The just(js) variants' part of the run: what a run of those variants alone holds.
    results = { ...all, benchmarks: all.benchmarks.filter((b) => variants.get(b.experiment)?.includes(b.variant)) };
    // A machine without just(js) skips them (the run does not require it): that fails here, with how to get it.
    const skipped = results.benchmarks.filter((b) => b.status === 'skipped').map((b) => `${b.id}: ${b.reason}`);
    expect(skipped, just ? '' : HOW_TO_GET_IT).toEqual([]);
  }, SHARED_SMOKE_TIMEOUT_MS);

  it('covers wc (sync, async, static app), records and scan', () => {
    expect(Object.fromEntries(variants)).toMatchObject({
      wc: ['just-sync', 'just-async', 'just-static'],
      records: ['just-sync'],
      scan: ['just-sync'],
    });
    for (const [experiment, ids] of variants)
      expect(new Set(ofExperiment(experiment).map((b) => b.variant)), experiment).toEqual(new Set(ids));
  });

  it('measures every point: status ok, every validation check passed and not skipped', () => {
    expect(
      results.benchmarks.filter((b) => b.status !== 'ok').map((b) => `${b.id}: ${b.status} ${b.reason ?? ''}`),
    ).toEqual([]);
    for (const b of results.benchmarks) {
      expect(b.validation?.ok, b.id).toBe(true);
      for (const c of b.validation?.checks ?? []) {
        expect(c.ok, `${b.id} ${c.field}`).toBe(true);
        // The only check that does not apply somewhere: records' checksum, for writes.
        if (c.skipped) expect(`${b.experiment} ${String(b.params.op)} ${c.field}`).toBe('records write checksum');
      }
      expect(b.metrics.wall_time?.samples?.length, b.id).toBeGreaterThan(0);
      expect(b.metrics.max_rss?.value, b.id).toBeGreaterThan(0);
    }
  });

  it('records which just(js) and which V8 ran', () => {
    expect(results.run.toolchains.just).toMatch(/^0\.1\.13 \(V8 \d+\.\d+\.[\w.-]+\)$/);
  });

  it('wc: every byte piped is counted, in at least one read per block', () => {
    const wc = ofExperiment('wc');
    expect(wc).toHaveLength(6);
    for (const b of wc) {
      const bytes = b.validation?.checks.find((c) => c.field === 'bytes');
      expect(bytes, b.id).toMatchObject({ seen: b.derived.bytes, expected: b.derived.bytes });
      expect(b.derived.bytes).toBe(16777216);
      expect(b.metrics.reads?.value, b.id).toBeGreaterThanOrEqual(b.derived.min_reads!);
      expect(b.metrics['syscalls.read']?.value, b.id).toBeGreaterThan(b.metrics.reads!.value);
    }
  });

  it('wc just-async waits on epoll once per read; the sync variants never do', () => {
    for (const b of ofExperiment('wc')) {
      const waits = (b.metrics['syscalls.epoll_wait']?.value ?? 0) + (b.metrics['syscalls.epoll_pwait']?.value ?? 0);
      if (b.variant === 'just-async') expect(waits, b.id).toBeGreaterThanOrEqual(b.metrics.reads!.value);
      else expect(waits, b.id).toBe(0);
    }
  });

  it('wc just-static is a binary built by `just build --clean --static` with the program as its entry point', () => {
    for (const b of ofExperiment('wc').filter((x) => x.variant === 'just-static')) {
      expect(b.build).toMatchObject({
        kind: 'just-static',
        compiler: expect.stringMatching(/^just 0\.1\.13/),
        flags: expect.arrayContaining(['--clean', '--static']),
      });
      expect(b.command).not.toMatch(/\.js\b/); // the binary runs alone, no script
    }
  });

  it('records: reads match the generator’s checksum; writes report the file size after fsync', () => {
    const recs = ofExperiment('records');
    expect(recs.map((b) => `${b.params.op}/${b.params.cache}`).sort()).toEqual([
      'read/cold',
      'read/cold',
      'read/warm',
      'read/warm',
      'write/warm',
      'write/warm',
    ]);
    const seen = (b: Bench, f: string) => b.validation?.checks.find((c) => c.field === f)?.seen;
    for (const b of recs) {
      expect(seen(b, 'records'), b.id).toBe(b.derived.records);
      expect(seen(b, 'bytes'), b.id).toBe(b.derived.bytes);
      expect(b.metrics.io_seconds?.value, b.id).toBeGreaterThan(0);
      if (b.params.op === 'read') expect(seen(b, 'checksum'), b.id).toBe(b.derived.input_sum32);
      else expect(b.metrics.fsync_seconds?.value, b.id).toBeGreaterThan(0);
    }
  });

  it('scan: files, imports, constants and functions equal the generator’s', () => {
    const scan = ofExperiment('scan');
    expect(scan).toHaveLength(4);
    for (const b of scan) {
      for (const f of ['files', 'imports', 'constants', 'functions']) {
        expect(b.validation?.checks.find((c) => c.field === f)?.seen, `${b.id} ${f}`).toBe(b.derived[`input_${f}`]);
      }
    }
  });
});
