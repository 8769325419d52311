/**
 * --profile-cpu: one extra, untimed run of a Node.js job with V8's sampling profiler
 * (node --cpu-prof), saving .cpuprofile files for DevTools or speedscope. Never part of the
 * timing: profiling slows the program down.
 */
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeExit, runShell, shellQuote } from '../lib/exec.js';
import { fillTemplate } from '../lib/expr.js';
import { paramKey } from '../model/benchmark-id.js';
import { commandLine, type Job } from '../model/job.js';
import { jsRuntimes } from '../model/manifest.js';
import { familyOf, runtimeFamilies } from '../model/runtime-families.js';
import { quoteValue, splitAssignments } from '../plan/jobs.js';
import { programEnv } from './program-env.js';

/** Where a job's profiles go: <out>/cpuprofiles/<experiment>/<variant>/<k=v,...>/. */
export function profileDir(outDir: string, job: Pick<Job, 'experiment' | 'variant' | 'params'>): string {
  return join(
    outDir,
    'cpuprofiles',
    job.experiment.id,
    job.variant.id,
    paramKey(job.params).replace(/[^A-Za-z0-9=,._-]/g, '_') || 'default',
  );
}

/** Whether a JavaScript job's runtime family has the profiler this module takes (model/runtime-families.ts). */
export function profiles(job: Pick<Job, 'variant' | 'runtime'>): boolean {
  return jsRuntimes(job.variant) !== undefined && familyOf(job.runtime)?.profiler === 'v8-cpu-prof';
}

/** Runs the job once under --cpu-prof; returns the files written, or why there are none. */
export async function profileJob(job: Job, outDir: string): Promise<{ files: string[] } | { reason: string }> {
  if (!profiles(job)) {
    const names = runtimeFamilies()
      .filter((f) => f.profiler === 'v8-cpu-prof')
      .map((f) => f.name);
    return { reason: `CPU profiles are taken for ${names.join(' and ')} variants only (--cpu-prof)` };
  }
  const node = job.scope.runtime;
  if (typeof node !== 'string') return { reason: 'no node binary for this job' };
  const dir = profileDir(outDir, job);
  mkdirSync(dir, { recursive: true });
  // Node refuses --cpu-prof in NODE_OPTIONS: the node binary becomes a wrapper that adds the flags.
  const wrapper = join(dir, '.node-cpu-prof');
  writeFileSync(
    wrapper,
    `#!/bin/sh\nexec ${[node, '--cpu-prof', `--cpu-prof-dir=${dir}`].map(shellQuote).join(' ')} "$@"\n`,
  );
  chmodSync(wrapper, 0o755);
  // {js} starts with the quoted node binary: the wrapper takes its place.
  const js = `${shellQuote(wrapper)}${String(job.scope.js ?? '').slice(shellQuote(node).length)}`;
  const { rest: program } = splitAssignments(
    fillTemplate(job.variant.command, { ...job.scope, runtime: wrapper, js }, quoteValue),
  );
  const r = await runShell(commandLine({ command: { ...job.command, program } }), {
    cwd: job.cwd,
    timeoutMs: job.settings.timeout * 2000,
    env: programEnv(),
  });
  if (r.code !== 0) return { reason: `profiled run ${describeExit(r)}` };
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  return files.length ? { files: files.map((f) => join(dir, f)) } : { reason: 'the profiled run wrote no .cpuprofile' };
}
