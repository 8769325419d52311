/**
 * Another run's raw samples read again by this harness (`bench --reduce`): a self-timed run's
 * report line and GNU time's report, kept as the program and time printed them, go through this
 * harness's own parser and checks, not through the measuring run's. So when two harnesses reduce
 * the same raw samples, a change to how either reads a program's output shows in their numbers.
 * Raw samples kept before the texts were (no `output`) are taken as they are. Pure.
 */
import type { Job } from '../model/job.js';
import { readReport } from './common.js';
import { parseGnuTime } from './parse-gnu-time.js';
import type { RawRun, RawSamples } from './runner.js';
import { runChecks } from './validate.js';

/** `raw` with every run's report, items and peak RSS read again from its texts. */
export function reparsed(job: Job, raw: RawSamples): RawSamples {
  if (raw.status !== 'ok' || !raw.runs.length || raw.runs.some((r) => r.output === undefined)) return raw;
  const runs: RawRun[] = [];
  for (const [i, run] of raw.runs.entries()) {
    const label = `run ${i + 1} of ${raw.runs.length} (raw samples)`;
    const report = readReport(job, run.output!);
    if (!report.ok) return { ...raw, status: 'failed', reason: `${label}: ${report.reason}` };
    const validation = runChecks(job.checks, job.variant, report.fields, job.scope);
    if (!validation.ok)
      return { ...raw, status: 'failed', reason: `wrong result in ${label}: ${validation.message}`, validation };
    runs.push({ ...run, report: report.fields, items: report.items });
  }
  const last = runs.at(-1)!;
  const rss = peakRss(raw.runs);
  const { maxRssBytes: _, ...rest } = raw;
  return {
    ...rest,
    runs,
    report: last.report ?? {},
    validation: runChecks(job.checks, job.variant, last.report ?? {}, job.scope),
    ...(rss.bytes !== undefined ? { maxRssBytes: rss.bytes } : {}),
    notes: [...raw.notes.filter((n) => !n.startsWith(RSS_NOTE)), ...(rss.note ? [rss.note] : [])],
  };
}

const RSS_NOTE = 'max RSS unavailable: ';

/** The largest peak RSS GNU time reported over the runs, read again; a report it cannot read is a note. */
function peakRss(runs: readonly RawRun[]): { bytes?: number; note?: string } {
  let bytes: number | undefined;
  for (const r of runs) {
    if (r.time === undefined) continue;
    try {
      bytes = Math.max(bytes ?? 0, parseGnuTime(r.time).maxRssBytes);
    } catch (e) {
      return { note: `${RSS_NOTE}${(e as Error).message}` };
    }
  }
  return bytes === undefined ? {} : { bytes };
}
