/** npm run pages: publishes results into a gh-pages checkout and rebuilds the site there, in place. */
import { join } from 'node:path';
import { writeFileAtomic } from '../../lib/atomic.js';
import { EXIT, UserError } from '../../lib/errors.js';
import { existingDirectory } from '../../lib/paths.js';
import { readResultsArtifact } from '../../model/read-results.js';
import { buildSite } from '../../site/build-site.js';
import { publishRun } from '../../store/publish-run.js';
import { ROOT } from '../args.js';
import { type CommandSpec, parseCommand } from '../options.js';
import { SITE_DATA_CHECKS } from '../site-checks.js';

export const pagesSpec = {
  name: 'pages',
  brief: 'publish into a gh-pages checkout and rebuild its site',
  summary: 'Publishes results into a gh-pages checkout (its data/) and rebuilds the site app files there, in place.',
  positionals: 'RESULTS.json...',
  options: { dir: { type: 'string', value: 'DIR', description: 'the gh-pages checkout (required)' } },
  example: 'npm run pages -- results/latest/results.json --dir ../gh-pages',
} as const satisfies CommandSpec;

export async function pagesCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(pagesSpec, argv);
  if (!values.dir || !positionals.length)
    throw new UserError('pages needs RESULTS.json... and --dir <gh-pages checkout>');
  const dir = existingDirectory(values.dir, '--dir');
  // Every input is read and checked before the checkout is touched.
  const runs = positionals.map((file) => {
    const results = readResultsArtifact(file);
    if (results.run.partial) throw new UserError(`${file} is a partial (interrupted) run: it is never published`);
    return results;
  });
  for (const results of runs) await publishRun(join(dir, 'data'), results);
  await buildSite(ROOT, join(dir, 'data'), dir, { inPlace: true, dataChecks: SITE_DATA_CHECKS });
  // A plain static host must not run Jekyll over the data files.
  writeFileAtomic(join(dir, '.nojekyll'), '');
  process.stdout.write(`published ${positionals.length} run(s) into ${dir}\n`);
  return EXIT.ok;
}
