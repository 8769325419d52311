/**
 * npm run releases -- list | measure | changes | confirm: runtime releases from the npm registry as
 * a trend axis of their own (per machine and runtime line, never mixed with commit trends).
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { EXIT, UserError } from '../../lib/errors.js';
import { ensureDirectory, existingDirectory } from '../../lib/paths.js';
import { machineInfo } from '../../machine/machine.js';
import { catalogRows } from '../../model/release-catalog.js';
import { measureReleases } from '../../releases/pipeline/sweep.js';
import { importReleases, measuredKeys, readReleaseIndex, releaseMachines } from '../../releases/store/release-files.js';
import { DEFAULT_STORE, intFlag, list, ROOT } from '../args.js';
import { type CommandSpec, helpText } from '../options.js';
import { profileFlag } from '../selection.js';
import { selectFromFlags, selection } from './release-selection.js';
import { releasesChangesCommand } from './releases-changes.js';
import { releasesNightlyCommand } from './releases-nightly.js';

export const RELEASES_HELP = `npm run releases -- <list|measure|changes> [flags]

  list      the releases of each runtime line (Node per major; Bun and Deno whole) with their
            registry dates, and which ones the store has for this machine
  measure   measure every selected release the store lacks (newest first, resumable): each
            experiment's release suite (manifest "releases") through the bench pipeline,
            validated, published under <store>/releases/<machine>/
  import    --from DIR [--machine ID]: add releases measured elsewhere (a workflow artifact or a
            gh-pages data/ folder, laid out as a store) to --store; nothing there is removed
  nightly   what releases.yml runs: new releases of the last two days, then --backfill N of the
            history, then changes (--store, --profile, --node-lines node20,node22,node24, --out)
  changes   change detection over each line's releases, bisection through intermediate builds,
            confirmation by paired diffs -> <store>/releases/<machine>/changes.json

Flags by subcommand: the table above (each says which subcommands take it).

Exit status: 0 ok; 1 some release measured nothing; 2 refused (bad input); 130 interrupted.`;

/** The command's help table (cli/options.ts): the flags of every subcommand, and what each does. */
export const releasesSpec = {
  name: 'releases',
  brief: 'runtime releases from the npm registry as a trend axis',
  summary:
    'Runtime releases from the npm registry as a trend axis of their own (per machine and release line, never mixed with commit trends): the catalogue, the sweep, the changes between releases.',
  positionals: '<list|measure|changes|import|nightly>',
  options: {
    runtime: { type: 'string', value: 'LIST', description: 'list, measure: node, bun, deno (default: all three)' },
    since: { type: 'string', value: 'X.Y.Z', description: 'list, measure: the oldest release (one --runtime only)' },
    until: { type: 'string', value: 'X.Y.Z', description: 'list, measure: the newest release (one --runtime only)' },
    after: {
      type: 'string',
      value: 'YYYY-MM-DD',
      description: 'list, measure: only releases published on or after that day',
    },
    line: { type: 'string', value: 'LIST', description: 'list, measure: only these lines (node22, bun, deno)' },
    every: {
      type: 'string',
      value: 'minor|release',
      default: 'release',
      description: 'list, measure: minor = the first release of each minor',
    },
    canaries: { type: 'boolean', description: 'list, measure: include Bun canaries' },
    'registry-json': {
      type: 'string',
      multiple: true,
      value: 'FAMILY=FILE',
      description: 'list, measure: a saved `npm view PKG time --json` answer instead of the registry',
    },
    store: { type: 'string', value: 'DIR', default: DEFAULT_STORE, description: 'the trend store' },
    profile: { type: 'string', value: 'P', default: 'quick', description: 'smoke|quick|standard|full' },
    experiments: {
      type: 'string',
      value: 'LIST',
      description: "measure, changes: only these experiments' release suites",
    },
    limit: { type: 'string', value: 'N', description: 'measure: at most N releases now' },
    out: {
      type: 'string',
      value: 'DIR',
      description: "measure, changes: where the releases' bench runs write (default results/releases)",
    },
    bisect: {
      type: 'string',
      value: 'N',
      description: 'changes: intermediate builds measured per change at most (default 3)',
    },
    confirm: { type: 'boolean', description: 'changes: confirm each change by a paired diff of its two releases' },
    'confirm-budget': {
      type: 'string',
      value: 'MINUTES',
      description: 'changes: minutes of pairs per change (default 4)',
    },
    from: { type: 'string', value: 'DIR', description: 'import: a store (or artifact) to take releases from' },
    machine: { type: 'string', value: 'ID', description: 'import: only this machine' },
    json: { type: 'boolean', description: 'list: as JSON' },
  },
  notes: RELEASES_HELP.split('\n'),
  example: 'npm run releases -- list --runtime node --since 22.0.0 --every minor',
} as const satisfies CommandSpec;

async function listCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: { ...selection(), json: { type: 'boolean', default: false } },
  });
  if (values.help) return help();
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
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      ...selection(),
      experiments: { type: 'string' },
      limit: { type: 'string' },
      out: { type: 'string', default: join(ROOT, 'results', 'releases') },
    },
  });
  if (values.help) return help();
  const profile = profileFlag(values.profile);
  const limit = values.limit === undefined ? undefined : intFlag('--limit', values.limit, 1, 100_000);
  const releases = await selectFromFlags(values);
  const storeDir = ensureDirectory(values.store, '--store');
  const out = await measureReleases({
    root: ROOT,
    storeDir,
    profile,
    releases,
    ...(list(values.experiments) ? { experiments: list(values.experiments)! } : {}),
    ...(limit ? { limit } : {}),
    workDir: ensureDirectory(values.out, '--out'),
  });
  const mean = out.seconds.length ? out.seconds.reduce((a, b) => a + b, 0) / out.seconds.length : 0;
  process.stdout.write(
    `${out.measured.length} release(s) measured and published (${mean.toFixed(0)} s each on average), ${out.failed.length} measured nothing, ${out.remaining} left for a later sweep\n`,
  );
  for (const f of out.failed) process.stdout.write(`  ${f.key}: ${f.why}\n`);
  if (out.interrupted) return EXIT.interrupted;
  return out.failed.length ? EXIT.benchmarksFailed : EXIT.ok;
}

/** releases import --from DIR --machine ID [--store DIR]: the workflow's publish step. */
async function importCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      from: { type: 'string' },
      machine: { type: 'string' },
      store: { type: 'string', default: DEFAULT_STORE },
    },
  });
  if (!values.from) throw new UserError('releases import needs --from DIR');
  const from = existingDirectory(values.from, '--from');
  const store = ensureDirectory(values.store, '--store');
  const machines = values.machine ? [values.machine] : releaseMachines(from);
  for (const m of machines)
    process.stdout.write(`${await importReleases(store, from, m)} release(s) of ${m} added to ${values.store}\n`);
  return EXIT.ok;
}

function help(): number {
  process.stdout.write(helpText(releasesSpec));
  return EXIT.ok;
}

export async function releasesCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub || sub === '--help' || sub === '-h') {
    process.stdout.write(helpText(releasesSpec));
    return sub ? EXIT.ok : EXIT.refused;
  }
  if (sub === 'list') return listCommand(rest);
  if (sub === 'measure') return measureCommand(rest);
  if (sub === 'changes') return releasesChangesCommand(rest);
  if (sub === 'import') return importCommand(rest);
  if (sub === 'nightly') return releasesNightlyCommand(rest);
  throw new UserError(`releases ${sub}: unknown subcommand; subcommands: list, measure, changes, import, nightly`);
}
