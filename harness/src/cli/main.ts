/**
 * The command line: `node <bundle> <command> [flags]`, reached through npm scripts.
 * Expected problems (UserError) print one clear message and exit 1.
 */
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { bench } from '../pipeline/bench.js';
import { UserError } from '../lib/errors.js';
import { isProfile, PROFILES, type Profile } from '../model/profiles.js';
import type { ParamValue } from '../model/manifest.js';
import { buildSite, serveSite } from '../site/build-site.js';
import { COMMENT_MARKER, commentFromArtifact } from '../compare/artifact.js';
import { findPullRequest, githubFromEnv, upsertComment } from '../compare/github.js';
import { compareRuns } from '../compare/compare.js';
import { renderComparison } from '../compare/render.js';
import { Comparison } from '../model/comparison.js';
import { readResults } from '../model/read-results.js';
import { assertValid } from '../lib/json-file.js';
import { publishNoise, publishRun } from '../store/store.js';
import { writeFileAtomic } from '../lib/atomic.js';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { calibrateRuns } from '../calibrate/run.js';
import { type NoiseFile, noiseFor, parseNoiseFile } from '../calibrate/noise.js';
import { markdownTable } from '../lib/markdown.js';
import { describeExit, runProcess } from '../lib/exec.js';
import { machineInfo } from '../machine/machine.js';
import { shareCaches } from '../machine/share-cache.js';

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
                   [--programs DIR] [--strict] [--runs N] [--profile-cpu]
  npm run compare -- --base A.json [B.json...] --head C.json [D.json...] [--out DIR] [--noise FILE | --noise-store DIR]
  npm run publish -- RESULTS.json [--store DIR]     (or --noise NOISE.json... [--store DIR])
  npm run pr-comment -- --artifact DIR --pr N [--out FILE] [--post]  |  --find-pr [--event FILE]
  npm run rounds -- --base DIR --head DIR [--rounds N] [--out DIR] [--noise FILE | --noise-store DIR] [bench flags...]
  npm run pages -- RESULTS.json... --dir GH_PAGES_CHECKOUT
  npm run calibrate -- [--rounds 6] [--out DIR] [--store DIR] [-- bench flags...]
  npm run machine-id [-- RESULTS.json]
  npm run site  -- [--serve] [--store DIR] [--out DIR] [--port N]
  npm test`;

async function cmdBench(argv: string[]): Promise<number> {
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
  if (values.runs !== undefined && !/^[1-9]\d{0,3}$/.test(values.runs)) throw new UserError(`--runs ${values.runs}: expected a positive integer`);
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
    // The site lives beside its store: results/history -> results/site.
    ...(storeDir ? { storeDir, buildSite: (s: string) => buildSite(ROOT, s, join(dirname(s), 'site')) } : {}),
    require: values.require.flatMap((r) => list(r) ?? []),
    programsDir: resolve(values.programs),
    strict: values.strict,
    ...(values.runs ? { runs: Number(values.runs) } : {}),
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

/** Values after a flag up to the next flag: --base a.json b.json --head c.json */
export function groupedFlags(argv: readonly string[], names: readonly string[]): { groups: Record<string, string[]>; rest: string[] } {
  const groups: Record<string, string[]> = {};
  const rest: string[] = [];
  let current: string | undefined;
  for (const a of argv) {
    const name = a.startsWith('--') ? a.slice(2) : undefined;
    if (name !== undefined && names.includes(name)) {
      current = name;
      groups[name] ??= [];
    } else if (name !== undefined) {
      current = undefined;
      rest.push(a);
    } else if (current) groups[current]!.push(a);
    else rest.push(a);
  }
  return { groups, rest };
}

function readNoise(file: string): NoiseFile {
  if (!existsSync(file)) throw new UserError(`noise file not found: ${file}`, 'write one with npm run calibrate, or drop --noise');
  return parseNoiseFile(file, readFileSync(file, 'utf8'));
}

async function cmdCompare(argv: string[]): Promise<number> {
  const { groups, rest } = groupedFlags(argv, ['base', 'head']);
  const { values } = parseArgs({
    args: rest,
    strict: true,
    options: { out: { type: 'string', default: join(ROOT, 'results', 'compare') }, noise: { type: 'string' }, 'noise-store': { type: 'string' } },
  });
  if (values.noise && values['noise-store']) throw new UserError('give --noise FILE or --noise-store DIR, not both');
  const base = groups.base ?? [];
  const head = groups.head ?? [];
  if (!base.length || !head.length) throw new UserError('compare needs --base <results.json...> and --head <results.json...>');
  // A run's output directory stands for its results.json (`--base results/pr/base-*`).
  const read = (p: string) => readResults(existsSync(p) && statSync(p).isDirectory() ? join(p, 'results.json') : p);
  const [baseRuns, headRuns] = [base.map(read), head.map(read)];
  let noise: ReturnType<typeof noiseFor> = { thresholds: {}, note: '' };
  const machine = headRuns[0]!.run.machine.id;
  if (values.noise) noise = noiseFor(readNoise(values.noise), machine);
  else if (values['noise-store']) {
    // A store holds one calibration per machine; not having one yet is normal, not an error.
    const file = join(resolve(values['noise-store']), machine, 'noise.json');
    noise = existsSync(file) ? noiseFor(readNoise(file), machine) : { thresholds: {}, note: 'no calibration for this machine yet, so the 2% minimum effect applies (npm run calibrate measures one)' };
  }
  const comparison = compareRuns(baseRuns, headRuns, noise.thresholds);
  if (noise.note) comparison.method = `${comparison.method}; ${noise.note}`;
  if (noise.warning) comparison.warnings = [...(comparison.warnings ?? []), noise.warning];
  // What we write must pass the checks the PR-comment workflow applies to it.
  assertValid('comparison.json', comparison, Comparison);
  const md = renderComparison(comparison);
  const out = resolve(values.out);
  writeFileAtomic(join(out, 'comparison.json'), `${JSON.stringify(comparison, null, 1)}\n`);
  writeFileAtomic(join(out, 'comparison.md'), md);
  process.stdout.write(`${md}\ncomparison: ${join(out, 'comparison.md')} and comparison.json\n`);
  return 0;
}

async function cmdPublish(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: { store: { type: 'string', default: DEFAULT_STORE }, noise: { type: 'boolean', default: false } } });
  if (values.noise) {
    // Calibrations (calibrate.yml's artifacts): each replaces its machine's noise.json.
    if (!positionals.length) throw new UserError('publish --noise needs one or more noise.json files');
    const files = positionals.map((p) => ({ p, noise: readNoise(p) }));
    for (const { p, noise } of files) process.stdout.write(`stored ${p} (machine ${noise.machine}) as ${publishNoise(resolve(values.store), noise)}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new UserError('publish needs exactly one results.json (or --noise with noise.json files)');
  const results = readResults(positionals[0]!);
  if (results.run.partial) throw new UserError(`${positionals[0]} is a partial (interrupted) run: it is never published`);
  const { machineDir, replaced } = await publishRun(resolve(values.store), results);
  process.stdout.write(`${replaced ? 'replaced' : 'added'} commit ${results.run.commit.sha} in ${machineDir}\n`);
  return 0;
}

