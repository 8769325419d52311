/** npm run site: builds the site from the local history, or serves it on 127.0.0.1; site:perf measures it. */
import { parseArgs } from 'node:util';
import { EXIT } from '../../lib/errors.js';
import { ensureDirectory } from '../../lib/paths.js';
import { buildSite, serveSite } from '../../site/build-site.js';
import { DEFAULT_SITE, DEFAULT_STORE, intFlag, ROOT } from '../args.js';

export async function siteCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      serve: { type: 'boolean', default: false },
      store: { type: 'string', default: DEFAULT_STORE },
      out: { type: 'string', default: DEFAULT_SITE },
      port: { type: 'string', default: '0' },
    },
  });
  const port = intFlag('--port', values.port, 0, 65535);
  const out = ensureDirectory(values.out, '--out');
  const page = await buildSite(ROOT, ensureDirectory(values.store, '--store'), out);
  process.stdout.write(`site built: ${page}\n`);
  if (values.serve) {
    const { url } = await serveSite(out, port);
    process.stdout.write(`serving on ${url} (Ctrl-C to stop)\n`);
    await new Promise(() => {});
  }
  return EXIT.ok;
}

export async function sitePerfCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, strict: true, options: { repetitions: { type: 'string' } } });
  const { sitePerf, REPETITIONS } = await import('../../site/perf.js');
  const repetitions = values.repetitions ? intFlag('--repetitions', values.repetitions, 1, 50) : REPETITIONS;
  const r = await sitePerf(ROOT, repetitions);
  for (const [k, v] of Object.entries(r)) process.stdout.write(`${k.padEnd(30)} ${v.toLocaleString('en-US')}\n`);
  return EXIT.ok;
}
