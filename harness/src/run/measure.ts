/**
 * run: measures one job with the runner its manifest names, in a fresh scratch directory that
 * is removed afterwards. Only correct programs are timed: each runner checks the answer first.
 */
import { mkdirSync, rmSync } from 'node:fs';
import type { Tools } from '../machine/tools.js';
import type { Job } from '../model/job.js';
import { hyperfineRunner } from './hyperfine-runner.js';
import type { RawSamples, Runner } from './runner.js';
import { selfRunner } from './self-runner.js';

const RUNNERS: Record<Job['runner'], Runner> = { hyperfine: hyperfineRunner, self: selfRunner };

/** An empty scratch directory for the job's program (its output files go there). */
export function freshScratch(job: Pick<Job, 'scratch'>): void {
  rmSync(job.scratch, { recursive: true, force: true });
  mkdirSync(job.scratch, { recursive: true });
}

export function removeScratch(job: Pick<Job, 'scratch'>): void {
  rmSync(job.scratch, { recursive: true, force: true });
}

export async function measureJob(job: Job, tools: Tools): Promise<RawSamples> {
  freshScratch(job);
  try {
    return await RUNNERS[job.runner].measure(job, tools);
  } finally {
    removeScratch(job);
  }
}
