/**
 * Cold-cache points: the evict command for a point (harness/tools/evict.c on the manifest's
 * paths) and the one-off check that eviction really works here before any cold number is taken.
 * Shared by every runner.
 */
import { quote } from 'shell-quote';
import type { ProcessResult } from '../lib/exec.js';
import { fillTemplate, type Scope } from '../lib/expr.js';
import type { Point } from '../plan/plan.js';
import { matchesAt } from '../model/select.js';

export type EvictPlan = { kind: 'none' } | { kind: 'unavailable'; reason: string } | { kind: 'evict'; command: string };

const tail = (s: string) => s.trim().split('\n').slice(-5).join(' | ').slice(0, 400);

/** What a point needs: nothing (warm), the shell command that evicts its paths, or a reason it cannot. */
export function evictPlan(point: Point, scope: Scope, evictTool: string | undefined): EvictPlan {
  const m = point.experiment.manifest;
  if (!m.evict || !matchesAt(point, m.evict.when)) return { kind: 'none' };
  if (!evictTool) return { kind: 'unavailable', reason: 'cold cache: the page-cache evictor could not be built (is gcc installed? apt-get install gcc)' };
  const q = (s: string) => quote([s]);
  return { kind: 'evict', command: [evictTool, ...m.evict.paths.map((p) => fillTemplate(p, scope, q))].map((s, i) => (i === 0 ? q(s) : s)).join(' ') };
}

/**
 * Runs the evict command once; returns why the point must be skipped, or undefined when the
 * pages were verified gone (evict exits 3 when mincore still sees resident pages).
 */
export async function verifyEviction(command: string, bash: (cmd: string) => Promise<ProcessResult>): Promise<string | undefined> {
  const ev = await bash(command);
  if (ev.code === 3) return `cold cache: eviction could not be verified (pages still resident: ${ev.stdout.trim()})`;
  if (ev.code !== 0) return `cold cache: eviction failed: ${describeFailure(ev)}`;
  return undefined;
}

function describeFailure(ev: ProcessResult): string {
  return tail(ev.stderr) || `exit status ${ev.code ?? ev.signal}`;
}
