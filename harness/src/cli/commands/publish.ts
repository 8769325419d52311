/**
 * npm run publish-run: a run into a trend store (or, with --noise, calibrations; with --remove, a
 * run out of it). Not `npm run publish`: a script of that name is also npm's lifecycle hook for
 * `npm publish`, so the verb would run this command by accident.
 */

import { readResultsArtifact } from '../../formats/read-results.js';
import { EXIT, UserError } from '../../lib/errors.js';
import { ensureDirectory, existingDirectory } from '../../lib/paths.js';
import { readNoiseFile } from '../../store/noise-thresholds.js';
import { publishNoise, publishRun } from '../../store/publish-run.js';
import { removeRun } from '../../store/remove.js';
import { DEFAULT_STORE } from '../args.js';
import { type CommandSpec, parseCommand, refuseTogether } from '../options.js';

export const publishSpec = {
  name: 'publish-run',
  brief: 'add a run to a trend store, or --remove one',
  summary:
    'Adds a run to a trend store (per machine, one run per commit and profile; a second publish of a commit and ' +
    'profile merges into it; atomic and locked), stores calibrations with --noise, or removes a run with --remove.',
  positionals: 'RESULTS.json | NOISE.json...',
  options: {
    store: { type: 'string', default: DEFAULT_STORE, value: 'DIR', description: 'the store' },
    noise: { type: 'boolean', default: false, description: 'the files are noise.json calibrations' },
    remove: { type: 'string', value: 'SHA', description: "remove a commit's run (then npm run site shows it gone)" },
    profile: { type: 'string', value: 'P', description: 'with --remove: which profile (needed when it has several)' },
    machine: {
      type: 'string',
      value: 'ID',
      description: 'with --remove: which machine (needed when the store has several)',
    },
  },
  example: 'npm run publish-run -- results/latest/results.json --store results/history',
} as const satisfies CommandSpec;

export async function publishCommand(argv: string[]): Promise<number> {
  const { values, positionals, given } = parseCommand(publishSpec, argv);
  refuseTogether(given, 'remove', 'noise', 'remove a run or store calibrations, one at a time');
  if (values.remove !== undefined) {
    if (positionals.length) throw new UserError('--remove takes no results.json: it removes a stored run');
    const store = existingDirectory(values.store, '--store');
    const r = await removeRun(store, {
      commit: values.remove,
      ...(values.profile ? { profile: values.profile } : {}),
      ...(values.machine ? { machine: values.machine } : {}),
    });
    process.stdout.write(
      `removed the ${r.profile} run of commit ${r.sha} (machine ${r.machine}) from ${store}${r.commitGone ? '; the commit has no run left' : ''}\n`,
    );
    return EXIT.ok;
  }
  for (const f of ['profile', 'machine']) if (given.has(f)) throw new UserError(`--${f} goes with --remove only`);
  if (values.noise) {
    // Calibrations (calibrate.yml's artifacts): each replaces its machine's noise.json.
    if (!positionals.length) throw new UserError('publish-run --noise needs one or more noise.json files');
    const files = positionals.map((p) => ({ p, noise: readNoiseFile(p) }));
    const store = ensureDirectory(values.store, '--store');
    for (const { p, noise } of files)
      process.stdout.write(`stored ${p} (machine ${noise.machine}) as ${publishNoise(store, noise)}\n`);
    return EXIT.ok;
  }
  if (positionals.length !== 1)
    throw new UserError(
      'publish-run needs exactly one results.json (or --noise with noise.json files, or --remove SHA)',
    );
  const results = readResultsArtifact(positionals[0]!);
  if (results.run.partial)
    throw new UserError(`${positionals[0]} is a partial (interrupted) run: it is never published`);
  const { machineDir, replaced, profile, window } = await publishRun(ensureDirectory(values.store, '--store'), results);
  // A second publish of a commit and profile merges (benchmarks replaced by id, the rest kept).
  process.stdout.write(
    `${replaced ? 'merged into' : 'added'} commit ${results.run.commit.sha} (profile ${profile}, window ${window}) in ${machineDir}\n`,
  );
  return EXIT.ok;
}