/**
 * The PR-comment workflow's steps: `--find-pr` prints the pull request of the finished run
 * (asked from GitHub); `--artifact DIR --pr N` validates the untrusted artifact and renders the
 * comment; `--post` then creates or updates the sticky comment.
 */
async function cmdPrComment(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      artifact: { type: 'string' },
      pr: { type: 'string' },
      out: { type: 'string' },
      'find-pr': { type: 'boolean', default: false },
      event: { type: 'string' },
      post: { type: 'boolean', default: false },
    },
  });
  if (values['find-pr']) {
    const event = values.event ?? process.env.GITHUB_EVENT_PATH;
    if (!event) throw new UserError('--find-pr needs the workflow_run event: --event FILE (GITHUB_EVENT_PATH inside Actions)');
    process.stdout.write(`${await findPullRequest(githubFromEnv(), resolve(event))}\n`);
    return 0;
  }
  if (!values.artifact || !values.pr) throw new UserError('pr-comment needs --artifact DIR and --pr N (or --find-pr)');
  const { pr, body } = commentFromArtifact(resolve(values.artifact), values.pr);
  if (values.out) writeFileAtomic(resolve(values.out), body);
  else if (!values.post) process.stdout.write(body);
  if (values.post) {
    const { action, id } = await upsertComment(githubFromEnv(), pr, body, COMMENT_MARKER);
    process.stderr.write(`${action} comment ${id} on pull request #${pr}\n`);
  }
  return 0;
}

