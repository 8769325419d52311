/**
 * --profile-cpu: one extra, untimed run of a Node.js point with V8's sampling profiler
 * (node --cpu-prof), saving .cpuprofile files for DevTools or speedscope. Never part of the
 * timing: profiling slows the program down.
 */
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeExit, runProcess } from '../lib/exec.js';
import type { Scope } from '../lib/expr.js';
import type { Point } from '../plan/plan.js';
import { paramKey } from '../model/results.js';
import { quote } from 'shell-quote';
import { composeCommand, type Tools } from './hyperfine-runner.js';

/** Where a point's profiles go: <out>/cpuprofiles/<experiment>/<variant>/<k=v,...>/. */
export function profileDir(outDir: string, point: Point): string {
  return join(outDir, 'cpuprofiles', point.experiment.id, point.variant.id, paramKey(point.params).replace(/[^A-Za-z0-9=,._-]/g, '_') || 'default');
}

/** Runs the point once under --cpu-prof; returns the files written, or why there are none. */
export async function profilePoint(point: Point, scope: Scope, tools: Tools, outDir: string): Promise<{ files: string[] } | { reason: string }> {
  if (point.variant.runtime !== 'node') return { reason: 'CPU profiles are taken for Node.js variants only (--cpu-prof)' };
  const node = scope.node;
  if (typeof node !== 'string') return { reason: 'no node binary for this point' };
  const dir = profileDir(outDir, point);
  mkdirSync(dir, { recursive: true });
  // Node refuses --cpu-prof in NODE_OPTIONS: {node} becomes a wrapper that adds the flags.
  const wrapper = join(dir, '.node-cpu-prof');
  writeFileSync(wrapper, `#!/bin/sh\nexec ${quote([node, '--cpu-prof', `--cpu-prof-dir=${dir}`])} "$@"\n`);
  chmodSync(wrapper, 0o755);
  const r = await runProcess(['bash', '-c', `set -o pipefail; ${composeCommand(point, { ...scope, node: wrapper }, '', tools.pin)}`], {
    cwd: point.experiment.dir,
    timeoutMs: point.settings.timeout * 2000,
  });
  if (r.code !== 0) return { reason: `profiled run ${describeExit(r)}` };
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  return files.length ? { files: files.map((f) => join(dir, f)) } : { reason: 'the profiled run wrote no .cpuprofile' };
}
