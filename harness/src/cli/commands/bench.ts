/** npm run bench: the main job (pipeline/bench.ts) with its flags; prints the summary and where everything went. */
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { EXIT, UserError } from '../../lib/errors.js';
import { ensureDirectory, existingDirectory } from '../../lib/paths.js';
import { isProfile, PROFILES } from '../../model/profiles.js';
import { bench } from '../../pipeline/bench.js';
import { buildSite } from '../../site/build-site.js';
import { DEFAULT_STORE, intFlag, list, parseParamFlags, ROOT } from '../args.js';

export async function benchCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      // JSIO_PROFILE changes the default (the docs' command test runs them at smoke size).
      profile: { type: 'string', default: process.env.JSIO_PROFILE ?? 'quick' },
      experiments: { type: 'string' },
      variants: { type: 'string' },
      param: { type: 'string', multiple: true, default: [] },
      out: { type: 'string', default: join(ROOT, 'results', 'latest') },
      store: { type: 'string', default: DEFAULT_STORE },
      'no-store': { type: 'boolean', default: false },
      require: { type: 'string', multiple: true, default: [] },
      programs: { type: 'string', default: join(ROOT, 'programs') },
      strict: { type: 'boolean', default: false },
      runs: { type: 'string' },
      'profile-cpu': { type: 'boolean', default: false },
    },
  });
  const runs = values.runs === undefined ? undefined : intFlag('--runs', values.runs, 1, 9999);
  if (!isProfile(values.profile))
    throw new UserError(`--profile ${values.profile}: unknown profile; valid profiles: ${PROFILES.join(', ')}`);
  const storeDir = values['no-store'] ? undefined : ensureDirectory(values.store, '--store');
  const outcome = await bench({
    root: ROOT,
    profile: values.profile,
    filters: {
      ...(list(values.experiments) ? { experiments: list(values.experiments) } : {}),
      ...(list(values.variants) ? { variants: list(values.variants) } : {}),
      params: parseParamFlags(values.param),
    },
    outDir: values.out,
    // The site lives beside its store: results/history -> results/site.
    ...(storeDir ? { storeDir, buildSite: (s: string) => buildSite(ROOT, s, join(dirname(s), 'site')) } : {}),
    require: values.require.flatMap((r) => list(r) ?? []),
    programsDir: existingDirectory(values.programs, '--programs'),
    strict: values.strict,
    ...(runs ? { runs } : {}),
    profileCpu: values['profile-cpu'],
  });
  process.stdout.write(`\n${outcome.summaryText}\n`);
  const { results } = outcome;
  const t = results.run.timing;
  const failed = results.benchmarks.filter((b) => b.status === 'failed').length;
  const lines = [
    `results:  ${join(outcome.outDir, 'results.json')}`,
    `summary:  ${join(outcome.outDir, 'summary.md')}`,
    `gab:      ${join(outcome.outDir, 'gab')}/`,
    ...(outcome.sitePath ? [`site:     ${outcome.sitePath}  (npm run site -- --serve to browse it)`] : []),
    ...(t
      ? [
          `time:     ${t.totalSeconds.toFixed(1)} s in all, ${t.measuredSeconds.toFixed(1)} s in measured commands (harness overhead ${(100 * (1 - t.measuredSeconds / t.totalSeconds)).toFixed(1)}%)`,
        ]
      : []),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (outcome.interrupted) return EXIT.interrupted;
  if (failed) {
    process.stderr.write(
      `${failed} benchmark(s) failed; their reasons are in the summary above. All other results were written.\n`,
    );
    return EXIT.benchmarksFailed;
  }
  return EXIT.ok;
}