/** Publishes results into a gh-pages checkout and rebuilds the site there, in place. */
async function cmdPages(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: { dir: { type: 'string' } } });
  if (!values.dir || !positionals.length) throw new UserError('pages needs RESULTS.json... and --dir <gh-pages checkout>');
  const dir = resolve(values.dir);
  for (const file of positionals) {
    const results = readResults(resolve(file));
    if (results.run.partial) throw new UserError(`${file} is a partial (interrupted) run: it is never published`);
    await publishRun(join(dir, 'data'), results);
  }
  await buildSite(ROOT, join(dir, 'data'), dir, { inPlace: true });
  // A plain static host must not run Jekyll over the data files.
  writeFileAtomic(join(dir, '.nojekyll'), '');
  process.stdout.write(`published ${positionals.length} run(s) into ${dir}\n`);
  return 0;
}

/**
 * Prints this machine's id, or the id recorded in a results.json (workflows use it to keep
 * machines' data apart, e.g. github-action-benchmark's data directory per machine).
 */
async function cmdMachineId(argv: string[]): Promise<number> {
  const { positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: {} });
  if (positionals.length > 1) throw new UserError('machine-id takes at most one results.json');
  // The results schema restricts ids to [A-Za-z0-9._-]: safe as a path segment.
  process.stdout.write(`${positionals[0] ? readResults(resolve(positionals[0])).run.machine.id : machineInfo().id}\n`);
  return 0;
}

/**
 * PR diffs: base and head checkouts benchmarked alternately in the same job on the same
 * machine (base, head, base, head, ...), so drift hits both sides alike; then compared.
 */
