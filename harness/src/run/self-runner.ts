/**
 * Runner "self": for measurements hyperfine cannot make (the latency of each file inside one
 * program run). The harness runs the command `warmup` times untimed, then `runs` times; each run
 * prints ONE JSON line, checked like any answer. Fields declared with `samples: true` are arrays
 * of per-item values; every other field is one sample per run. The harness times each run's
 * wall clock. Cold jobs evict (verified once) before EVERY run, warm-ups included.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tools } from '../machine/tools.js';
import type { Job } from '../model/job.js';
import {
  checkedRun,
  collector,
  countSyscalls,
  RSS_UNMEASURED,
  residentPages,
  shell,
  tail,
  verifyEviction,
} from './common.js';
import type { RawSamples, Runner } from './runner.js';

async function measure(job: Job, tools: Tools): Promise<RawSamples> {
  const c = collector(job, 'harness');
  const skip = await verifyEviction(job);
  if (skip) return c.done('skipped', { reason: skip });
  const work = mkdtempSync(join(tmpdir(), 'jsio-self-'));
  const s = job.settings;
  let last: Extract<Awaited<ReturnType<typeof checkedRun>>, { ok: true }> | undefined;
  let maxRssBytes: number | undefined;
  try {
    for (let i = 0; i < s.warmup + s.runs; i++) {
      const timed = i >= s.warmup;
      const label = timed ? `run ${i - s.warmup + 1} of ${s.runs}` : `warmup run ${i + 1}`;
      if (job.evict) {
        const ev = await shell(job, job.evict);
        // Verified once above; a later failure means this run would not be cold.
        if (ev.code !== 0)
          return c.done('failed', {
            reason:
              ev.code === 3
                ? `cold cache: eviction before ${label} could not be verified (${residentPages(ev.stdout)})`
                : `cold cache: eviction before ${label} failed (exit ${ev.code}): ${tail(ev.stdout + ev.stderr)}`,
          });
      }
      const run = await checkedRun(job, tools, work, label);
      c.spent(run.seconds);
      if (!run.ok)
        return c.done('failed', {
          reason: run.reason,
          ...(run.validation ? { validation: run.validation } : {}),
          ...(run.fields ? { report: run.fields } : {}),
        });
      last = run;
      if (!timed) continue;
      c.raw.runs.push({
        wall: run.seconds,
        report: run.fields,
        items: run.items,
        output: run.stdout,
        ...(run.time !== undefined ? { time: run.time } : {}),
      });
      if (run.rssNote) c.note(run.rssNote);
      if (run.maxRssBytes !== undefined) maxRssBytes = Math.max(maxRssBytes ?? 0, run.maxRssBytes);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (!tools.gnuTime) c.note(RSS_UNMEASURED);
  // Syscalls, in one more untimed run under strace (never a timed one).
  const traceDir = mkdtempSync(join(tmpdir(), 'jsio-self-strace-'));
  let syscalls: Awaited<ReturnType<typeof countSyscalls>>['syscalls'];
  try {
    const traced = await countSyscalls(job, tools, traceDir);
    c.spent(traced.seconds);
    if (traced.note) c.note(traced.note);
    syscalls = traced.syscalls;
  } finally {
    rmSync(traceDir, { recursive: true, force: true });
  }
  return c.done('ok', {
    report: last?.fields ?? {},
    ...(last ? { validation: last.validation } : {}),
    ...(maxRssBytes !== undefined ? { maxRssBytes } : {}),
    ...(syscalls ? { syscalls } : {}),
  });
}

export const selfRunner: Runner = { measure };
