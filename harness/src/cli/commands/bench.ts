/** npm run bench: the main job (pipeline/bench.ts) with its flags; prints the summary and where everything went. */
import { join, resolve } from 'node:path';
import { COUNTS_MODES, type CountsMode } from '../../counts/count-jobs.js';
import { EXIT, UserError } from '../../lib/errors.js';
import { existingDirectory } from '../../lib/paths.js';
import { isProfile, PROFILES, type Profile } from '../../model/profiles.js';
import { bench } from '../../pipeline/bench.js';
import { DEFAULT_COUNT_BUDGET } from '../../pipeline/bench-counts.js';
import type { BenchResult } from '../../pipeline/bench-options.js';
import { readRawSamples } from '../../pipeline/raw-samples.js';
import { buildSite } from '../../site/build-site.js';
import { checkSiteOutput } from '../../site/output-dir.js';
import { DEFAULT_SITE, DEFAULT_STORE, intFlag, ROOT } from '../args.js';
import { type CommandSpec, parseCommand, refuseTogether } from '../options.js';
import { SELECTION_OPTIONS, selectionOf } from '../selection.js';
import { SITE_DATA_CHECKS } from '../site-checks.js';

export const benchSpec = {
  name: 'bench',
  brief: 'the main job: plan, build, run, validate, report, add to the history',
  summary:
    'Plans, builds, runs, validates and reports: results.json, summary.md and gab/*.json in --out; the run is ' +
    'added to the store and, for the default store, the local site (results/site) is rebuilt.',
  options: {
    ...SELECTION_OPTIONS,
    out: { type: 'string', default: join(ROOT, 'results', 'latest'), value: 'DIR', description: 'where results go' },
    store: {
      type: 'string',
      default: DEFAULT_STORE,
      value: 'DIR',
      description: 'the history the run is added to (a custom store gets no site: npm run site -- --store DIR)',
    },
    'no-store': { type: 'boolean', default: false, description: 'add the run to no store (and build no site)' },
    programs: { type: 'string', default: join(ROOT, 'programs'), value: 'DIR', description: 'the experiments folder' },
    strict: { type: 'boolean', default: false, description: 'refuse to run on a busy machine instead of warning' },
    runs: { type: 'string', value: 'N', description: "timed runs per benchmark instead of the profile's (1-9999)" },
    counts: {
      type: 'string',
      // JSIO_COUNTS changes the default (the harness shift's benches count nothing).
      default: process.env.JSIO_COUNTS ?? 'headline',
      value: 'WHICH',
      description:
        'whose work is counted under valgrind after the timed runs: headline (one headline point per runtime family and experiment), all, none',
    },
    recount: {
      type: 'boolean',
      default: false,
      description: 'count every chosen point again, taking no count from the store and writing none to it',
    },
    'count-store': {
      type: 'string',
      value: 'DIR',
      description:
        "with --no-store: a trend store whose counts of this machine (DIR/<machine>/counts.json) are taken where their keys match, never written; the counts this run made or re-checked go into --out's counts.json, which npm run pages merges into the store (a missing DIR or file: nothing stored yet)",
    },
    'count-budget': {
      type: 'string',
      value: 'N',
      description: `points with a new count key counted per run at most (default ${DEFAULT_COUNT_BUDGET}; the rest wait for later runs)`,
    },
    'count-profiles': {
      type: 'string',
      value: 'LIST',
      description:
        "other profiles (comma-separated) whose points are counted too, untimed, where their count key is new (--counts chooses them as for the run's own; the budget is shared, the run's own points first): kept with the run's counts, so a pull request measured at such a profile takes its base's counts from the store",
    },
    'trace-profiles': {
      type: 'string',
      value: 'LIST',
      description:
        'profiles (comma-separated) whose points run once more under a file trace after the timed runs; the paths they touch are kept in DIR/traces.json and the store, for the trusted plan of pull requests based on this commit',
    },
    reduce: {
      type: 'string',
      value: 'FILE',
      description:
        "measure nothing: make every benchmark from FILE's raw samples (another run's raw-samples.json) with this harness's analysis, into --out; no build, count, trace or store (a harness pull request's recordings hand both analyses the same raw output)",
    },
    'profile-cpu': {
      type: 'boolean',
      default: false,
      description:
        "also profile each JavaScript job once, untimed, under DIR/cpuprofiles (the runtime's V8 --cpu-prof, else perf)",
    },
  },
  example: 'npm run bench -- --profile smoke --experiments wc --param bs=4096,65536',
  notes: [
    'Exit status: 0 ok; 1 some benchmarks failed (all results written); 2 refused (bad input, nothing',
    'measured); 3 internal error; 130 interrupted (partial results written, the store untouched).',
  ],
} as const satisfies CommandSpec;

