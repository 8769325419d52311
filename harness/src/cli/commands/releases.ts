/**
 * npm run releases -- list | measure | changes | confirm: runtime releases from the npm registry as
 * a trend axis of their own (per machine and runtime line, never mixed with commit trends).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { EXIT, UserError } from '../../lib/errors.js';
import { ensureDirectory } from '../../lib/paths.js';
import { machineInfo } from '../../machine/machine.js';
import { registryReleases } from '../../machine/releases.js';
import { isProfile, PROFILES } from '../../model/profiles.js';
import { FAMILIES, type Family, isFamily, isVersion } from '../../model/release.js';
import {
  type CatalogFilter,
  catalogRows,
  DEFAULT_SINCE,
  parseRegistryTimes,
  type Release,
  selectReleases,
} from '../../model/release-catalog.js';
import { measureReleases } from '../../pipeline/releases.js';
import { measuredKeys, readReleaseIndex } from '../../store/releases.js';
import { DEFAULT_STORE, intFlag, list, ROOT } from '../args.js';
import type { CommandSpec } from '../options.js';
import { releasesChangesCommand } from './releases-changes.js';

export const RELEASES_HELP = `npm run releases -- <list|measure|changes> [flags]

  list      the releases of each runtime line (Node per major; Bun and Deno whole) with their
            registry dates, and which ones the store has for this machine
  measure   measure every selected release the store lacks (newest first, resumable): each
            experiment's release suite (manifest "releases") through the bench pipeline,
            validated, published under <store>/releases/<machine>/
  changes   change detection over each line's releases, bisection through intermediate builds,
            confirmation by paired diffs -> <store>/releases/<machine>/changes.json

selection (list, measure):
  --runtime node,bun,deno   families (default: all three)
  --since X.Y.Z             oldest release (one --runtime only; default node 20.0.0, bun 1.0.0, deno 2.0.0)
  --until X.Y.Z             newest release (one --runtime only)
  --after YYYY-MM-DD        only releases the registry published on or after that day
  --line node22,...         only these lines
  --every minor|release     minor: the first release of each minor (default: release)
  --canaries                include Bun canaries
  --registry-json FAMILY=FILE   read a saved \`npm view PKG time --json\` answer instead of asking the registry
  --store DIR               the trend store (default results/history)
  --profile P               smoke|quick|standard|full (default quick)

measure:
  --experiments a,b         only these experiments' suites (default: every experiment with one)
  --limit N                 at most N releases now (the rest stay for the next sweep)
  --out DIR                 where each release's bench runs write (default results/releases)

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

const selection = () => ({
  runtime: { type: 'string' as const },
  since: { type: 'string' as const },
  until: { type: 'string' as const },
  after: { type: 'string' as const },
  line: { type: 'string' as const },
  every: { type: 'string' as const, default: 'release' },
  canaries: { type: 'boolean' as const, default: false },
  'registry-json': { type: 'string' as const, multiple: true as const, default: [] as string[] },
  store: { type: 'string' as const, default: DEFAULT_STORE },
  profile: { type: 'string' as const, default: 'quick' },
  help: { type: 'boolean' as const, default: false },
});

type SelectionValues = {
  runtime?: string;
  since?: string;
  until?: string;
  after?: string;
  line?: string;
  every?: string;
  canaries?: boolean;
  'registry-json'?: string[];
  profile?: string;
};

function families(flag: string | undefined): Family[] {
  const asked = list(flag) ?? [...FAMILIES];
  for (const f of asked)
    if (!isFamily(f)) throw new UserError(`--runtime ${f}: unknown runtime; runtimes: ${FAMILIES.join(', ')}`);
  return asked as Family[];
}

function versionFlag(flag: string, v: string | undefined): string | undefined {
  if (v !== undefined && !isVersion(v)) throw new UserError(`${flag} ${v}: expected a version X.Y.Z`);
  return v;
}

function dayFlag(v: string | undefined): string | undefined {
  if (v !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(v)) throw new UserError(`--after ${v}: expected a day YYYY-MM-DD`);
  return v;
}

/** The releases the selection flags choose, from the registry (or saved answers), oldest first. */
export async function selectFromFlags(v: SelectionValues): Promise<Release[]> {
  const fams = families(v.runtime);
  if ((v.since || v.until) && fams.length !== 1)
    throw new UserError('--since and --until need one --runtime (versions of different runtimes do not compare)');
  if (v.every !== 'minor' && v.every !== 'release')
    throw new UserError(`--every ${v.every}: expected minor or release`);
  const saved = new Map<string, string>();
  for (const f of v['registry-json'] ?? []) {
    const m = /^(node|bun|deno)=(.+)$/.exec(f);
    if (!m) throw new UserError(`--registry-json ${f}: expected FAMILY=FILE (e.g. node=node-time.json)`);
    saved.set(m[1]!, m[2]!);
  }
  const all: Release[] = [];
  for (const fam of fams) {
    const file = saved.get(fam);
    let text: unknown;
    if (file) {
      try {
        text = JSON.parse(readFileSync(file, 'utf8'));
      } catch (e) {
        throw new UserError(`--registry-json ${fam}=${file}: ${(e as Error).message}`);
      }
    }
    all.push(...(file ? parseRegistryTimes(fam, text, file) : await registryReleases(fam)));
  }
  const filter: CatalogFilter = {
    since: versionFlag('--since', v.since) ?? (fams.length === 1 ? DEFAULT_SINCE[fams[0]!] : undefined),
    ...(versionFlag('--until', v.until) ? { until: v.until } : {}),
    ...(dayFlag(v.after) ? { after: v.after } : {}),
    ...(list(v.line) ? { lines: list(v.line)! } : {}),
    canaries: v.canaries ?? false,
    every: v.every,
  };
  // With several runtimes, each starts at its own default.
  for (const l of filter.lines ?? [])
    if (!fams.some((f) => l.startsWith(f)))
      throw new UserError(`--line ${l}: not a line of ${fams.join(', ')} (lines: node20, node22, ..., bun, deno)`);
  if (fams.length > 1)
    return fams.flatMap((f) =>
      filter.lines && !filter.lines.some((l) => l.startsWith(f))
        ? []
        : selectReleases(
            all.filter((r) => r.family === f),
            {
              ...filter,
              since: DEFAULT_SINCE[f],
              ...(filter.lines ? { lines: filter.lines.filter((l) => l.startsWith(f)) } : {}),
            },
          ),
    );
  return selectReleases(all, filter);
}

function profileFlag(p: string | undefined) {
  const profile = p ?? 'quick';
  if (!isProfile(profile))
    throw new UserError(`--profile ${profile}: unknown profile; valid profiles: ${PROFILES.join(', ')}`);
  return profile;
}

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

function help(): number {
  process.stdout.write(`${RELEASES_HELP}\n`);
  return EXIT.ok;
}

export async function releasesCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub || sub === '--help' || sub === '-h') {
    process.stdout.write(`${RELEASES_HELP}\n`);
    return sub ? EXIT.ok : EXIT.refused;
  }
  if (sub === 'list') return listCommand(rest);
  if (sub === 'measure') return measureCommand(rest);
  if (sub === 'changes') return releasesChangesCommand(rest);
  throw new UserError(`releases ${sub}: unknown subcommand; subcommands: list, measure, changes`);
}
