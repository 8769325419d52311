/**
 * A confirmed change, profiled: its suite point run once under each of its two releases with the
 * bench pipeline's CPU profiler (run/cpu-profile.ts: the runtime's V8 --cpu-prof for Node and
 * Deno, else perf record), the self time per function of each, and the functions whose self time
 * changed most. Says which profiler ran, or why none did.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Profile } from '../../model/profiles.js';
import { bench } from '../../pipeline/bench.js';
import type { Candidate } from '../analysis/changes.js';
import {
  addSelfTimes,
  cpuProfileSelfTimes,
  perfReportSelfTimes,
  type SelfTimes,
  topFunctionChanges,
} from '../analysis/profile.js';
import type { ChangeProfile } from '../model/release-store.js';
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
async function profileOne(c: Candidate, version: string, opts: ProfileOptions) {
  const out = await bench({
    root: opts.root,
    profile: opts.profile,
    filters: pairFilters(c, version),
    outDir: join(opts.workDir, 'profiles', c.series.line, `${c.from}-${c.to}`, version),
    require: [],
    profileCpu: true,
    ...(opts.log ? { log: opts.log } : {}),
  });
  const p = out.profiles[0]?.outcome;
  if (!p) {
    const b = out.results.benchmarks[0];
    return {
      note: `${version}: not profiled (${b ? `${b.status}${b.reason ? `: ${b.reason}` : ''}` : 'no benchmark'})`,
    };
  }
  if ('reason' in p) return { tool: p.tool, note: `${version}: ${p.reason}` };
  return { tool: p.tool, times: addSelfTimes(p.files.map(selfTimes)) };
}

export async function profileChange(c: Candidate, opts: ProfileOptions): Promise<ChangeProfile> {
  const before = await profileOne(c, c.from, opts);
  const after = before.times ? await profileOne(c, c.to, opts) : undefined;
  const tool = after?.tool ?? before.tool ?? 'none';
  if (!before.times || !after?.times) return { tool, note: (after ?? before).note ?? 'no profile', functions: [] };
  const functions = topFunctionChanges(before.times, after.times);
  return { tool, functions, ...(functions.length ? {} : { note: 'no function changed its self time' }) };
}
