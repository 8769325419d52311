/**
 * Runner "hyperfine": whole-process timing. An untimed run checks the answer first (and takes
 * the program's max RSS with GNU time); only a correct program is timed, by hyperfine; a
 * separate untimed run under strace counts syscalls, so tracing never distorts timing.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeExit, runProcess } from '../lib/exec.js';
import type { Tools } from '../machine/tools.js';
import { commandLine, type Job } from '../model/job.js';
import { checkedRun, collector, countSyscalls, RSS_UNMEASURED, tail, timeoutMs, verifyEviction } from './common.js';
import { parseHyperfineJson } from './parse-hyperfine.js';
import type { RawSamples, Runner } from './runner.js';

async function measure(job: Job, tools: Tools): Promise<RawSamples> {
  const c = collector(job, 'hyperfine');
  const skip = await verifyEviction(job);
  if (skip) return c.done('skipped', { reason: skip });
  const work = mkdtempSync(join(tmpdir(), 'jsio-run-'));
  try {
    // 1. Correctness, and max RSS of the program alone (not the pipeline).
    const check = await checkedRun(job, tools, work);
    c.spent(check.seconds);
    if (!check.ok)
      return c.done('failed', {
        reason: check.reason,
        ...(check.validation ? { validation: check.validation } : {}),
        ...(check.fields ? { report: check.fields } : {}),
      });
    const known = {
      validation: check.validation,
      report: check.fields,
      ...(check.maxRssBytes !== undefined ? { maxRssBytes: check.maxRssBytes } : {}),
    };
    if (check.rssNote) c.note(check.rssNote);
    if (!tools.gnuTime) c.note(RSS_UNMEASURED);

    // 2. Timing.
    if (!tools.hyperfine)
      return c.done('failed', { reason: 'hyperfine is not installed (apt-get install hyperfine)', ...known });
    const jsonFile = join(work, 'hyperfine.json');
    const s = job.settings;
    const argv = [
      tools.hyperfine,
      '--shell=bash',
      '--style=none',
      `--runs=${s.runs}`,
      `--warmup=${s.warmup}`,
      `--export-json=${jsonFile}`,
      ...(job.evict ? [`--prepare=${job.evict}`] : []),
      `set -o pipefail; ${commandLine(job)}`,
    ];
    // hyperfine has no per-run timeout: bound the whole invocation instead.
    const bound = timeoutMs(job) * (s.runs + s.warmup) + 60_000;
    const hf = await runProcess(argv, { timeoutMs: bound, cwd: job.cwd });
    c.spent(hf.seconds);
    if (hf.code !== 0)
      return c.done('failed', { reason: `hyperfine: ${describeExit(hf, bound)}: ${tail(hf.stderr)}`, ...known });
    const [timed] = parseHyperfineJson(jsonFile, readFileSync(jsonFile, 'utf8'));
    const runs = (timed?.times ?? []).map((wall, i) => ({
      wall,
      ...(timed?.memoryBytes?.[i] !== undefined ? { memoryBytes: timed.memoryBytes[i] } : {}),
    }));

    // 3. Syscalls, untimed.
    const traced = await countSyscalls(job, tools, work);
    c.spent(traced.seconds);
    if (traced.note) c.note(traced.note);
    return c.done('ok', { ...known, runs, ...(traced.syscalls ? { syscalls: traced.syscalls } : {}) });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export const hyperfineRunner: Runner = { measure };
