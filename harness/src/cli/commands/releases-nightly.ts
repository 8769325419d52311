/**
 * npm run releases -- nightly: what releases.yml runs each night on a benchmark machine. The
 * releases the registry published in the last two days on the tracked lines, then a bounded
 * slice of the back-fill (each family's default lines and back-fill in model/runtime-families.ts: the
 * first release of every minor of the Node lines, every Bun 1.x and Deno 2.x release), newest
 * first; then change detection with bisection, paired confirmation and a profile of each confirmed change. Exit 1 when a release
 * measured nothing (the others are published), like bench's "some benchmarks failed".
 */
import { EXIT, UserError } from '../../lib/errors.js';
import { ensureDirectory } from '../../lib/paths.js';
import { lineExamples, releaseFamilies } from '../../model/runtime-families.js';
import { releaseConfirmer } from '../../releases/sweeps/confirm-in-pairs.js';
import { changeCounts, releaseChanges } from '../../releases/sweeps/find-changes.js';
import { profileChange } from '../../releases/sweeps/profile-change.js';
import { measureReleases } from '../../releases/sweeps/sweep.js';
import { intFlag, list, ROOT } from '../args.js';
import { type CommandSpec, parseCommand } from '../options.js';
import { profileFlag } from '../selection.js';
import { type SelectionValues, selectFromFlags } from './release-selection.js';
import { RELEASE_EXPERIMENTS_OPTION, RELEASE_OUT_OPTION, RELEASE_STORE_OPTIONS } from './releases-options.js';

type Sweep = SelectionValues & { limit?: number };
type ReleaseFamily = ReturnType<typeof releaseFamilies>[number];

/** The lines tracked of each family: those `--lines` names of it, else its default lines (undefined: every line). */
function trackedLines(lines: readonly string[] | undefined): Map<ReleaseFamily, string | undefined> {
  // A line starts with its family's key: node22 is Node's, bun is Bun's.
  const familyOfLine = (l: string) => releaseFamilies().find((f) => l.startsWith(f.key));
  for (const l of lines ?? [])
    if (!familyOfLine(l))
      throw new UserError(
        `--lines ${l}: not a release line (lines: ${releaseFamilies()
          .flatMap((f) => lineExamples(f, 2))
          .join(', ')})`,
      );
  return new Map(
    releaseFamilies().map((f) => {
      const named = lines?.filter((l) => familyOfLine(l) === f) ?? [];
      return [f, named.length ? named.join(',') : f.releases.defaults.lines?.join(',')];
    }),
  );
}

/** The new releases of every family, then each family's back-fill, each on its tracked lines. */
export function nightlySweeps(after: string, backfill: number, lines: readonly string[] | undefined): Sweep[] {
  const tracked = trackedLines(lines);
  const sweep = (f: ReleaseFamily) => {
    const line = tracked.get(f);
    return { runtime: f.key, since: f.releases.defaults.since, ...(line ? { line } : {}) };
  };
  return [
    ...releaseFamilies().map((f) => ({ ...sweep(f), after })),
    ...releaseFamilies().map((f) => ({ ...sweep(f), every: f.releases.defaults.backfill, limit: backfill })),
  ];
}

export const releasesNightlySpec = {
  name: 'releases nightly',
  brief: 'what releases.yml runs: new releases, a slice of the back-fill, then changes',
  summary:
    'What releases.yml runs each night: the releases of the last two days on the tracked lines, then --backfill ' +
    'releases of the history (newest first), then changes with bisection and paired confirmation.',
  options: {
    ...RELEASE_STORE_OPTIONS,
    lines: {
      type: 'string',
      value: 'LIST',
      description: `the release lines tracked, in place of the default lines of each family they name (default: ${releaseFamilies()
        .flatMap((f) => f.releases.defaults.lines ?? [])
        .join(',')}; the others every line)`,
    },
    backfill: {
      type: 'string',
      value: 'N',
      default: '40',
      description: 'at most N releases of the history per runtime',
    },
    ...RELEASE_EXPERIMENTS_OPTION,
    ...RELEASE_OUT_OPTION,
  },
  example: 'npm run releases -- nightly --profile quick --backfill 0',
  notes: ['Exit status: 0 ok; 1 some release measured nothing (the others are published); 130 interrupted.'],
} as const satisfies CommandSpec;

export async function releasesNightlyCommand(argv: string[]): Promise<number> {
  const { values } = parseCommand(releasesNightlySpec, argv);
  const profile = profileFlag(values.profile);
  const backfill = intFlag('--backfill', values.backfill, 0, 10_000);
  const after = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  const sweeps = nightlySweeps(after, backfill, list(values.lines));
  const storeDir = ensureDirectory(values.store, '--store');
  const workDir = ensureDirectory(values.out, '--out');
  // A dispatch may narrow the night to some experiments' suites: measuring and change detection alike.
  const experiments = list(values.experiments);
  const only = experiments ? { experiments } : {};
  let failed = 0;
  for (const s of sweeps) {
    if (s.limit === 0) continue;
    const releases = await selectFromFlags({ every: 'release', ...s });
    const out = await measureReleases({
      root: ROOT,
      storeDir,
      profile,
      releases,
      workDir,
      ...only,
      ...(s.limit ? { limit: s.limit } : {}),
    });
    failed += out.failed.length;
    if (out.interrupted) return EXIT.interrupted;
  }
  const changes = await releaseChanges({
    root: ROOT,
    storeDir,
    profile,
    workDir,
    bisectSteps: 3,
    ...only,
    // Each change is confirmed by a paired diff of its two releases (4 minutes of pairs at most).
    confirm: releaseConfirmer({ root: ROOT, profile, askedSeconds: 240 }),
    // Each confirmed change is profiled under both releases (the runtime's profiler, else perf).
    profileChange: (c) => profileChange(c, { root: ROOT, profile, workDir }),
    log: (m) => process.stderr.write(`${m}\n`),
  });
  process.stdout.write(`${changeCounts(changes)}; ${failed} release(s) measured nothing\n`);
  return failed ? EXIT.benchmarksFailed : EXIT.ok;
}
