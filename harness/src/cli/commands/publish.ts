/** npm run publish: a run into a trend store (or, with --noise, calibrations). */
import { parseArgs } from 'node:util';
import { readNoiseFile } from '../../calibrate/noise.js';
import { EXIT, UserError } from '../../lib/errors.js';
import { ensureDirectory } from '../../lib/paths.js';
import { readResults } from '../../model/read-results.js';
import { publishNoise, publishRun } from '../../store/store.js';
import { DEFAULT_STORE } from '../args.js';

export async function publishCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: { store: { type: 'string', default: DEFAULT_STORE }, noise: { type: 'boolean', default: false } },
  });
  if (values.noise) {
    // Calibrations (calibrate.yml's artifacts): each replaces its machine's noise.json.
    if (!positionals.length) throw new UserError('publish --noise needs one or more noise.json files');
    const files = positionals.map((p) => ({ p, noise: readNoiseFile(p) }));
    const store = ensureDirectory(values.store, '--store');
    for (const { p, noise } of files)
      process.stdout.write(`stored ${p} (machine ${noise.machine}) as ${publishNoise(store, noise)}\n`);
    return EXIT.ok;
  }
  if (positionals.length !== 1)
    throw new UserError('publish needs exactly one results.json (or --noise with noise.json files)');
  const results = readResults(positionals[0]!);
  if (results.run.partial)
    throw new UserError(`${positionals[0]} is a partial (interrupted) run: it is never published`);
  const { machineDir, replaced, profile, window } = await publishRun(ensureDirectory(values.store, '--store'), results);
  // A second publish of a commit and profile merges (benchmarks replaced by id, the rest kept).
  process.stdout.write(
    `${replaced ? 'merged into' : 'added'} commit ${results.run.commit.sha} (profile ${profile}, window ${window}) in ${machineDir}\n`,
  );
  return EXIT.ok;
}
