/**
 * A confirmed change, profiled: its suite point run once under each of its two releases with the
 * bench pipeline's CPU profiler (run/cpu-profile.ts: the runtime's V8 --cpu-prof for Node and
 * Deno, else perf record), the self time per function of each, and the functions whose self time
 * changed most. Says which profiler ran, or why none did.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEXT_CAPS } from '../../formats/parts/fields.js';
import type { ChangeProfile } from '../../formats/release-store-format.js';
import type { Profile } from '../../model/profiles.js';
import { bench } from '../../pipeline/bench.js';
import type { ProfilerTool } from '../../run/cpu-profile.js';
import type { Candidate } from '../judge/changes.js';
import {
  addSelfTimes,
  cpuProfileSelfTimes,
  perfReportSelfTimes,
  type SelfTimes,
  topFunctionChanges,
} from '../judge/profile.js';
import { pairFilters } from './confirm-in-pairs.js';

export interface ProfileOptions {
  root: string;
  profile: Profile;
  workDir: string;
  log?: (m: string) => void;
}

function selfTimes(file: string): SelfTimes {
  const text = readFileSync(file, 'utf8');
  return file.endsWith('.cpuprofile') ? cpuProfileSelfTimes(JSON.parse(text)) : perfReportSelfTimes(text);
}

/** Profiles one release on the change's point: its self times, or why there are none. */
/** One release's profile: its self times (and why its tool was not the runtime's own), or why none. */
export interface OneProfile {
  tool?: ProfilerTool;
  times?: SelfTimes;
  note?: string;
}

async function profileOne(c: Candidate, version: string, opts: ProfileOptions): Promise<OneProfile> {
  const out = await bench({
    root: opts.root,
    profile: opts.profile,
    filters: pairFilters(c, version),
    outDir: join(opts.workDir, 'profiles', c.series.line, `${c.from}-${c.to}`, version),
    require: [],
    profileCpu: true,
    ...(opts.log ? { log: opts.log } : {}),
  });
  const p = out.profiles[0]?.result;
  if (!p) {
    const b = out.results.benchmarks[0];
    return {
      note: `${version}: not profiled (${b ? `${b.status}${b.reason ? `: ${b.reason}` : ''}` : 'no benchmark'})`,
    };
  }
  if ('reason' in p) return { tool: p.tool, note: `${version}: ${p.reason}` };
  return {
    tool: p.tool,
    times: addSelfTimes(p.files.map(selfTimes)),
    ...(p.note ? { note: `${version}: ${p.note}, so perf ran` } : {}),
  };
}

/** A note as the store keeps it (formats/parts/fields.ts: one line of text). */
const cap = (text: string) => text.slice(0, TEXT_CAPS.line);

export async function profileChange(c: Candidate, opts: ProfileOptions): Promise<ChangeProfile> {
  const before = await profileOne(c, c.from, opts);
  const after = before.times ? await profileOne(c, c.to, opts) : undefined;
  return changeProfile(c, before, after);
}

/**
 * What a change's two profiles say: the functions whose self time changed most, or why there are
 * none (one release unprofiled; the two profiled by different tools). Pure.
 */
export function changeProfile(
  c: Pick<Candidate, 'from' | 'to'>,
  before: OneProfile,
  after: OneProfile | undefined,
): ChangeProfile {
  const tool = after?.tool ?? before.tool ?? 'none';
  if (!before.times || !after?.times) return { tool, note: cap((after ?? before).note ?? 'no profile'), functions: [] };
  // Self times from two profilers (V8's samples of JavaScript functions, perf's of symbols) do not compare.
  if (before.tool !== after.tool)
    return {
      tool,
      note: cap(
        `the releases were profiled by different tools (${c.from}: ${before.tool}, ${c.to}: ${after.tool}${[
          before.note,
          after.note,
        ]
          .filter(Boolean)
          .map((n) => `; ${n}`)
          .join('')}), so their functions are not compared`,
      ),
      functions: [],
    };
  const functions = topFunctionChanges(before.times, after.times);
  const why = [before.note, after.note].filter(Boolean).join('; ');
  const note = [why, functions.length ? '' : 'no function changed its self time'].filter(Boolean).join('; ');
  return { tool, functions, ...(note ? { note: cap(note) } : {}) };
}
