/**
 * `npm run releases -- changes`, as stages:
 *
 *   the store's releases -> one series per line and suite point (watched metric) -> change points
 *   -> bisection: measure the registry's intermediate builds (the release sweep, one build at a
 *   time) until the change sits between two adjacent builds -> confirmation by a paired diff of
 *   the two builds on the same program (when a confirmer is given) -> a profile of each confirmed
 *   change under both builds (when a profiler is given) -> changes.json
 */
import { join } from 'node:path';
import { machineInfo } from '../../machine/machine.js';
import { registryReleases } from '../../machine/release-packages.js';
import type { Profile } from '../../model/profiles.js';
import { type Release, releasesBetween } from '../../model/release-catalog.js';
import { compareVersions } from '../../model/runtime-release.js';
import { paramText } from '../../model/select.js';
import { RELEASES_SCHEMA } from '../../model/store-layout.js';
import { loadAllExperiments } from '../../plan/experiments.js';
import { bisectStep, type Candidate, detectReleaseChanges, percent, releaseSeries } from '../analysis/changes.js';
import type { ChangeProfile, ReleaseChange, ReleaseIndexFile } from '../model/release-store.js';
import { readReleaseIndex, writeReleaseChanges } from '../store/release-files.js';
import { measureReleases, suiteExperiments } from './sweep.js';

export interface Confirmation {
  pairs: number;
  change: number;
  ci: [number, number];
  /** The interval's level, in percent as printed ("99.95": the sequential look's, docs/paired-design.md). */
  level: string;
  verdict: string;
  /** Whether the paired diff agrees: a significant change in the detected direction. */
  confirmed: boolean;
}

/** Runs a paired diff of two releases on one suite point (releases/pipeline/confirm-in-pairs.ts). */
export type Confirmer = (c: Candidate) => Promise<Confirmation | undefined>;

export interface ChangesOptions {
  root: string;
  storeDir: string;
  profile: Profile;
  workDir: string;
  /** Intermediate builds measured per candidate at most (0: no bisection). */
  bisectSteps: number;
  experiments?: readonly string[];
  confirm?: Confirmer;
  /** Profiles a confirmed change under both its releases (releases/pipeline/profile-change.ts). */
  profileChange?: (c: Candidate) => Promise<ChangeProfile>;
  log?: (m: string) => void;
}

/** "wc readsync bs 65536 read_cost" */
function pointText(c: Candidate): string {
  const params = Object.entries(c.series.params).map(([k, v]) => paramText(k, v));
  return [c.series.experiment, c.series.variant, ...params, c.series.metric].join(' ');
}

/**
 * One line for people. A confirmed change is stated with the paired estimate and its interval:
 * the timeline's step (medians of a few runs per release) can be far off the paired estimate
 * (docs/releases.md has one), and only the paired figure has an interval behind it.
 */
export function changeText(c: Candidate, conf?: Confirmation): string {
  const where = `${c.series.family} ${c.from} → ${c.to}: ${pointText(c)}`;
  const head = `${where} ${percent(c.ratio)}`;
  if (!conf) return `${head} (not confirmed)`;
  const ci = `${conf.level}% CI ${percent(1 + conf.ci[0])} … ${percent(1 + conf.ci[1])}`;
  return conf.confirmed
    ? `${where} ${percent(1 + conf.change)} (${ci}), confirmed by ${conf.pairs} pairs (the release timeline showed ${percent(c.ratio)})`
    : `${head}: not confirmed by ${conf.pairs} pairs (paired ${percent(1 + conf.change)}, ${ci}, ${conf.verdict})`;
}

function valuesOf(index: ReleaseIndexFile, c: Candidate, profile: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of index.releases) {
    if (e.profile !== profile || e.line !== c.series.line) continue;
    const v = e.values.find(
      (x) =>
        !x.reference &&
        x.experiment === c.series.experiment &&
        x.variant === c.series.variant &&
        x.metric === c.series.metric &&
        JSON.stringify(x.params) === JSON.stringify(c.series.params),
    );
    if (v) out.set(e.version, v.value);
  }
  return out;
}

