/** npm run releases -- changes: timing, counter and work changes over each line's releases, bisection, confirmation. */
import { EXIT } from '../../lib/errors.js';
import { plural } from '../../lib/format.js';
import { ensureDirectory } from '../../lib/paths.js';
import { bySize, counterGroups, counterGroupText, SMALL_COUNTER_STEP } from '../../releases/counter-groups.js';
import { releaseConfirmer } from '../../releases/sweeps/confirm-in-pairs.js';
import { changeCounts, releaseChanges } from '../../releases/sweeps/find-changes.js';
import { profileChange } from '../../releases/sweeps/profile-change.js';
import { intFlag, list, ROOT } from '../args.js';
import { type CommandSpec, parseCommand } from '../options.js';
import { profileFlag } from '../selection.js';
import { RELEASE_EXPERIMENTS_OPTION, RELEASE_OUT_OPTION, RELEASE_STORE_OPTIONS } from './releases-options.js';

export const releasesChangesSpec = {
  name: 'releases changes',
  brief: "timing, exact counter and work changes over each line's releases, bisection, confirmation by paired diffs",
  summary:
    "Runs the site's change-point detection over each runtime line's measured releases (one series per " +
    "release-suite point and suite metric), compares each point's traced syscall counts between consecutive " +
    'releases (a change when every trace of both releases agrees) and its instructions counted under valgrind (a ' +
    "change beyond the tolerance where each release's counts agree within it), narrows each change through the intermediate builds " +
    'the registry has (Node patch releases, Bun canaries), confirms each timing change with --confirm by a paired diff of the ' +
    "two releases on the same program (npm run pairs' engine: base = the release before, head = the one after, " +
    "the same checkout; counter and work changes are exact and need none), adds the releases' dates and the release notes " +
    "between them from the packages' changelogs, and writes <store>/releases/<machine>/changes.json: confirmed " +
    'changes, and the candidates apart.',
  options: {
    ...RELEASE_STORE_OPTIONS,
    ...RELEASE_EXPERIMENTS_OPTION,
    bisect: {
      type: 'string',
      value: 'N',
      default: '3',
      description: 'intermediate builds measured per change at most (0 to skip)',
    },
    confirm: {
      type: 'boolean',
      default: false,
      description: 'confirm each change by a paired diff of its two releases',
    },
    'confirm-budget': { type: 'string', value: 'MINUTES', default: '4', description: 'minutes of pairs per change' },
    'profile-changes': {
      type: 'boolean',
      default: false,
      description: "profile each confirmed change under both releases (V8's --cpu-prof, else perf)",
    },
    ...RELEASE_OUT_OPTION,
  },
  example: 'npm run releases -- changes --profile smoke --experiments wc --bisect 0',
} as const satisfies CommandSpec;

export async function releasesChangesCommand(argv: string[]): Promise<number> {
  const { values } = parseCommand(releasesChangesSpec, argv);
  const profile = profileFlag(values.profile);
  const workDir = ensureDirectory(values.out, '--out');
  const file = await releaseChanges({
    root: ROOT,
    storeDir: ensureDirectory(values.store, '--store'),
    profile,
    workDir,
    bisectSteps: intFlag('--bisect', values.bisect, 0, 20),
    ...(list(values.experiments) ? { experiments: list(values.experiments)! } : {}),
    ...(values.confirm
      ? {
          confirm: releaseConfirmer({
            root: ROOT,
            profile,
            askedSeconds: 60 * intFlag('--confirm-budget', values['confirm-budget'], 1, 120),
          }),
        }
      : {}),
    ...(values['profile-changes'] ? { profileChange: (c) => profileChange(c, { root: ROOT, profile, workDir }) } : {}),
    log: (m) => process.stderr.write(`${m}\n`),
  });
  const { large, small } = bySize(counterGroups(file.changes));
  const lines = [
    `${changeCounts(file)} -> releases/${file.machine}/changes.json`,
    ...file.changes.filter((c) => (c.kind ?? 'timing') === 'timing').map((c) => `  ${c.text}`),
    ...file.changes.filter((c) => c.kind === 'work').map((c) => `  ${c.text}`),
    ...large.map((g) => `  ${counterGroupText(g)}`),
    ...(small.length
      ? [
          `  and ${plural(small.length, 'release pair and point', 'release pairs and points')} whose counts moved by at most ${SMALL_COUNTER_STEP} calls per run (in changes.json)`,
        ]
      : []),
    ...file.candidates.map((c) => `  ${c.text}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return EXIT.ok;
}
