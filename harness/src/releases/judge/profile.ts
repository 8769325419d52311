/**
 * What a profile says about a change: the self time of each function under one release, from a
 * V8 .cpuprofile (Node's and Deno's --cpu-prof) or from `perf report`'s per-symbol table, and the
 * functions whose self time changed most between the two releases. Pure: running the profilers is
 * releases/sweeps/profile-change.ts's.
 */
import { z } from 'zod';

/** Self time per function, in milliseconds, keyed by "name (file:line)". */
export type SelfTimes = Map<string, number>;

/** The parts of a .cpuprofile this reads (Chrome DevTools' format, as V8 writes it). */
const CpuProfile = z.object({
  nodes: z
    .array(
      z.object({
        id: z.number().int(),
        callFrame: z.object({
          functionName: z.string(),
          url: z.string(),
          lineNumber: z.number().int(),
        }),
      }),
    )
    .max(1_000_000),
  startTime: z.number(),
  endTime: z.number(),
  samples: z.array(z.number().int()).max(10_000_000),
  timeDeltas: z.array(z.number()).max(10_000_000),
});

/** "read (fs.js:123)", "(program)", "(anonymous) (wc-node.mjs:4)": a function as people read it. */
function frameName(f: { functionName: string; url: string; lineNumber: number }): string {
  const name = f.functionName || '(anonymous)';
  if (!f.url) return name;
  const file = f.url.replace(/^.*[/\\]/, '');
  return `${name} (${file}:${f.lineNumber + 1})`;
}

/**
 * Self time per function of a V8 CPU profile. Each sample's time is the gap to the next sample
 * (the last one gets the mean gap): a sampled node was running for that long. Functions that appear
 * as several nodes (called from several places) are summed. Idle time is left out: it is not the
 * program's work.
 */
export function cpuProfileSelfTimes(json: unknown): SelfTimes {
  const p = CpuProfile.parse(json);
  const frames = new Map(p.nodes.map((n) => [n.id, frameName(n.callFrame)]));
  const out: SelfTimes = new Map();
  const n = p.samples.length;
  const mean = n ? (p.endTime - p.startTime) / n : 0;
  for (let i = 0; i < n; i++) {
    const name = frames.get(p.samples[i]!);
    if (name === undefined || name === '(idle)') continue;
    const next = p.timeDeltas[i + 1];
    const us = next !== undefined && next >= 0 ? next : mean;
    out.set(name, (out.get(name) ?? 0) + us / 1000);
  }
  return out;
}

/**
 * Self time per symbol from `perf report --stdio --no-children --sort symbol -F period,sym` with
 * cpu-clock events, whose period is in nanoseconds: one row per symbol ("  123456789  [.] name").
 */
export function perfReportSelfTimes(text: string): SelfTimes {
  const out: SelfTimes = new Map();
  for (const line of text.split('\n')) {
    // Newer perf appends IPC columns ("-  -") when the machine has no hardware counters.
    const m = /^\s*(\d+)\s+\[[.k]\]\s+(.+?)(?:\s{2,}-\s+-)?\s*$/.exec(line);
    if (!m) continue;
    out.set(m[2]!, (out.get(m[2]!) ?? 0) + Number(m[1]) / 1e6);
  }
  return out;
}

/** The sum of several profiles' self times (several processes, or several runs). */
export function addSelfTimes(all: readonly SelfTimes[]): SelfTimes {
  const out: SelfTimes = new Map();
  for (const t of all) for (const [k, v] of t) out.set(k, (out.get(k) ?? 0) + v);
  return out;
}

export interface FunctionChange {
  name: string;
  /** Self time in ms under the release before and after the change. */
  before: number;
  after: number;
}

/** How many functions a change keeps: enough to see the cause, few enough to read. */
const TOP_FUNCTIONS = 8;

/** The functions whose self time changed most (by absolute difference), largest first. */
export function topFunctionChanges(before: SelfTimes, after: SelfTimes, n = TOP_FUNCTIONS): FunctionChange[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return [...names]
    .map((name) => ({ name, before: round(before.get(name) ?? 0), after: round(after.get(name) ?? 0) }))
    .filter((f) => f.before !== f.after)
    .sort((a, b) => Math.abs(b.after - b.before) - Math.abs(a.after - a.before) || a.name.localeCompare(b.name))
    .slice(0, n);
}