/** Narrows a candidate through the registry's builds between its releases, measuring them. */
async function bisect(c: Candidate, catalog: readonly Release[], opts: ChangesOptions, machine: string) {
  const between = releasesBetween(catalog, c.series.line, c.from, c.to);
  for (let i = 0; i <= opts.bisectSteps; i++) {
    const measured = valuesOf(readReleaseIndex(opts.storeDir, machine), c, opts.profile);
    const step = bisectStep(
      c,
      between.map((r) => r.version),
      measured,
    );
    if (step.kind === 'narrowed') return { from: step.from, to: step.to };
    if (i === opts.bisectSteps) break;
    opts.log?.(`bisecting ${c.series.family} ${c.from} → ${c.to}: measuring ${step.version}`);
    const build = between.find((r) => r.version === step.version)!;
    await measureReleases({
      root: opts.root,
      storeDir: opts.storeDir,
      profile: opts.profile,
      releases: [build],
      experiments: [c.series.experiment],
      workDir: opts.workDir,
      ...(opts.log ? { log: opts.log } : {}),
    });
  }
  return undefined; // the step budget ran out: the range stays as detected
}

function record(
  c: Candidate,
  detected: { from: string; to: string },
  dates: Map<string, string>,
  conf?: Confirmation,
  profile?: ChangeProfile,
): ReleaseChange {
  const status = !conf ? 'candidate' : conf.confirmed ? 'confirmed' : 'not-confirmed';
  return {
    family: c.series.family,
    line: c.series.line,
    experiment: c.series.experiment,
    variant: c.series.variant,
    params: c.series.params,
    metric: c.series.metric,
    unit: c.series.unit,
    direction: c.series.direction,
    from: c.from,
    to: c.to,
    fromDate: dates.get(c.from) ?? '',
    toDate: dates.get(c.to) ?? '',
    ratio: c.ratio,
    ...(detected.from !== c.from || detected.to !== c.to
      ? { detectedFrom: detected.from, detectedTo: detected.to }
      : {}),
    status,
    ...(conf
      ? {
          confirmation: {
            pairs: conf.pairs,
            change: conf.change,
            ci: conf.ci,
            verdict: conf.verdict,
            date: new Date().toISOString(),
          },
        }
      : {}),
    ...(profile ? { profile } : {}),
    text: changeText(c, conf),
  };
}

export async function releaseChanges(opts: ChangesOptions) {
  const machine = machineInfo().id;
  const suites = suiteExperiments(loadAllExperiments(join(opts.root, 'programs')), opts.experiments);
  const watched = (id: string) => suites.find((e) => e.id === id)?.manifest.releases.metrics[0];
  const index = readReleaseIndex(opts.storeDir, machine);
  const candidates = detectReleaseChanges(releaseSeries(index.releases, opts.profile, watched));
  opts.log?.(`${candidates.length} change point(s) in the releases of ${machine} at ${opts.profile}`);
  const catalogs = new Map<string, Release[]>();
  const out: ReleaseChange[] = [];
  for (const c of candidates) {
    const detected = { from: c.from, to: c.to };
    if (opts.bisectSteps > 0) {
      const fam = c.series.family;
      if (!catalogs.has(fam)) catalogs.set(fam, await registryReleases(fam));
      const narrowed = await bisect(c, catalogs.get(fam)!, opts, machine);
      if (narrowed) Object.assign(c, narrowed);
    }
    const conf = opts.confirm ? await opts.confirm(c) : undefined;
    const profile = conf?.confirmed && opts.profileChange ? await opts.profileChange(c) : undefined;
    const dates = new Map(readReleaseIndex(opts.storeDir, machine).releases.map((e) => [e.version, e.date]));
    out.push(record(c, detected, dates, conf, profile));
    opts.log?.(out.at(-1)!.text);
  }
  // Newest first: by the later release's publish date, then by version within a line.
  const newest = (a: ReleaseChange, b: ReleaseChange) =>
    Date.parse(b.toDate) - Date.parse(a.toDate) ||
    (a.line === b.line ? -compareVersions(a.to, b.to) : 0) ||
    a.text.localeCompare(b.text);
  const file = {
    schema: RELEASES_SCHEMA,
    machine,
    changes: out.filter((c) => c.status === 'confirmed').sort(newest),
    candidates: out.filter((c) => c.status !== 'confirmed').sort(newest),
  };
  await writeReleaseChanges(opts.storeDir, machine, file);
  return file;
}
