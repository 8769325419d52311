/**
 * npm run releases -- list | measure | changes | spread | import | nightly: runtime releases from the npm
 * registry as a trend axis of their own (per machine and runtime line, never mixed with commit
 * trends). Each subcommand parses and documents its flags through its own table (cli/options.ts).
 */
import { existsSync } from 'node:fs';
import { EXIT, UserError } from '../../lib/errors.js';
import { assertSegment } from '../../lib/ids.js';
import { ensureDirectory, existingDirectory } from '../../lib/paths.js';
import { machineInfo } from '../../machine/machine.js';
import { catalogRows } from '../../model/release-catalog.js';
import { releaseFamilies, title } from '../../model/runtime-families.js';
import { importReleases, measuredKeys, readReleaseIndex, releaseMachines } from '../../releases/release-files.js';
import { measureReleases, SWEEP_COUNTS } from '../../releases/sweeps/sweep.js';
import { intFlag, list, ROOT } from '../args.js';
import { type CommandSpec, helpText, parseCommand } from '../options.js';
import { profileFlag } from '../selection.js';
import { selectFromFlags } from './release-selection.js';
import { releasesChangesCommand, releasesChangesSpec } from './releases-changes.js';
import { releasesNightlyCommand, releasesNightlySpec } from './releases-nightly.js';
import {
  RELEASE_EXPERIMENTS_OPTION,
  RELEASE_OUT_OPTION,
  RELEASE_SELECTION_OPTIONS,
  RELEASE_STORE_OPTIONS,
} from './releases-options.js';
import { releasesSpreadCommand, releasesSpreadSpec } from './releases-spread.js';

const titles = (per: 'per-major' | 'whole') =>
  releaseFamilies()
    .filter((f) => f.releases.line === per)
    .map(title)
    .join(' and ');

const listSpec = {
  name: 'releases list',
  brief: 'the releases of each runtime line, and which ones the store has for this machine',
  summary:
    `The releases of each runtime line (${titles('per-major')} per major; ${titles('whole')} whole) with their registry dates, and which ` +
    'ones the store has for this machine at the profile.',
  options: {
    ...RELEASE_SELECTION_OPTIONS,
    json: { type: 'boolean', default: false, description: 'as JSON' },
  },
  example: 'npm run releases -- list --runtime node --since 22.0.0 --every minor',
} as const satisfies CommandSpec;

const measureSpec = {
  name: 'releases measure',
  brief: 'measure every selected release the store lacks (newest first, resumable)',
  summary:
    "Measures every selected release the store lacks, newest first and resumable: each experiment's release " +
    'suite (manifest "releases") through the bench pipeline, validated, every point traced twice and its work counted ' +
    'under valgrind, published under <store>/releases/<machine>/.',
  options: {
    ...RELEASE_SELECTION_OPTIONS,
    ...RELEASE_EXPERIMENTS_OPTION,
    limit: { type: 'string', value: 'N', description: 'at most N releases now' },
    counts: {
      type: 'string',
      default: SWEEP_COUNTS,
      value: 'WHICH',
      description:
        'whose work is counted under valgrind after the timed runs: all (every suite point, the reference too), none',
    },
    ...RELEASE_OUT_OPTION,
  },
  example: 'npm run releases -- measure --runtime node --line node22 --every minor --limit 2 --profile smoke',
  notes: ['Exit status: 0 ok; 1 some release measured nothing (the others are published); 130 interrupted.'],
} as const satisfies CommandSpec;

const importSpec = {
  name: 'releases import',
  brief: 'add releases measured elsewhere (a workflow artifact, a gh-pages data/ folder) to the store',
  summary:
    "Adds one machine's releases measured elsewhere (a workflow artifact or a gh-pages data/ folder, laid out as a " +
    "store) to --store; only that machine's files are read and written, and nothing there is removed. An artifact " +
    'is validated whole: one bad record, or releases of another machine in it, refuses the import (exit 2). With ' +
    '--from-store (a store such as gh-pages data/, whose records were validated when published) a bad record is ' +
    'skipped with one line instead.',
  options: {
    from: { type: 'string', value: 'DIR', description: 'an artifact (or a store) to take releases from (required)' },
    machine: { type: 'string', value: 'ID', description: 'the machine whose releases are taken' },
    'sole-machine': {
      type: 'boolean',
      default: false,
      description: 'instead of --machine: the one machine the artifact holds (refused when it holds more)',
    },
    'from-store': {
      type: 'boolean',
      default: false,
      description: '--from is a store: skip its bad records with one line each instead of refusing',
    },
    store: RELEASE_STORE_OPTIONS.store,
  },
  example: 'npm run releases -- import --from artifact --machine jsio-bench-1-3f2a --store results/history',
} as const satisfies CommandSpec;

