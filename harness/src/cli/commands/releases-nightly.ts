/**
 * npm run releases -- nightly: what releases.yml runs each night on a benchmark machine. The
 * releases the registry published in the last two days on the tracked lines, then a bounded
 * slice of the back-fill (each family's default lines and back-fill in model/runtimes.ts: the
 * first release of every minor of the Node lines, every Bun 1.x and Deno 2.x release), newest
 * first; then change detection with bisection and paired confirmation. Exit 1 when a release
 * measured nothing (the others are published), like bench's "some benchmarks failed".
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { EXIT, UserError } from '../../lib/errors.js';
import { ensureDirectory } from '../../lib/paths.js';
import { isProfile, PROFILES } from '../../model/profiles.js';
import { releaseFamilies } from '../../model/runtimes.js';
import { releaseConfirmer } from '../../releases/pipeline/confirm-in-pairs.js';
import { releaseChanges } from '../../releases/pipeline/find-changes.js';
import { measureReleases } from '../../releases/pipeline/sweep.js';
import { DEFAULT_STORE, intFlag, ROOT } from '../args.js';
import { type SelectionValues, selectFromFlags } from './release-selection.js';

/** A family's default release lines, comma-separated (undefined: every line). */
function defaultLines(family: string): string | undefined {
  return releaseFamilies()
    .find((f) => f.key === family)
    ?.releases.defaults.lines?.join(',');
}

type Sweep = SelectionValues & { limit?: number };

/** The new releases of every family, then each family's back-fill, each on its default lines. */
function nightlySweeps(after: string, backfill: number, nodeLines: string | undefined): Sweep[] {
  const sweep = (f: ReturnType<typeof releaseFamilies>[number]) => {
    const line = f.key === 'node' ? nodeLines : defaultLines(f.key);
    return { runtime: f.key, since: f.releases.defaults.since, ...(line ? { line } : {}) };
  };
  return [
    ...releaseFamilies().map((f) => ({ ...sweep(f), after })),
    ...releaseFamilies().map((f) => ({ ...sweep(f), every: f.releases.defaults.backfill, limit: backfill })),
  ];
}

export async function releasesNightlyCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      store: { type: 'string', default: DEFAULT_STORE },
      profile: { type: 'string', default: 'quick' },
      'node-lines': { type: 'string', default: defaultLines('node') },
      backfill: { type: 'string', default: '40' },
      out: { type: 'string', default: join(ROOT, 'results', 'releases') },
    },
  });
  const profile = values.profile;
  if (!isProfile(profile))
    throw new UserError(`--profile ${profile}: unknown profile; valid profiles: ${PROFILES.join(', ')}`);
  const backfill = intFlag('--backfill', values.backfill, 0, 10_000);
  const storeDir = ensureDirectory(values.store, '--store');
  const workDir = ensureDirectory(values.out, '--out');
  const after = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  const sweeps = nightlySweeps(after, backfill, values['node-lines']);
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
    // Each change is confirmed by a paired diff of its two releases (4 minutes of pairs at most).
    confirm: releaseConfirmer({ root: ROOT, profile, budgetSeconds: 240 }),
    log: (m) => process.stderr.write(`${m}\n`),
  });
  process.stdout.write(
    `${changes.changes.length} confirmed change(s), ${changes.candidates.length} candidate(s); ${failed} release(s) measured nothing\n`,
  );
  return failed ? EXIT.benchmarksFailed : EXIT.ok;
}
