// A reduced run reads what the programs printed with its own parser and checks (run/reparse.ts),
// not the measuring run's: on a real job of threadpool's (runner self), from made-up report lines.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExperiment } from '../../src/plan/experiments.js';
import { expand } from '../../src/plan/plan.js';
import { reparsed } from '../../src/run/reparse.js';
import type { RawSamples } from '../../src/run/runner.js';
import { ROOT } from '../helpers/cli.js';
import { jobOf } from '../helpers/jobs.js';

const [point] = expand([loadExperiment(join(ROOT, 'programs', 'threadpool'))], 'smoke', {
  variants: ['c-pool'],
  params: { cache: ['warm'], work: ['read'], pool: [1] },
});
const job = jobOf(point!, { input: { ok: true, dir: '/nowhere', facts: { file_bytes: 1000, files: 10, jobs: 3 } } });
const copies = Number(job.scope.copies);
const fileBytes = Number(job.scope.input_file_bytes);
/** A run's report line as the program prints it: its fields, and its per-file latencies. */
const line = (batchMs: number, bytes = copies * fileBytes) =>
  `${JSON.stringify({ files: copies, bytes, jobs: 0, batch_ms: batchMs, files_per_s: 1, mb_per_s: 1, latency: [1, 2, 3] })}\n`;
const time = (kib: number) => `max_rss_kib=${kib}\nwall_seconds=0.01\nexit_status=0\n`;
const raw = (runs: RawSamples['runs']): RawSamples => ({
  status: 'ok',
  command: 'c-pool',
  timer: 'harness',
  report: { stale: 1 },
  runs,
  maxRssBytes: 1,
  notes: [],
  measuredSeconds: 1,
});

describe('raw samples reduced by another harness', () => {
  it('reads every run again from what the program printed, not from what the measuring run parsed', () => {
    const r = reparsed(
      job,
      raw([
        { wall: 0.1, report: { batch_ms: 999 }, items: {}, output: line(5), time: time(2000) },
        { wall: 0.1, report: { batch_ms: 999 }, items: {}, output: line(7), time: time(3000) },
      ]),
    );
    expect(r.status, r.reason).toBe('ok');
    expect(r.runs.map((x) => x.report?.batch_ms)).toEqual([5, 7]);
    expect(r.runs[0]!.items).toEqual({ latency: [1, 2, 3] });
    expect(r.report.batch_ms).toBe(7);
    expect(r.validation?.ok).toBe(true);
    expect(r.maxRssBytes).toBe(3000 * 1024);
  });

  it('a line this harness cannot read, or whose answer is wrong, fails the benchmark with the reason', () => {
    const unreadable = reparsed(job, raw([{ wall: 0.1, output: 'not json\n' }]));
    expect(unreadable.status).toBe('failed');
    expect(unreadable.reason).toMatch(/^run 1 of 1 \(raw samples\): /);
    const wrong = reparsed(job, raw([{ wall: 0.1, output: line(5, 1) }]));
    expect(wrong.status).toBe('failed');
    expect(wrong.reason).toMatch(/^wrong result in run 1 of 1 \(raw samples\): /);
  });

  it('raw samples kept before the texts were, or of a failed run, are taken as they are', () => {
    const old = raw([{ wall: 0.1, report: { batch_ms: 5 } }]);
    expect(reparsed(job, old)).toBe(old);
    const failed = { ...raw([]), status: 'failed' as const, reason: 'x' };
    expect(reparsed(job, failed)).toBe(failed);
  });
});