async function listCommand(argv: string[]): Promise<number> {
  const { values } = parseCommand(listSpec, argv);
  const profile = profileFlag(values.profile);
  const releases = await selectFromFlags(values);
  const machine = machineInfo().id;
  const rows = catalogRows(releases, measuredKeys(readReleaseIndex(values.store, machine), profile));
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ machine, profile, releases: rows }, null, 2)}\n`);
    return EXIT.ok;
  }
  let line = '';
  const out: string[] = [`releases on the npm registry; "measured" = in ${values.store} for ${machine} at ${profile}`];
  for (const r of rows) {
    if (r.line !== line) out.push(`\n${r.line}`);
    line = r.line;
    out.push(`  ${r.version.padEnd(26)} ${r.date}${r.measured ? '  measured' : ''}`);
  }
  const done = rows.filter((r) => r.measured).length;
  out.push(`\n${rows.length} release(s), ${done} measured, ${rows.length - done} to measure`);
  process.stdout.write(`${out.join('\n')}\n`);
  return EXIT.ok;
}

async function measureCommand(argv: string[]): Promise<number> {
  const { values } = parseCommand(measureSpec, argv);
  const profile = profileFlag(values.profile);
  const limit = values.limit === undefined ? undefined : intFlag('--limit', values.limit, 1, 100_000);
  if (values.counts !== 'all' && values.counts !== 'none')
    throw new UserError(`--counts ${values.counts}: expected all, none`);
  const counts = values.counts;
  const releases = await selectFromFlags(values);
  const storeDir = ensureDirectory(values.store, '--store');
  const out = await measureReleases({
    root: ROOT,
    storeDir,
    profile,
    releases,
    ...(list(values.experiments) ? { experiments: list(values.experiments)! } : {}),
    ...(limit ? { limit } : {}),
    counts,
    workDir: ensureDirectory(values.out, '--out'),
  });
  const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const counting = counts === 'all' ? `, ${mean(out.countSeconds).toFixed(0)} s of it counting` : '';
  process.stdout.write(
    `${out.measured.length} release(s) measured and published (${mean(out.seconds).toFixed(0)} s each on average${counting}), ${out.failed.length} measured nothing, ${out.remaining} left for a later sweep\n`,
  );
  for (const f of out.failed) process.stdout.write(`  ${f.key}: ${f.why}\n`);
  if (out.interrupted) return EXIT.interrupted;
  return out.failed.length ? EXIT.benchmarksFailed : EXIT.ok;
}

/** releases import --from DIR --machine ID [--from-store] [--store DIR]: the workflow's import and publish steps. */
async function importCommand(argv: string[]): Promise<number> {
  const { values } = parseCommand(importSpec, argv);
  if (!values.from) throw new UserError('releases import needs --from DIR');
  if (!values.machine === !values['sole-machine'])
    throw new UserError('releases import needs --machine ID or --sole-machine (one machine per import)');
  const source = values['from-store'] ? 'store' : 'artifact';
  // A machine's first nightly has no gh-pages data yet: nothing to import.
  if (source === 'store' && !existsSync(values.from)) {
    process.stdout.write(`0 release(s) of ${values.machine ?? 'any machine'} added (${values.from} does not exist)\n`);
    return EXIT.ok;
  }
  const from = existingDirectory(values.from, '--from');
  const held = releaseMachines(from);
  if (values['sole-machine'] && held.length !== 1)
    throw new UserError(
      `--from ${values.from}: --sole-machine needs releases of exactly one machine; it holds ${held.length} (${held.join(', ') || 'none'})`,
    );
  const machine = assertSegment('--machine', values.machine ?? held[0]);
  const store = ensureDirectory(values.store, '--store');
  if (source === 'artifact') {
    const others = held.filter((m) => m !== machine);
    if (others.length)
      throw new UserError(
        `--from ${values.from}: the artifact holds releases of ${others.join(', ')} besides ${machine}: refusing it (an artifact carries its own machine only)`,
      );
  }
  const added = await importReleases(store, from, machine, { source });
  process.stdout.write(`${added} release(s) of ${machine} added to ${values.store}\n`);
  return EXIT.ok;
}

const SUBCOMMANDS: Record<string, { spec: CommandSpec; run: (argv: string[]) => Promise<number> }> = {
  list: { spec: listSpec, run: listCommand },
  measure: { spec: measureSpec, run: measureCommand },
  changes: { spec: releasesChangesSpec, run: releasesChangesCommand },
  spread: { spec: releasesSpreadSpec, run: releasesSpreadCommand },
  import: { spec: importSpec, run: importCommand },
  nightly: { spec: releasesNightlySpec, run: releasesNightlyCommand },
};

export const releasesSpec = {
  name: 'releases',
  brief: 'runtime releases from the npm registry as a trend axis',
  summary:
    'Runtime releases from the npm registry as a trend axis of their own (per machine and release line, never ' +
    'mixed with commit trends): the catalogue, the sweep, the changes between releases.',
  options: {},
  subcommands: Object.fromEntries(Object.entries(SUBCOMMANDS).map(([name, s]) => [name, s.spec])),
  notes: ['Exit status: 0 ok; 1 some release measured nothing; 2 refused (bad input); 130 interrupted.'],
  example: 'npm run releases -- list --runtime node --since 22.0.0 --every minor',
} as const satisfies CommandSpec;

export async function releasesCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub) {
    process.stdout.write(helpText(releasesSpec));
    return EXIT.refused;
  }
  if (!Object.hasOwn(SUBCOMMANDS, sub))
    throw new UserError(`releases ${sub}: unknown subcommand; subcommands: ${Object.keys(SUBCOMMANDS).join(', ')}`);
  return SUBCOMMANDS[sub]!.run(rest);
}
