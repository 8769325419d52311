/**
 * --profile-cpu: one extra, untimed run of a JavaScript job under a CPU profiler, saving what it
 * wrote. The runtime's own profiler where it has one (V8's --cpu-prof for Node and Deno: a
 * .cpuprofile for DevTools or speedscope), else `perf record -e cpu-clock` (a perf.data and its
 * per-symbol report perf.txt) where the machine permits it. Never part of the timing: profiling
 * slows the program down.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsRuntimes } from '../formats/manifest-format.js';
import { describeExit, runShell, shellQuote } from '../lib/exec.js';
import { fillTemplate } from '../lib/expr.js';
import { paramKey } from '../model/benchmark-id.js';
import { commandLine, type Job } from '../model/job.js';
import { familyOf } from '../model/runtime-families.js';
import { quoteValue, splitAssignments } from '../plan/jobs.js';
import { programEnv } from './program-env.js';

/** Which profiler ran: the runtime's V8 profiler, or perf. */
export type ProfilerTool = 'v8-cpu-prof' | 'perf';
export type ProfileResult =
  | { tool: ProfilerTool; files: string[] /** Why the runtime's own profiler was not the one used. */; note?: string }
  | { tool?: ProfilerTool; reason: string };

/** Where a job's profiles go: <out>/cpuprofiles/<experiment>/<variant>/<k=v,...>/. */
function profileDir(outDir: string, job: Pick<Job, 'experiment' | 'variant' | 'params'>): string {
  return join(
    outDir,
    'cpuprofiles',
    job.experiment.id,
    job.variant.id,
    paramKey(job.params).replace(/[^A-Za-z0-9=,._-]/g, '_') || 'default',
  );
}

/** Whether a job is profiled: a JavaScript job (C variants are the reference, not the subject). */
export function profiles(job: Pick<Job, 'variant' | 'runtime'>): boolean {
  return jsRuntimes(job.variant) !== undefined;
}

/** The profiler a job's runtime gets (model/runtime-families.ts). */
function profilerOf(job: Pick<Job, 'runtime'>): ProfilerTool {
  return familyOf(job.runtime)?.profiler === 'v8-cpu-prof' ? 'v8-cpu-prof' : 'perf';
}

/** The job's program line with the runtime binary replaced (the {runtime} and {js} placeholders). */
function programWith(job: Job, binary: string): string {
  const runtime = String(job.scope.runtime);
  // {js} starts with the quoted runtime binary: the replacement takes its place.
  const js = `${shellQuote(binary)}${String(job.scope.js ?? '').slice(shellQuote(runtime).length)}`;
  const { rest: program } = splitAssignments(
    fillTemplate(job.variant.command, { ...job.scope, runtime: binary, js }, quoteValue),
  );
  return commandLine({ command: { ...job.command, program } });
}

async function run(job: Job, line: string) {
  return runShell(line, { cwd: job.cwd, timeoutMs: job.settings.timeout * 2000, env: programEnv() });
}

/**
 * V8's profiler: the runtime binary becomes a wrapper that adds the flags (Node refuses --cpu-prof
 * in NODE_OPTIONS; Deno takes them only after `run`).
 */
async function v8Profile(job: Job, dir: string): Promise<ProfileResult> {
  const binary = String(job.scope.runtime);
  const after = familyOf(job.runtime)?.profilerAfter ?? 0;
  const kept = Array.from({ length: after }, (_, i) => `a${i}`);
  const wrapper = join(dir, '.cpu-prof');
  writeFileSync(
    wrapper,
    [
      '#!/bin/sh',
      ...kept.map((a) => `${a}=$1; shift`),
      `exec ${shellQuote(binary)} ${kept.map((a) => `"$${a}"`).join(' ')} --cpu-prof --cpu-prof-dir=${shellQuote(dir)} "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(wrapper, 0o755);
  const r = await run(job, programWith(job, wrapper));
  if (r.code !== 0) return { tool: 'v8-cpu-prof', reason: `profiled run ${describeExit(r)}` };
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  return files.length
    ? { tool: 'v8-cpu-prof', files: files.map((f) => join(dir, f)) }
    : { tool: 'v8-cpu-prof', reason: 'the profiled run wrote no .cpuprofile' };
}

/** perf record with the cpu-clock software event (these machines have no hardware counters). */
async function perfProfile(job: Job, dir: string): Promise<ProfileResult> {
  const data = join(dir, 'perf.data');
  const line = `perf record -q -e cpu-clock -o ${shellQuote(data)} -- sh -c ${shellQuote(programWith(job, String(job.scope.runtime)))}`;
  const r = await run(job, line);
  if (r.code === 127) return { tool: 'perf', reason: 'perf is not installed (Debian: linux-perf)' };
  if (r.code !== 0 || !existsSync(data)) {
    const why = `${r.stderr ?? ''}`.split('\n').find((l) => /paranoid|permission|not permitted/i.test(l));
    return {
      tool: 'perf',
      reason: why ? `perf is not permitted here: ${why.trim()} (docs/runners.md)` : `perf record ${describeExit(r)}`,
    };
  }
  const report = await runShell(
    `perf report -i ${shellQuote(data)} --stdio --no-children --sort symbol -F period,sym > ${shellQuote(join(dir, 'perf.txt'))}`,
    { cwd: dir, timeoutMs: 120_000 },
  );
  if (report.code !== 0) return { tool: 'perf', reason: `perf report ${describeExit(report)}` };
  return { tool: 'perf', files: [join(dir, 'perf.txt')] };
}

/** Runs the job once under its profiler; returns the files written, or why there are none. */
export async function profileJob(job: Job, outDir: string): Promise<ProfileResult> {
  if (!profiles(job)) return { reason: 'CPU profiles are taken for JavaScript variants only' };
  if (typeof job.scope.runtime !== 'string') return { reason: 'no runtime binary for this job' };
  const dir = profileDir(outDir, job);
  mkdirSync(dir, { recursive: true });
  if (profilerOf(job) !== 'v8-cpu-prof') return perfProfile(job, dir);
  const v8 = await v8Profile(job, dir);
  if ('files' in v8) return v8;
  // A release whose runtime refuses V8's flags (Deno before it took --cpu-prof) still has perf
  // where the machine permits it; the result says why it was not V8's.
  const perf = await perfProfile(job, dir);
  if ('files' in perf) return { ...perf, note: `V8's --cpu-prof: ${v8.reason}` };
  return { tool: 'v8-cpu-prof', reason: `${v8.reason}; perf instead: ${perf.reason}` };
}
