/**
 * `npm run releases -- changes`, as stages:
 *
 *   the store's releases -> timing: one series per line, suite point and suite metric -> change
 *   points; counters: each point's traced counts, release by release -> exact differences; work:
 *   each point's counted instructions -> differences beyond the tolerance (./find-work-changes.ts)
 *   -> bisection of every kind: measure the registry's intermediate builds (the release sweep,
 *   one build at a time) until the change sits between two adjacent builds -> timing changes
 *   only: confirmation by a paired diff of the two builds (when a confirmer is given) -> each
 *    confirmed timing change profiled under both builds (when a profiler is given) -> each
 *   change with its releases' upstream dates and the release notes between them -> changes.json
 */
import { join } from 'node:path';
import { RELEASES_SCHEMA } from '../../formats/parts/store-layout.js';
import type {
  ChangeProfile,
  ReleaseChange,
  ReleaseChangesFile,
  ReleaseIndexFile,
} from '../../formats/release-store-format.js';
import { runtimesCache } from '../../machine/cache-root.js';
import { machineInfo } from '../../machine/machine.js';
import { compareVersions } from '../../model/runtime-release.js';
import { loadAllExperiments } from '../../plan/experiments.js';
import { bisectStep, type Candidate, detectReleaseChanges, percent, releaseSeries } from '../judge/changes.js';
import {
  type CounterCandidate,
  counterBisectStep,
  counterSeries,
  counterText,
  detectCounterChanges,
  exactCount,
} from '../judge/counter-changes.js';
import { dateReleases, readReleaseIndex, writeReleaseChanges } from '../release-files.js';
import type { SuiteExperiment } from '../suite-plan.js';
import {
  type Ctx,
  catalogs,
  eachChange,
  effectsOf,
  effectText,
  type LoopOptions,
  type Measured,
  named,
  pointText,
  samePoint,
} from './change-loop.js';
import { workChanges } from './find-work-changes.js';
import { type DatedRelease, releaseDates, releaseNotes } from './release-context.js';
import { suiteExperiments } from './sweep.js';

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

/**
 * Why pairs cannot judge a change: they measured its point, but not its metric with an interval
 * (a fit's start-up). Another metric of the point would answer another question.
 */
export interface Unconfirmable {
  unconfirmable: string;
}

/**
 * Runs a paired diff of two releases on one suite point (releases/sweeps/confirm-in-pairs.ts):
 * its verdict, why none can be given, or undefined when the pairs measured nothing.
 */
export type Confirmer = (c: Candidate) => Promise<Confirmation | Unconfirmable | undefined>;

const judged = (conf: Confirmation | Unconfirmable | undefined): conf is Confirmation =>
  conf !== undefined && !('unconfirmable' in conf);

export interface ChangesOptions extends LoopOptions {
  experiments?: readonly string[];
  confirm?: Confirmer;
  /** The runtimes cache (default the harness's: machine/cache-root.ts): where the releases' changelogs are read. */
  runtimesDir?: string;
  /** Profiles a confirmed change under both its releases (releases/sweeps/profile-change.ts). */
  profileChange?: (c: Candidate) => Promise<ChangeProfile>;
}

/**
 * One line for people. A confirmed change is stated with the paired estimate and its interval:
 * the timeline's step (medians of a few runs per release) can be far off the paired estimate
 * (docs/releases.md has one), and only the paired figure has an interval behind it.
 */
export function changeText(c: Candidate, conf?: Confirmation | Unconfirmable): string {
  const where = `${c.series.family} ${c.from} → ${c.to}: ${pointText(c.series, c.series.metric)}`;
  const head = `${where} ${percent(c.ratio)}`;
  if (!conf) return `${head} (not confirmed)`;
  if (!judged(conf)) return `${head} (not confirmable by pairs: ${conf.unconfirmable})`;
  const ci = `${conf.level}% CI ${percent(1 + conf.ci[0])} … ${percent(1 + conf.ci[1])}`;
  return conf.confirmed
    ? `${where} ${percent(1 + conf.change)} (${ci}), confirmed by ${conf.pairs} pairs (the release timeline showed ${percent(c.ratio)})`
    : `${head}: not confirmed by ${conf.pairs} pairs (paired ${percent(1 + conf.change)}, ${ci}, ${conf.verdict})`;
}

