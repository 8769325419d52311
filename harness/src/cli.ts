/**
 * The command line: `node <bundle> <command> [flags]`, reached through npm scripts.
 * Expected problems (UserError) print one clear message and exit 1.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { bench } from './bench.js';
import { UserError } from './errors.js';
import { isProfile, PROFILES, type Profile } from './profiles.js';
import type { ParamValue } from './manifest/schema.js';
import { buildSite, serveSite } from './site.js';

const ROOT = resolve(process.env.JSIO_ROOT ?? process.cwd());
const DEFAULT_STORE = join(ROOT, 'results', 'history');
const DEFAULT_SITE = join(ROOT, 'results', 'site');

const list = (s: string | undefined) => (s ? s.split(',').map((x) => x.trim()).filter(Boolean) : undefined);

export function parseParamFlags(flags: readonly string[]): Record<string, ParamValue[]> {
  const out: Record<string, ParamValue[]> = {};
  for (const f of flags) {
    const m = /^([a-z_][a-z0-9_]*)=(.+)$/.exec(f);
    if (!m || !m[1] || !m[2]) throw new UserError(`--param ${f}: expected name=value[,value...] (e.g. --param bs=4096,65536)`);
    out[m[1]] = m[2].split(',').map((v) => (/^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v));
  }
  return out;
}

const HELP = `jsio-bench: I/O in JavaScript runtimes vs C

  npm run bench -- [--profile smoke|quick|standard|full] [--experiments a,b] [--variants x,y]
                   [--param name=v1,v2 ...] [--out DIR] [--store DIR | --no-store] [--require just,...]
                   [--programs DIR] [--strict] [--profile-cpu]
  npm run site  -- [--serve] [--store DIR] [--out DIR] [--port N]
  npm test`;

async function cmdBench(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      profile: { type: 'string', default: 'quick' },
      experiments: { type: 'string' },
      variants: { type: 'string' },
      param: { type: 'string', multiple: true, default: [] },
      out: { type: 'string', default: join(ROOT, 'results', 'latest') },
      store: { type: 'string', default: DEFAULT_STORE },
      'no-store': { type: 'boolean', default: false },
      require: { type: 'string', multiple: true, default: [] },
      programs: { type: 'string', default: join(ROOT, 'programs') },
      strict: { type: 'boolean', default: false },
      'profile-cpu': { type: 'boolean', default: false },
    },
  });
  if (!isProfile(values.profile)) throw new UserError(`--profile ${values.profile}: unknown profile; valid profiles: ${PROFILES.join(', ')}`);
  const profile: Profile = values.profile;
  const storeDir = values['no-store'] ? undefined : resolve(values.store);
  const outcome = await bench({
    root: ROOT,
    profile,
    filters: {
      ...(list(values.experiments) ? { experiments: list(values.experiments) } : {}),
      ...(list(values.variants) ? { variants: list(values.variants) } : {}),
      params: parseParamFlags(values.param),
    },
    outDir: values.out,
    ...(storeDir ? { storeDir, buildSite: (s: string) => buildSite(ROOT, s, DEFAULT_SITE) } : {}),
    require: values.require.flatMap((r) => list(r) ?? []),
    programsDir: resolve(values.programs),
    strict: values.strict,
    profileCpu: values['profile-cpu'],
  });
  process.stdout.write(`\n${outcome.summary}\n`);
  const { results } = outcome;
  const t = results.run.timing;
  const failed = results.benchmarks.filter((b) => b.status === 'failed').length;
  const lines = [
    `results:  ${join(outcome.outDir, 'results.json')}`,
    `summary:  ${join(outcome.outDir, 'summary.md')}`,
    `gab:      ${join(outcome.outDir, 'gab')}/`,
    ...(outcome.sitePath ? [`site:     ${outcome.sitePath}  (npm run site -- --serve to browse it)`] : []),
    ...(t ? [`time:     ${t.totalSeconds.toFixed(1)} s in all, ${t.measuredSeconds.toFixed(1)} s in measured commands (harness overhead ${(100 * (1 - t.measuredSeconds / t.totalSeconds)).toFixed(1)}%)`] : []),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (outcome.interrupted) return 130;
  if (failed) {
    process.stderr.write(`${failed} benchmark(s) failed; their reasons are in the summary above. All other results were written.\n`);
    return 1;
  }
  return 0;
}

async function cmdSite(argv: string[]): Promise<number> {
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
  const page = await buildSite(ROOT, resolve(values.store), resolve(values.out));
  process.stdout.write(`site built: ${page}\n`);
  if (values.serve) {
    const { url } = await serveSite(resolve(values.out), Number(values.port));
    process.stdout.write(`serving on ${url} (Ctrl-C to stop)\n`);
    await new Promise(() => {});
  }
  return 0;
}

const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = { bench: cmdBench, site: cmdSite };

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (!cmd || cmd === '--help' || cmd === '-h') {
    process.stdout.write(`${HELP}\n`);
    return cmd ? 0 : 1;
  }
  const run = COMMANDS[cmd];
  if (!run) throw new UserError(`unknown command "${cmd}"; commands: ${Object.keys(COMMANDS).join(', ')}`);
  return run(rest);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UserError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`error: ${(err as Error).message}\n`);
      if (err instanceof UserError && err.hint) process.stderr.write(`hint: ${err.hint}\n`);
      process.exit(1);
    }
    process.stderr.write(`internal error: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(2);
  },
);