async function cmdRounds(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: {
      base: { type: 'string' },
      head: { type: 'string' },
      rounds: { type: 'string', default: '3' },
      out: { type: 'string', default: join(ROOT, 'results', 'pr') },
      noise: { type: 'string' },
      'noise-store': { type: 'string' },
    },
  });
  const rounds = Number(values.rounds);
  if (!values.base || !values.head) throw new UserError('rounds needs --base DIR and --head DIR (two checkouts)');
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20) throw new UserError(`--rounds ${values.rounds}: expected an integer from 1 to 20`);
  // A bad noise file is found before the rounds, not after an hour of measuring.
  if (values.noise && values['noise-store']) throw new UserError('give --noise FILE or --noise-store DIR, not both');
  if (values.noise) readNoise(values.noise);
  const out = resolve(values.out);
  for (const link of shareCaches(values.base, values.head)) process.stderr.write(`sharing ${link} with the head checkout\n`);
  const files: Record<'base' | 'head', string[]> = { base: [], head: [] };
  for (let i = 1; i <= rounds; i++) {
    for (const side of ['base', 'head'] as const) {
      const dir = resolve(side === 'base' ? values.base : values.head);
      const runOut = join(out, `${side}-${i}`);
      process.stderr.write(`== round ${i}/${rounds}: ${side} (${dir})\n`);
      const r = await runProcess([process.execPath, join(dir, 'harness', 'bootstrap.mjs'), 'bench', '--no-store', '--out', runOut, ...positionals], {
        cwd: dir,
        env: { ...process.env, JSIO_ROOT: dir },
        onStderr: (c) => process.stderr.write(c),
      });
      // Failed benchmarks (exit 1) still wrote results: they are listed in the comparison.
      if (r.code !== 0 && r.code !== 1) throw new UserError(`${side} round ${i} did not finish (${describeExit(r)}): ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
      files[side].push(join(runOut, 'results.json'));
    }
  }
  return cmdCompare(['--base', ...files.base, '--head', ...files.head, '--out', out, ...(values.noise ? ['--noise', resolve(values.noise)] : []), ...(values['noise-store'] ? ['--noise-store', resolve(values['noise-store'])] : [])]);
}

/**
 * A/A calibration: the same checkout measured as base and head in alternating rounds; writes
 * calibration.md and noise.json (per-benchmark thresholds that compare --noise and the site use).
 */
async function cmdCalibrate(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: { rounds: { type: 'string', default: '6' }, out: { type: 'string', default: join(ROOT, 'results', 'calibrate') }, store: { type: 'string', default: DEFAULT_STORE } },
  });
  const rounds = Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 2 || rounds % 2 || rounds > 20) throw new UserError(`--rounds ${values.rounds}: expected an even number from 2 to 20 (half are "base", half "head")`);
  const out = resolve(values.out);
  await cmdRounds(['--base', ROOT, '--head', ROOT, '--rounds', String(rounds / 2), '--out', out, '--', ...positionals]);
  const files: string[] = [];
  for (let i = 1; i <= rounds / 2; i++) files.push(join(out, `base-${i}`, 'results.json'), join(out, `head-${i}`, 'results.json'));
  const runs = files.map(readResults);
  const rows = calibrateRuns(runs);
  const comparison = JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8')) as { metrics: { verdict: string }[] };
  const called = comparison.metrics.filter((m) => m.verdict !== 'unchanged').length;
  const machine = runs[0]!.run.machine.id;
  const noise: NoiseFile = { schema: 1, machine, created: new Date().toISOString(), rounds, thresholds: Object.fromEntries(rows.map((r) => [r.key, Number(r.threshold.toFixed(4))])) };
  writeFileAtomic(join(out, 'noise.json'), `${JSON.stringify(noise, null, 1)}\n`);
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const md = [
    `# A/A calibration on \`${machine}\``,
    '',
    `${rounds} rounds of the same build, alternating as base and head. compare called ${called} of ${comparison.metrics.length} benchmark metrics significant (expected: about ${pct(0.05)} or fewer). Over every split of the rounds into two sides, the mean false-positive rate is ${pct(rows.reduce((a, r) => a + r.falsePositiveRate, 0) / Math.max(1, rows.length))}.`,
    '',
    markdownTable(
      ['benchmark metric', 'CV (samples)', 'CV (rounds)', 'false positives', 'MDE (95%/80%)', 'threshold', 'samples/side'],
      rows.map((r) => [r.key, pct(r.cv), pct(r.roundCv), `${pct(r.falsePositiveRate)} of ${r.splits}`, pct(r.mde), pct(r.threshold), String(r.n)]),
      ['l', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
    'Thresholds are max(compare\'s 2% minimum effect, the MDE, the 95th percentile of A/A effects); `npm run compare -- --noise noise.json` and the site (from the store) use them.',
    '',
  ].join('\n');
  writeFileAtomic(join(out, 'calibration.md'), md);
  publishNoise(resolve(values.store), noise);
  process.stdout.write(`${md}\ncalibration: ${join(out, 'calibration.md')}; thresholds: ${join(out, 'noise.json')} (also stored for the site)\n`);
  return 0;
}

async function cmdSitePerf(): Promise<number> {
  const { sitePerf } = await import('../site/perf.js');
  const r = await sitePerf(ROOT);
  for (const [k, v] of Object.entries(r)) process.stdout.write(`${k.padEnd(26)} ${v.toLocaleString('en-US')}\n`);
  return 0;
}

const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  calibrate: cmdCalibrate,
  'site-perf': cmdSitePerf,
  pages: cmdPages,
  'machine-id': cmdMachineId,
  rounds: cmdRounds,
  bench: cmdBench,
  site: cmdSite,
  compare: cmdCompare,
  publish: cmdPublish,
  'pr-comment': cmdPrComment,
};

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