function valuesOf(c: Candidate, profile: string): Measured<number> {
  return (index) => {
    const out = new Map<string, number>();
    for (const e of index.releases) {
      if (e.profile !== profile || e.line !== c.series.line) continue;
      const v = e.values.find((x) => !x.reference && x.metric === c.series.metric && samePoint(x, c.series));
      if (v) out.set(e.version, v.value);
    }
    return out;
  };
}

/** A counter's traces in each build of the line where its point was traced (0 where strace listed no such call). */
function tracesOf(c: CounterCandidate, profile: string): Measured<number[]> {
  return (index) => {
    const out = new Map<string, number[]>();
    for (const e of index.releases) {
      if (e.profile !== profile || e.line !== c.series.line) continue;
      const p = e.counters?.find((x) => !x.reference && samePoint(x, c.series));
      const any = p && (Object.values(p.counts)[0] ?? []);
      if (p) out.set(e.version, p.counts[c.series.metric] ?? (any ?? []).map(() => 0));
    }
    return out;
  };
}

function timingRecord(
  c: Candidate,
  detected: { from: string; to: string },
  confirmation?: Confirmation | Unconfirmable,
  profile?: ChangeProfile,
): ReleaseChange {
  const conf = judged(confirmation) ? confirmation : undefined;
  const status = !conf ? 'candidate' : conf.confirmed ? 'confirmed' : 'not-confirmed';
  return {
    kind: 'timing',
    ...named(c.series),
    unit: c.series.unit,
    direction: c.series.direction,
    from: c.from,
    to: c.to,
    fromDate: '',
    toDate: '',
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
    ...(confirmation && !judged(confirmation) ? { unconfirmable: confirmation.unconfirmable } : {}),
    ...(profile ? { profile } : {}),
    text: changeText(c, confirmation),
  };
}

/**
 * An exact counter change: listed as it is, no paired confirmation (the counts are exact), with
 * the timing metrics of the same point beside it.
 */
function counterRecord(
  c: CounterCandidate,
  detected: { from: string; to: string },
  index: ReleaseIndexFile,
  profile: string,
): ReleaseChange {
  const effects = effectsOf(c, index, profile);
  return {
    kind: 'counter',
    ...named(c.series),
    unit: 'calls',
    direction: 'smaller',
    from: c.from,
    to: c.to,
    fromDate: '',
    toDate: '',
    ratio: c.before > 0 ? c.after / c.before : Number.MAX_VALUE,
    ...(detected.from !== c.from || detected.to !== c.to
      ? { detectedFrom: detected.from, detectedTo: detected.to }
      : {}),
    status: 'confirmed',
    counts: { from: c.before, to: c.after },
    ...(effects.length ? { effects } : {}),
    text: `${c.series.family} ${c.from} → ${c.to}: ${pointText(c.series)} ${counterText(c.series.metric, c.before, c.after)} (exact, every trace of both releases)${effectText(effects)}`,
  };
}

/** Timing changes: detected on every suite metric's timeline, bisected, confirmed in pairs when asked. */
function timingChanges(
  index: ReleaseIndexFile,
  suites: readonly SuiteExperiment[],
  ctx: Ctx<ChangesOptions>,
): Promise<ReleaseChange[]> {
  const { opts, machine } = ctx;
  const watched = (id: string) => suites.find((e) => e.id === id)?.manifest.releases.metrics ?? [];
  const candidates = detectReleaseChanges(releaseSeries(index.releases, opts.profile, watched));
  opts.log?.(`${candidates.length} timing change point(s) in the releases of ${machine} at ${opts.profile}`);
  return eachChange(
    candidates,
    { measured: (c) => valuesOf(c, opts.profile), step: bisectStep },
    async (c, detected) => {
      const conf = opts.confirm ? await opts.confirm(c) : undefined;
      const profile = judged(conf) && conf.confirmed && opts.profileChange ? await opts.profileChange(c) : undefined;
      return timingRecord(c, detected, conf, profile);
    },
    ctx,
  );
}

