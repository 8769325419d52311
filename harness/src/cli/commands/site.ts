/** npm run site: builds the site from the local history, or serves it on 127.0.0.1; site:perf measures it. */
import { dirname, resolve } from 'node:path';
import { EXIT } from '../../lib/errors.js';
import { ensureDirectory } from '../../lib/paths.js';
import { buildSite, serveSite } from '../../site/build-site.js';
import { checkSiteOutput } from '../../site/output-dir.js';
import { DEFAULT_SITE, DEFAULT_STORE, intFlag, ROOT } from '../args.js';
import { type CommandSpec, parseCommand } from '../options.js';
import { SITE_DATA_CHECKS } from '../site-checks.js';

export const siteSpec = {
  name: 'site',
  brief: 'build the site from the local history (or --serve it)',
  summary:
    'Builds the trend site from a store into --out (replacing only a site this tool built there; any other ' +
    'non-empty directory is refused), and with --serve serves it on 127.0.0.1.',
  options: {
    serve: { type: 'boolean', default: false, description: 'serve the built site until Ctrl-C' },
    store: { type: 'string', default: DEFAULT_STORE, value: 'DIR', description: 'the store to show' },
    out: { type: 'string', default: DEFAULT_SITE, value: 'DIR', description: 'where the site is built' },
    port: { type: 'string', default: '0', value: 'N', description: 'port for --serve (0: any free port)' },
  },
  example: 'npm run site -- --serve',
} as const satisfies CommandSpec;

export async function siteCommand(argv: string[]): Promise<number> {
  const { values } = parseCommand(siteSpec, argv);
  const port = intFlag('--port', values.port, 0, 65535);
  // Only read: a missing store is an empty site, and a refused build leaves no folder behind.
  const store = resolve(values.store);
  const out = resolve(values.out);
  // Checked before anything is built; the build checks again under its lock.
  checkSiteOutput(out, store);
  ensureDirectory(dirname(out), '--out');
  const page = await buildSite(ROOT, store, out, { dataChecks: SITE_DATA_CHECKS });
  process.stdout.write(`site built: ${page}\n`);
  if (values.serve) {
    const { url } = await serveSite(out, port);
    process.stdout.write(`serving on ${url} (Ctrl-C to stop)\n`);
    await new Promise(() => {});
  }
  return EXIT.ok;
}

export const sitePerfSpec = {
  name: 'site:perf',
  brief: "the site's own benchmark in headless chromium",
  summary:
    "The site's own benchmark: 5,000 commits x 300 series in headless chromium; bytes, and time to the first chart per view.",
  options: {
    repetitions: { type: 'string', value: 'N', description: 'fresh-profile repetitions per view (1-50; default 7)' },
    'bytes-only': {
      type: 'boolean',
      description: 'hold only the byte limit (on a busy machine the timings are no measurement)',
    },
  },
  example: 'npm run site:perf -- --repetitions 3',
} as const satisfies CommandSpec;

export async function sitePerfCommand(argv: string[]): Promise<number> {
  const { values } = parseCommand(sitePerfSpec, argv);
  const { sitePerf, REPETITIONS, overLimits, FIRST_VIEW_BYTES, FIRST_CHART_MS } = await import('../../site/perf.js');
  const repetitions = values.repetitions ? intFlag('--repetitions', values.repetitions, 1, 50) : REPETITIONS;
  const r = await sitePerf(ROOT, repetitions);
  for (const [k, v] of Object.entries(r)) process.stdout.write(`${k.padEnd(30)} ${v.toLocaleString('en-US')}\n`);
  const over = overLimits(r, { times: !values['bytes-only'] });
  process.stderr.write(
    `limits: first view <= ${FIRST_VIEW_BYTES.toLocaleString('en-US')} bytes${values['bytes-only'] ? '' : `, first chart <= ${FIRST_CHART_MS} ms (median)`}: ${over.length ? `over: ${over.join('; ')}` : 'met'}\n`,
  );
  return over.length ? EXIT.benchmarksFailed : EXIT.ok;
}
