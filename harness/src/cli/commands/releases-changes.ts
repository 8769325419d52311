/** npm run releases -- changes: detection over each line's releases, bisection, confirmation. */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { EXIT } from '../../lib/errors.js';
import { ensureDirectory } from '../../lib/paths.js';
import { releaseConfirmer } from '../../releases/pipeline/confirm-in-pairs.js';
import { releaseChanges } from '../../releases/pipeline/find-changes.js';
import { DEFAULT_STORE, intFlag, list, ROOT } from '../args.js';
import { profileFlag } from '../selection.js';

export const CHANGES_HELP = `npm run releases -- changes [--store DIR] [--profile P] [--experiments a,b] [--bisect N]
                            [--confirm [--confirm-budget MINUTES]] [--out DIR]

  Runs the site's change-point detection over each runtime line's measured releases (one series
  per release-suite point, on the suite's first metric), narrows each change through the
  intermediate builds the registry has (Node patch releases, Bun canaries; at most N builds
  measured per change, default 3, 0 to skip), confirms each with --confirm by a paired diff of the
  two releases on the same program (npm run pairs' engine: base = the release before, head = the
  one after, the same checkout; MINUTES of pairs per change, default 4), and writes
  <store>/releases/<machine>/changes.json: confirmed changes, and the candidates apart.`;

export async function releasesChangesCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      store: { type: 'string', default: DEFAULT_STORE },
      profile: { type: 'string', default: 'quick' },
      experiments: { type: 'string' },
      bisect: { type: 'string', default: '3' },
      confirm: { type: 'boolean', default: false },
      'confirm-budget': { type: 'string', default: '4' },
      out: { type: 'string', default: join(ROOT, 'results', 'releases') },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${CHANGES_HELP}\n`);
    return EXIT.ok;
  }
  const profile = profileFlag(values.profile);
  const file = await releaseChanges({
    root: ROOT,
    storeDir: ensureDirectory(values.store, '--store'),
    profile,
    workDir: ensureDirectory(values.out, '--out'),
    bisectSteps: intFlag('--bisect', values.bisect, 0, 20),
    ...(list(values.experiments) ? { experiments: list(values.experiments)! } : {}),
    ...(values.confirm
      ? {
          confirm: releaseConfirmer({
            root: ROOT,
            profile,
            budgetSeconds: 60 * intFlag('--confirm-budget', values['confirm-budget'], 1, 120),
          }),
        }
      : {}),
    log: (m) => process.stderr.write(`${m}\n`),
  });
  const lines = [
    `${file.changes.length} confirmed change(s), ${file.candidates.length} candidate(s) -> releases/${file.machine}/changes.json`,
    ...file.changes.map((c) => `  ${c.text}`),
    ...file.candidates.map((c) => `  ${c.text}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return EXIT.ok;
}
