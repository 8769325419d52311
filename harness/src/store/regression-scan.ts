/**
 * Change points over every series of one profile, for the site's Regressions view and for tools
 * (trends/<profile>/regressions.json). The same detection as the Trends view
 * (analysis/changepoints.ts) over the whole series, against the machine's calibrated noise where
 * there is one; a step where the benchmark's program changed is found like any other and marked; derived metrics (computed from others) are left out, as
 * in compare. Counted work does not drift, so its steps are exact (counts/count-steps.ts): any
 * change beyond the work tolerance between two counts that may be acted on. Pure: the caller
 * reads the files.
 */
import { type ChangePoint, detectChangePoints, MIN_SHIFT } from '../analysis/changepoints.js';
import { bootstrapRatioCI, median } from '../analysis/two-sample.js';
import { COUNT_TOLERANCE } from '../counts/count-rule.js';
import { actionable, countSteps } from '../counts/count-steps.js';
import { joinShards, programChanges, STORE_SCHEMA } from '../formats/parts/store-layout.js';
import type {
  CatalogFile,
  CommitsFile,
  RegressionsFile,
  ShardFile,
  TrendChange,
} from '../formats/trend-store-format.js';
import { harnessMetric } from '../model/metrics.js';

const REGRESSIONS_METHOD = `binary segmentation on log values (a step must exceed 3% and 4x the series noise, or the calibrated threshold); ratio of the medians of up to 30 points either side (within the stretches between change points) with a 2000-resample bootstrap 95% interval; counted work (instructions): a change beyond ${COUNT_TOLERANCE * 100}% between consecutive counts that decide and repeated, the two counts as the medians and the exact ratio as its interval`;

/** At most this many points either side of a change give its medians and interval. */
const NEAREST = 30;

export interface RegressionInput {
  machine: string;
  catalog: CatalogFile;
  /** Every window's commits, in window order. */
  commits: readonly CommitsFile[];
  /** A shard, if the window has one for the experiment and metric. */
  shard: (window: string, experiment: string, metric: string) => ShardFile | undefined;
  noise: Record<string, number>;
}

/** Every change point (better and worse), newest first. */
export function findChanges(input: RegressionInput): TrendChange[] {
  const { catalog } = input;
  const all = input.commits.flatMap((f) => f.commits.map((c) => ({ ...c, window: f.window })));
  const out: TrendChange[] = [];
  for (const [experiment, e] of Object.entries(catalog.experiments)) {
    const commits = all.filter((c) => c.experiments.includes(experiment));
    for (const [metric, m] of Object.entries(e.metrics)) {
      if (m.source === 'derived') continue;
      const shards = catalog.windows
        .slice(m.windows[0], m.windows[1] + 1)
        .map((w) => input.shard(w.id, experiment, metric))
        .filter((s): s is ShardFile => s !== undefined);
      const joined = joinShards(
        commits.map((c) => c.sha),
        shards,
      );
      const work = harnessMetric(metric)?.kind === 'work';
      for (const [key, s] of Object.entries(joined.series)) {
        const minShift = Math.max(MIN_SHIFT, input.noise[`${s.id} ${metric}`] ?? 0);
        const found = work ? countSteps(s.values, s.counts) : detectChangePoints(s.values, minShift);
        const changedAt = new Set(programChanges(s.programs));
        found.forEach((c, j) => {
          const at = c.index;
          const { before, after } = work ? exactSides(s.values, c) : sides(s.values, found, j);
          // The last commit measured before the change (counted work: the count it was held against).
          const held = (i: number) => s.values[i] !== null && (!work || actionable(s.counts?.[i]));
          let prev = at - 1;
          while (prev > 0 && !held(prev)) prev--;
          const to = commits[at]!;
          const fromC = commits[Math.max(0, prev)]!;
          const ratio = median(after) / median(before);
          let programChanged = false;
          for (let i = prev + 1; i <= at; i++) if (changedAt.has(i)) programChanged = true;
          const exact = work ? c.ratio : undefined;
          out.push({
            machine: input.machine,
            profile: catalog.profile,
            experiment,
            metric,
            benchmark: s.id,
            series: key,
            variant: s.variant,
            params: s.params,
            workload: s.workload,
            unit: s.unit,
            direction: s.direction,
            from: { sha: fromC.sha, date: fromC.date, subject: fromC.subject },
            to: { sha: to.sha, date: to.date, subject: to.subject, window: to.window },
            before: median(before),
            after: median(after),
            ratio,
            ci: exact !== undefined ? [exact, exact] : bootstrapRatioCI(before, after, at + 1),
            points: [before.length, after.length],
            worse: ratio > 1 === (s.direction === 'smaller'),
            programChanged,
          });
        });
      }
    }
  }
  return out.sort(
    (a, b) =>
      (a.to.date < b.to.date ? 1 : a.to.date > b.to.date ? -1 : 0) ||
      Math.abs(Math.log(b.ratio)) - Math.abs(Math.log(a.ratio)),
  );
}

/**
 * The stretches either side of change j, capped to the points nearest the change: what the step
 * is measured against should be the recent level, not a level years old.
 */
function sides(values: readonly (number | null)[], found: readonly ChangePoint[], j: number) {
  const at = found[j]!.index;
  const lo = j === 0 ? 0 : found[j - 1]!.index;
  const hi = j + 1 < found.length ? found[j + 1]!.index : values.length;
  const side = (a: number, b: number) =>
    values.slice(a, b).filter((v): v is number => v !== null && v > 0 && Number.isFinite(v));
  return { before: side(lo, at).slice(-NEAREST), after: side(at, hi).slice(0, NEAREST) };
}

/** A counted-work step: the count after it and the one it was held against. */
function exactSides(values: readonly (number | null)[], c: ChangePoint) {
  const after = values[c.index]!;
  return { before: [after / c.ratio], after: [after] };
}

export function regressionsFile(input: RegressionInput): RegressionsFile {
  return {
    schema: STORE_SCHEMA,
    machine: input.machine,
    profile: input.catalog.profile,
    method: REGRESSIONS_METHOD,
    regressions: findChanges(input),
  };
}
