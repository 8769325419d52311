/**
 * npm run releases -- nightly: what releases.yml runs each night on a benchmark machine. The
 * releases the registry published in the last two days on the tracked lines, then a bounded
 * slice of the back-fill (the first release of every minor of the Node lines, every Bun 1.x and
 * Deno 2.x release), newest first; then change detection with bisection and paired confirmation. Exit 1 when a release
 * measured nothing (the others are published), like bench's "some benchmarks failed".
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { EXIT } from '../../lib/errors.js';
import { ensureDirectory } from '../../lib/paths.js';
import { releaseConfirmer } from '../../releases/pipeline/confirm-in-pairs.js';
import { releaseChanges } from '../../releases/pipeline/find-changes.js';
import { measureReleases } from '../../releases/pipeline/sweep.js';
import { DEFAULT_STORE, intFlag, ROOT } from '../args.js';
import { profileFlag } from '../selection.js';
import { selectFromFlags } from './release-selection.js';

export async function releasesNightlyCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      store: { type: 'string', default: DEFAULT_STORE },
      profile: { type: 'string', default: 'quick' },
      'node-lines': { type: 'string', default: 'node20,node22,node24' },
      backfill: { type: 'string', default: '40' },
      out: { type: 'string', default: join(ROOT, 'results', 'releases') },
    },
  });
  const profile = profileFlag(values.profile);
  const backfill = intFlag('--backfill', values.backfill, 0, 10_000);
  const storeDir = ensureDirectory(values.store, '--store');
  const workDir = ensureDirectory(values.out, '--out');
  const after = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  const lines = values['node-lines'];
  const sweeps = [
    { runtime: 'node', line: lines, since: '20.0.0', after },
    { runtime: 'bun', after },
    { runtime: 'deno', after },
    { runtime: 'node', line: lines, since: '20.0.0', every: 'minor', limit: backfill },
    { runtime: 'bun', since: '1.0.0', limit: backfill },
    { runtime: 'deno', since: '2.0.0', limit: backfill },
  ];
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
