/**
 * The machine's cold-read latency: one 4 KiB read from an evicted file (harness/tools/cold-read.c,
 * built with gcc). Recorded with each run that has cold-cache points, like the CPU model: whether
 * an asynchronous scan beats a blocking one from a cold cache depends on it (a host-cached virtual
 * disk answers in tens of microseconds, an SSD in hundreds, a disk in milliseconds).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { ColdRead } from '../formats/results-format.js';
import { runProcess } from '../lib/exec.js';
import { buildTool } from './tools.js';

export type { ColdRead };

const Line = z.object({
  reads: z.number().int().positive(),
  block_bytes: z.number().int().positive(),
  median_us: z.number().nonnegative(),
  p90_us: z.number().nonnegative(),
});

/** The tool's JSON line as a ColdRead; undefined when it is not one. Pure. */
export function parseColdRead(stdout: string): ColdRead | undefined {
  try {
    const l = Line.parse(JSON.parse(stdout.trim().split('\n').at(-1) ?? ''));
    return { medianMicros: l.median_us, p90Micros: l.p90_us, reads: l.reads, blockBytes: l.block_bytes };
  } catch {
    return undefined;
  }
}

/**
 * Measures in `cacheDir` (where the experiments' generated inputs live, so on their disk). A
 * machine where it cannot be measured records nothing and says why: a condition, not a result.
 */
export async function measureColdRead(
  gcc: string,
  root: string,
  cacheDir: string,
  log: (s: string) => void,
): Promise<ColdRead | undefined> {
  const tool = await buildTool('cold-read', gcc, root, cacheDir, log);
  if (!tool) return undefined;
  const dir = join(cacheDir, 'cold-read');
  mkdirSync(dir, { recursive: true });
  const r = await runProcess([tool, dir]);
  const parsed = r.code === 0 ? parseColdRead(r.stdout) : undefined;
  if (!parsed) log(`cold-read latency not recorded: ${r.stderr.trim() || `cold-read exited ${r.code}`}`);
  return parsed;
}