export async function benchCommand(argv: string[]): Promise<number> {
  const { values, given } = parseCommand(benchSpec, argv);
  refuseTogether(given, 'no-store', 'store', '--no-store stores nothing; drop one of them');
  if (values['count-store'] !== undefined && !values['no-store'])
    throw new UserError(
      '--count-store is for a run added to no store: a run added to a store takes and keeps its counts there',
      'add --no-store, or drop --count-store',
    );
  if (values['count-profiles'] !== undefined && (values.recount || (values['no-store'] && !values['count-store'])))
    throw new UserError(
      '--count-profiles keeps counts for later runs: it needs a store (--store, or --no-store with --count-store) and no --recount',
      'drop --count-profiles, or give a store',
    );
  const reduce = values.reduce === undefined ? undefined : reducedFrom(values.reduce, given);
  const runs = values.runs === undefined ? undefined : intFlag('--runs', values.runs, 1, 9999);
  const selection = selectionOf(values);
  if (!values['no-store'] && resolve(values.out) === resolve(values.store))
    throw new UserError(
      `--out and --store are the same directory (${resolve(values.out)}): a run's files and the history must live apart`,
      'choose another --out',
    );
  // Created by bench() once the run is accepted: a refused run leaves no empty store behind.
  const storeDir = values['no-store'] || reduce ? undefined : resolve(values.store);
  // The local site belongs to the default store only: a custom store's neighbours are not ours.
  const siteDir = storeDir === DEFAULT_STORE ? DEFAULT_SITE : undefined;
  if (storeDir && siteDir) checkSiteOutput(siteDir, storeDir, 'the local site');
  const result = await bench({
    root: ROOT,
    ...selection,
    outDir: values.out,
    ...(storeDir ? { storeDir } : {}),
    ...(storeDir && siteDir
      ? { buildSite: (s: string) => buildSite(ROOT, s, siteDir, { dataChecks: SITE_DATA_CHECKS }) }
      : {}),
    programsDir: existingDirectory(values.programs, '--programs'),
    strict: values.strict,
    ...(runs ? { runs } : {}),
    profileCpu: values['profile-cpu'],
    ...(values['trace-profiles'] === undefined
      ? {}
      : { traceProfiles: profilesFlag('--trace-profiles', values['trace-profiles']) }),
    ...(values['count-profiles'] === undefined
      ? {}
      : { countProfiles: profilesFlag('--count-profiles', values['count-profiles']) }),
    counts: reduce ? 'none' : countsFlag(values.counts),
    ...(reduce ? { reduce } : {}),
    recount: values.recount,
    ...(values['count-store'] === undefined ? {} : { countStoreDir: resolve(values['count-store']) }),
    ...(values['count-budget'] === undefined
      ? {}
      : { countBudget: intFlag('--count-budget', values['count-budget'], 0, 100_000) }),
  });
  process.stdout.write(`\n${result.summaryText}\n`);
  process.stdout.write(`${whereLines(result, storeDir).join('\n')}\n`);
  return exitStatus(result);
}

/** `--reduce FILE`'s raw samples; refused beside what would measure or keep anything. */
function reducedFrom(file: string, given: ReadonlySet<string>) {
  for (const flag of ['count-store', 'count-profiles', 'trace-profiles', 'profile-cpu', 'recount', 'runs'])
    if (given.has(flag))
      throw new UserError(`--reduce measures nothing: --${flag} has nothing to act on`, `drop --${flag}`);
  const { commit, benchmarks } = readRawSamples(resolve(file));
  return { commit, benchmarks };
}

function profilesFlag(flag: string, value: string): Profile[] {
  const list = [...new Set(value.split(',').map((s) => s.trim()))];
  for (const p of list)
    if (!isProfile(p)) throw new UserError(`${flag} ${value}: "${p}" is not a profile (${PROFILES.join(', ')})`);
  return list as Profile[];
}

function countsFlag(value: string): CountsMode {
  if (!(COUNTS_MODES as readonly string[]).includes(value))
    throw new UserError(`--counts ${value}: expected ${COUNTS_MODES.join(', ')}`);
  return value as CountsMode;
}

/** Where everything went, the totals over every experiment, and what was not run. */
function whereLines(result: BenchResult, storeDir: string | undefined): string[] {
  const { results } = result;
  const t = results.run.timing;
  const count = (s: string) => results.benchmarks.filter((b) => b.status === s).length;
  const experiments = new Set(results.benchmarks.map((b) => b.experiment)).size;
  const notRun = result.planned - results.benchmarks.length;
  return [
    `results:  ${join(result.outDir, 'results.json')}`,
    `summary:  ${join(result.outDir, 'summary.md')}`,
    `gab:      ${join(result.outDir, 'gab')}/`,
    ...(result.stored ? [`history:  ${storeDir}`] : []),
    ...(result.sitePath ? [`site:     ${result.sitePath}  (npm run site -- --serve to browse it)`] : []),
    ...(result.stored && !result.sitePath && storeDir
      ? [`site:     not rebuilt for a custom store (npm run site -- --store ${storeDir} --out SITE_DIR)`]
      : []),
    `total:    ${results.benchmarks.length} benchmarks in ${experiments} experiment(s): ${count('ok')} ok, ${count('skipped')} skipped, ${count('failed')} failed${notRun > 0 ? `; ${notRun} of ${result.planned} planned not run (interrupted)` : ''}`,
    ...(t
      ? [
          t.measuredSeconds > 0
            ? `time:     ${t.totalSeconds.toFixed(1)} s in all, ${t.measuredSeconds.toFixed(1)} s in measured commands (harness overhead ${(100 * (1 - t.measuredSeconds / t.totalSeconds)).toFixed(1)}%)`
            : `time:     ${t.totalSeconds.toFixed(1)} s in all, nothing measured`,
        ]
      : []),
  ];
}

function exitStatus(result: BenchResult): number {
  if (result.interrupted) return EXIT.interrupted;
  const failed = result.results.benchmarks.filter((b) => b.status === 'failed').length;
  if (failed) {
    process.stderr.write(
      `${failed} benchmark(s) failed; their reasons are in the summary above. All other results were written.\n`,
    );
    return EXIT.benchmarksFailed;
  }
  return EXIT.ok;
}
