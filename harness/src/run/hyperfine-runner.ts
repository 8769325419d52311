/**
 * Runner "hyperfine": whole-process timing. An untimed run checks the answer first (and takes
 * the program's max RSS with GNU time, its address-space layout fixed where setarch may); only a correct program is timed, by hyperfine; a
 * separate untimed run under strace counts syscalls, so tracing never distorts timing.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeExit } from '../lib/exec.js';
import type { Tools } from '../machine/tools.js';
import { commandLine, type Job } from '../model/job.js';
import {
  checkedRun,
  collector,
  countSyscalls,
  RSS_UNMEASURED,
  runInJob,
  tail,
  timeoutMs,
  verifyEviction,
} from './common.js';
import { prepareStep } from './empty-scratch.js';
import { gatherBySize, interleavedSlots } from './interleave-sizes.js';
import { type HyperfineRun, parseHyperfineJson } from './parse-hyperfine.js';
import type { RawSamples, Runner } from './runner.js';

async function measure(job: Job, tools: Tools): Promise<RawSamples> {
  const c = collector(job, 'hyperfine');
  const skip = await verifyEviction(job);
  if (skip) return c.done('skipped', { reason: skip });
  const work = mkdtempSync(join(tmpdir(), 'jsio-run-'));
  try {
    // 1. Correctness at every size (its own size last), and max RSS of the program alone.
    const sizes = job.sizes ?? [{ scale: 1, scope: job.scope, command: job.command }];
    const checks: Extract<Awaited<ReturnType<typeof checkedRun>>, { ok: true }>[] = [];
    for (const size of sizes) {
      const label = job.sizes ? `at ${size.scale === 1 ? 'its own size' : `scale ${size.scale}`}` : undefined;
      const check = await checkedRun(job, tools, work, label, size, true);
      c.spent(check.seconds);
      if (!check.ok)
        return c.done('failed', {
          reason: check.reason,
          ...(check.validation ? { validation: check.validation } : {}),
          ...(check.fields ? { report: check.fields } : {}),
        });
      checks.push(check);
    }
    const check = checks.at(-1)!;
    const known = {
      validation: check.validation,
      report: check.fields,
      ...(check.maxRssBytes !== undefined ? { maxRssBytes: check.maxRssBytes } : {}),
    };
    if (check.rssNote) c.note(check.rssNote);
    if (!tools.gnuTime) c.note(RSS_UNMEASURED);
    const fitX = job.experiment.manifest.fit?.x;
    // x per size: what the program reported, or (a tool that reports nothing) the expected count.
    const xOf = (i: number) => (fitX ? (checks[i]!.fields[fitX] ?? sizes[i]!.expected) : undefined);
    if (fitX && sizes.some((_, i) => xOf(i) === undefined))
      return c.done('failed', { reason: `the program did not report ${fitX}, which the fit needs`, ...known });

    // 2. Timing: one hyperfine invocation, every size (alternating run by run).
    if (!tools.hyperfine)
      return c.done('failed', { reason: 'hyperfine is not installed (apt-get install hyperfine)', ...known });
    const timed = await timeWithHyperfine(job, tools.hyperfine, work, sizes, c);
    if ('failed' in timed) return c.done('failed', { reason: timed.failed, ...known });
    const runsOf = (i: number) =>
      (timed[i]?.times ?? []).map((wall, j) => ({
        wall,
        ...(timed[i]?.memoryBytes?.[j] !== undefined ? { memoryBytes: timed[i]!.memoryBytes![j]! } : {}),
      }));
    const runs = runsOf(sizes.length - 1);
    const fitted = fitX
      ? sizes.map((size, i) => ({
          scale: size.scale,
          x: xOf(i)!,
          ...(size.bytes !== undefined ? { bytes: size.bytes } : {}),
          runs: runsOf(i),
        }))
      : undefined;

    // 3. Syscalls, untimed.
    const traced = await countSyscalls(job, tools, work);
    c.spent(traced.seconds);
    if (traced.note) c.note(traced.note);
    return c.done('ok', {
      ...known,
      runs,
      ...(fitted ? { sizes: fitted } : {}),
      ...(traced.syscalls ? { syscalls: traced.syscalls } : {}),
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * One hyperfine invocation times every size (they share its warm-ups and conditions): each
 * size's runs, or why hyperfine failed.
 */
export async function timeWithHyperfine(
  job: Pick<Job, 'id' | 'settings' | 'evict' | 'cwd' | 'sandbox' | 'scratch'>,
  hyperfine: string,
  work: string,
  sizes: readonly Pick<Job, 'command'>[],
  c: Pick<ReturnType<typeof collector>, 'spent'>,
): Promise<HyperfineRun[] | { failed: string }> {
  const jsonFile = join(work, 'hyperfine.json');
  const s = job.settings;
  // Several sizes (a fit): one run at a time, alternating (./interleave-sizes.ts); one size: as given.
  const slots = sizes.length > 1 && s.runs > 0 ? interleavedSlots(sizes.length, s.runs, s.warmup) : undefined;
  const command = (i: number) => `set -o pipefail; ${commandLine(sizes[i]!)}`;
  const argv = [
    hyperfine,
    '--shell=bash',
    '--style=none',
    ...(slots ? ['--runs=1', '--warmup=0'] : [`--runs=${s.runs}`, `--warmup=${s.warmup}`]),
    `--export-json=${jsonFile}`,
    // Every run starts with an empty scratch, emptied untimed (hyperfine's prepare step).
    `--prepare=${prepareStep([job.scratch], job.evict)}`,
    ...(slots ? slots.map((slot) => command(slot.size)) : sizes.map((_, i) => command(i))),
  ];
  // hyperfine has no per-run timeout: bound the whole invocation instead.
  const bound = timeoutMs(job) * (s.runs + s.warmup) * sizes.length + 60_000;
  // In the job's sandbox, hyperfine runs inside it: the sandbox's start is never timed.
  const hf = await runInJob(job, argv, bound, work);
  c.spent(hf.seconds);
  if (hf.code !== 0) return { failed: `hyperfine: ${describeExit(hf, bound)}: ${tail(hf.stderr)}` };
  const results = parseHyperfineJson(jsonFile, readFileSync(jsonFile, 'utf8'));
  if (!slots) return results;
  try {
    return gatherBySize(slots, results, mergeRuns);
  } catch (e) {
    // This benchmark fails with the reason; the others go on.
    return { failed: `hyperfine: ${(e as Error).message}` };
  }
}

/** One size's single-run results as one: its runs in order, user and system time averaged over them. */
function mergeRuns(parts: HyperfineRun[]): HyperfineRun {
  const mean = (f: (r: HyperfineRun) => number) => parts.reduce((n, r) => n + f(r), 0) / parts.length;
  const memory = parts.every((r) => r.memoryBytes) ? parts.flatMap((r) => r.memoryBytes!) : undefined;
  return {
    command: parts[0]!.command,
    times: parts.flatMap((r) => r.times),
    exitCodes: parts.flatMap((r) => r.exitCodes),
    ...(memory ? { memoryBytes: memory } : {}),
    userSeconds: mean((r) => r.userSeconds),
    systemSeconds: mean((r) => r.systemSeconds),
  };
}

export const hyperfineRunner: Runner = { measure };
