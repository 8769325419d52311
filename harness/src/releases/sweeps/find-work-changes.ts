/**
 * The third kind of `releases changes`, beside timing and counters: each suite point's counted
 * work (instructions under Valgrind, per read for a fit) compared between consecutive releases of
 * a line (releases/judge/work-changes.ts), each change narrowed through the registry's builds
 * between by measuring them (the sweep counts every build it measures), and listed as exact: no
 * paired confirmation, the point's timed metrics under the two releases beside it.
 */
import { COUNT_TOLERANCE } from '../../counts/count-rule.js';
import { compareCounts } from '../../counts/count-verdict.js';
import type { ReleaseChange, ReleaseIndexFile } from '../../formats/release-store-format.js';
import {
  countText,
  detectWorkChanges,
  type WorkCandidate,
  workBisectStep,
  workCounts,
  workLabel,
  workPercent,
  workSeries,
} from '../judge/work-changes.js';
import { readReleaseIndex } from '../release-files.js';
import type { SuiteExperiment } from '../suite-plan.js';
import {
  type Ctx,
  eachChange,
  effectsOf,
  effectText,
  type Measured,
  named,
  pointText,
  type Span,
  samePoint,
} from './change-loop.js';

/**
 * A work change's counts in each build of the line measured at the profile: empty where the build
 * has none to compare (not counted, counted as evidence, or measured without the point), so
 * bisection passes over it instead of asking the sweep for a build the store already has.
 */
function countsOf(c: WorkCandidate, profile: string): Measured<number[]> {
  return (index) => {
    const out = new Map<string, number[]>();
    for (const e of index.releases) {
      if (e.profile !== profile || e.line !== c.series.line) continue;
      const w = e.work?.find((x) => !x.reference && samePoint(x, c.series));
      const got = w?.counts.status === 'ok' && w.counts.role === 'decides' ? workCounts(w.counts.runs) : undefined;
      out.set(e.version, got?.metric === c.series.metric ? got.counts : []);
    }
    return out;
  };
}

/** The counts of the two builds a bisection ended between, where both compare (else the detected ones stay). */
function narrowedCounts(c: WorkCandidate, index: ReleaseIndexFile, profile: string): void {
  const m = countsOf(c, profile)(index);
  const from = m.get(c.from) ?? [];
  const to = m.get(c.to) ?? [];
  if (!from.length || !to.length) return;
  const v = compareCounts(from, to);
  if (v.kind === 'not-deterministic') return;
  Object.assign(c, { fromCounts: from, before: v.base, after: v.head, change: v.change });
}

/** "instructions per read 15,243 → 15,701 (+3.0%), exact (each release's counts agree within 1.0%)" */
function countVerdictText(c: Pick<WorkCandidate, 'series' | 'before' | 'after'>, operations?: string): string {
  const within = `${(COUNT_TOLERANCE * 100).toFixed(1)}%`;
  return `${workLabel(c.series.metric, operations)} ${countText(c.before)} → ${countText(c.after)} (${workPercent(c.after / c.before)}), exact (each release's counts agree within ${within})`;
}

function workRecord(c: WorkCandidate, detected: Span, index: ReleaseIndexFile, profile: string, operations?: string) {
  const effects = effectsOf(c, index, profile);
  const record: ReleaseChange = {
    kind: 'work',
    ...named(c.series),
    unit: 'instructions',
    direction: 'smaller',
    from: c.from,
    to: c.to,
    fromDate: '',
    toDate: '',
    ratio: c.after / c.before,
    ...(detected.from !== c.from || detected.to !== c.to
      ? { detectedFrom: detected.from, detectedTo: detected.to }
      : {}),
    status: 'confirmed',
    counts: { from: c.before, to: c.after },
    ...(effects.length ? { effects } : {}),
    text: `${c.series.family} ${c.from} → ${c.to}: ${pointText(c.series)} ${countVerdictText(c, operations)}${effectText(effects)}`,
  };
  return record;
}

/** Work changes: counts beyond the tolerance between consecutive releases, bisected like the other kinds. */
export function workChanges(
  index: ReleaseIndexFile,
  suites: readonly SuiteExperiment[],
  ctx: Ctx,
): Promise<ReleaseChange[]> {
  const { opts, machine } = ctx;
  const { changes, undecided } = detectWorkChanges(workSeries(index.releases, opts.profile));
  opts.log?.(
    `${changes.length} work change(s) in the releases of ${machine} at ${opts.profile}` +
      (undecided.length
        ? `; passed over, their repeats more than ${(COUNT_TOLERANCE * 100).toFixed(1)}% apart: ${undecided.map((u) => `${u.version} ${pointText(u.series)}`).join(', ')}`
        : ''),
  );
  const operations = (experiment: string) => suites.find((e) => e.id === experiment)?.manifest.fit?.x;
  return eachChange(
    changes,
    { measured: (c) => countsOf(c, opts.profile), step: workBisectStep },
    async (c, detected, narrowed) => {
      const now = readReleaseIndex(opts.storeDir, machine);
      if (narrowed) narrowedCounts(c, now, opts.profile);
      return workRecord(c, detected, now, opts.profile, operations(c.series.experiment));
    },
    ctx,
  );
}