/** Counter changes: exact differences between consecutive releases, bisected like timing ones. */
function counterChanges(index: ReleaseIndexFile, ctx: Ctx<ChangesOptions>): Promise<ReleaseChange[]> {
  const { opts, machine } = ctx;
  const candidates = detectCounterChanges(counterSeries(index.releases, opts.profile));
  opts.log?.(`${candidates.length} counter change(s) in the releases of ${machine} at ${opts.profile}`);
  return eachChange(
    candidates,
    { measured: (c) => tracesOf(c, opts.profile), step: counterBisectStep },
    async (c, detected, narrowed) => {
      const now = readReleaseIndex(opts.storeDir, machine);
      if (narrowed) {
        // The count after is the first build's that left the old one.
        const traces = tracesOf(c, opts.profile)(now).get(narrowed.to);
        const after = traces && exactCount(traces);
        if (after !== undefined) c.after = after;
      }
      return counterRecord(c, detected, now, opts.profile);
    },
    ctx,
  );
}

/** Each change's dates (upstream where the changelog says) and the release notes between its releases. */
async function withContext(
  changes: ReleaseChange[],
  dates: ReadonlyMap<string, DatedRelease>,
  suites: readonly SuiteExperiment[],
  opts: ChangesOptions,
): Promise<ReleaseChange[]> {
  const runtimesDir = opts.runtimesDir ?? runtimesCache();
  const notes = new Map<string, Awaited<ReturnType<typeof releaseNotes>>>();
  const log = opts.log ?? (() => {});
  const out: ReleaseChange[] = [];
  for (const c of changes) {
    const date = (v: string): DatedRelease => dates.get(`${c.family}@${v}`) ?? { date: '', source: 'registry' };
    const subjects = suites.find((e) => e.id === c.experiment)?.manifest.releases.subjects ?? [];
    const key = `${c.family}|${c.from}|${c.to}|${subjects.join(',')}`;
    if (!notes.has(key)) notes.set(key, await releaseNotes(c.family, c, subjects, runtimesDir, log));
    out.push({
      ...c,
      fromDate: date(c.from).date,
      toDate: date(c.to).date,
      dateSources: { from: date(c.from).source, to: date(c.to).source },
      notes: notes.get(key)!,
    });
  }
  return out;
}

/** "2 confirmed timing change(s), 5 counter change(s), 3 work change(s), 1 candidate(s)" */
export function changeCounts(file: Pick<ReleaseChangesFile, 'changes' | 'candidates'>): string {
  const of = (kind: NonNullable<ReleaseChange['kind']>) =>
    file.changes.filter((c) => (c.kind ?? 'timing') === kind).length;
  return `${of('timing')} confirmed timing change(s), ${of('counter')} counter change(s), ${of('work')} work change(s), ${file.candidates.length} candidate(s)`;
}

export async function releaseChanges(opts: ChangesOptions) {
  const machine = machineInfo().id;
  const suites = suiteExperiments(loadAllExperiments(join(opts.root, 'programs')), opts.experiments);
  const index = readReleaseIndex(opts.storeDir, machine);
  const ctx = { opts, machine, catalog: catalogs(opts.releasesOf) };
  const found = [
    ...(await timingChanges(index, suites, ctx)),
    ...(await counterChanges(index, ctx)),
    ...(await workChanges(index, suites, ctx)),
  ];
  const entries = readReleaseIndex(opts.storeDir, machine).releases;
  const dates = releaseDates(entries, opts.runtimesDir ?? runtimesCache());
  const upstream = new Map([...dates].filter(([, d]) => d.source === 'changelog').map(([k, d]) => [k, d.date]));
  const dated = await dateReleases(opts.storeDir, machine, upstream);
  if (dated) opts.log?.(`${dated} release(s) measured before dates were kept now carry their changelog's date`);
  const out = await withContext(found, dates, suites, opts);
  // Newest first: by the later release's date, then by version within a line.
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
