/**
 * npm run pairs: the paired PR diff (pipeline/pairs.ts). Measures base and head process by
 * process in pairs, within a time budget, and writes comparison.json (schema 2), comparison.md
 * and pairs.json (every point's pairs, for calibration).
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadNoise, noiseSourceOf } from '../../calibrate/noise.js';
import { renderPairedComparison } from '../../compare/render-paired.js';
import { writeFileAtomic } from '../../lib/atomic.js';
import { EXIT, UserError } from '../../lib/errors.js';
import { ensureDirectory, existingDirectory } from '../../lib/paths.js';
import { machineInfo } from '../../machine/machine.js';
import { isProfile, PROFILES } from '../../model/profiles.js';
import { runPairs, writeRecord } from '../../pipeline/pairs.js';
import { intFlag, list, parseParamFlags, ROOT } from '../args.js';

/** Default budget: a quick-profile diff of every experiment stays within the 20 minutes on 2 cores. */
export const DEFAULT_BUDGET_MINUTES = 12;

export async function pairsCommand(argv: string[]): Promise<number> {
  // Bench flags may follow a `--` (as with `npm run rounds`): they are the same flags here.
  const { values } = parseArgs({
    args: argv.filter((a) => a !== '--'),
    strict: true,
    options: {
      base: { type: 'string' },
      head: { type: 'string', default: ROOT },
      budget: { type: 'string', default: String(DEFAULT_BUDGET_MINUTES) },
      deadline: { type: 'string' },
      seed: { type: 'string' },
      out: { type: 'string', default: join(ROOT, 'results', 'pr') },
      noise: { type: 'string' },
      'noise-store': { type: 'string' },
      profile: { type: 'string', default: process.env.JSIO_PROFILE ?? 'quick' },
      experiments: { type: 'string' },
      variants: { type: 'string' },
      param: { type: 'string', multiple: true, default: [] },
      require: { type: 'string', multiple: true, default: [] },
      strict: { type: 'boolean', default: false },
    },
  });
  if (!values.base) throw new UserError('pairs needs --base DIR (the base checkout; --head defaults to this one)');
  const budget = Number(values.budget);
  if (!(budget > 0 && budget <= 600))
    throw new UserError(`--budget ${values.budget}: expected minutes, a number above 0 and at most 600`);
  const deadline = values.deadline === undefined ? undefined : Number(values.deadline);
  if (deadline !== undefined && !(deadline > 0 && deadline <= 1440))
    throw new UserError(`--deadline ${values.deadline}: expected minutes for the whole diff, above 0 and at most 1440`);
  if (!isProfile(values.profile))
    throw new UserError(`--profile ${values.profile}: unknown profile; valid profiles: ${PROFILES.join(', ')}`);
  const seed =
    values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : intFlag('--seed', values.seed, 0, 2 ** 31 - 1);
  const base = existingDirectory(values.base, '--base');
  const head = existingDirectory(values.head, '--head');
  const out = ensureDirectory(values.out, '--out');
  const source = noiseSourceOf(values);
  const noise = loadNoise(source, machineInfo().id);
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const { comparison, record, interrupted } = await runPairs({
    base,
    head,
    profile: values.profile,
    filters: {
      ...(list(values.experiments) ? { experiments: list(values.experiments) } : {}),
      ...(list(values.variants) ? { variants: list(values.variants) } : {}),
      params: parseParamFlags(values.param),
    },
    budgetSeconds: budget * 60,
    ...(deadline ? { deadlineSeconds: deadline * 60 } : {}),
    seed,
    require: values.require.flatMap((r) => list(r) ?? []),
    noise: noise.thresholds,
    strict: values.strict,
    log,
  });
  if (noise.note) comparison.method = `${comparison.method}; ${noise.note}`.slice(0, 800);
  if (noise.warning) comparison.warnings = [...(comparison.warnings ?? []), noise.warning.slice(0, 500)];
  const markdown = renderPairedComparison(comparison);
  writeFileAtomic(join(out, 'comparison.json'), `${JSON.stringify(comparison, null, 1)}\n`);
  writeFileAtomic(join(out, 'comparison.md'), markdown);
  writeRecord(join(out, 'pairs.json'), record);
  process.stdout.write(`${markdown}\ncomparison: ${join(out, 'comparison.md')} and comparison.json\n`);
  if (interrupted) return EXIT.interrupted;
  return comparison.notMeasured.some((x) => x.status === 'failed') ? EXIT.benchmarksFailed : EXIT.ok;
}
