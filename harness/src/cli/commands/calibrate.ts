/** npm run calibrate: an A/A run of this checkout (pipeline/calibrate.ts). */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { EXIT, UserError } from '../../lib/errors.js';
import { ensureDirectory } from '../../lib/paths.js';
import { isProfile, PROFILES } from '../../model/profiles.js';
import { calibrate } from '../../pipeline/calibrate.js';
import { calibratePairs } from '../../pipeline/calibrate-pairs.js';
import { DEFAULT_STORE, intFlag, list, parseParamFlags, ROOT } from '../args.js';

export async function calibrateCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: {
      rounds: { type: 'string', default: '6' },
      out: { type: 'string', default: join(ROOT, 'results', 'calibrate') },
      store: { type: 'string', default: DEFAULT_STORE },
      paired: { type: 'boolean', default: false },
      repeats: { type: 'string', default: '3' },
      budget: { type: 'string', default: '4' },
      'plant-ns': { type: 'string' },
      busy: { type: 'boolean', default: false },
    },
  });
  if (values.paired) return pairedCalibration(values, positionals);
  const rounds = Number(values.rounds);
  if (!/^\d+$/.test(values.rounds) || rounds < 2 || rounds % 2 || rounds > 20)
    throw new UserError(
      `--rounds ${values.rounds}: expected an even number from 2 to 20 (half are "base", half "head")`,
    );
  const out = ensureDirectory(values.out, '--out');
  const store = ensureDirectory(values.store, '--store');
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const { markdown, stopped } = await calibrate({ root: ROOT, rounds, out, store, benchArgs: positionals, log });
  if (markdown)
    process.stdout.write(
      `${markdown}\ncalibration: ${join(out, 'calibration.md')}; thresholds: ${join(out, 'noise.json')} (also stored for the site)\n`,
    );
  if (stopped) {
    log(`error: ${stopped.reason}`);
    return stopped.status;
  }
  return EXIT.ok;
}

/**
 * --paired: the paired diff's own figures (A/A false positives, MDE, power for a planted wc C
 * slowdown), from repeated real diffs of worktrees of this commit (pipeline/calibrate-pairs.ts).
 */
async function pairedCalibration(
  values: { out: string; repeats: string; budget: string; 'plant-ns'?: string; busy: boolean },
  positionals: string[],
): Promise<number> {
  const { values: bench } = parseArgs({
    args: positionals,
    strict: true,
    options: {
      profile: { type: 'string', default: process.env.JSIO_PROFILE ?? 'quick' },
      experiments: { type: 'string' },
      variants: { type: 'string' },
      param: { type: 'string', multiple: true, default: [] },
      require: { type: 'string', multiple: true, default: [] },
    },
  });
  if (!isProfile(bench.profile))
    throw new UserError(`--profile ${bench.profile}: unknown profile; valid profiles: ${PROFILES.join(', ')}`);
  const repeats = intFlag('--repeats', values.repeats, 1, 50);
  const budget = Number(values.budget);
  if (!(budget > 0 && budget <= 600))
    throw new UserError(`--budget ${values.budget}: expected minutes per diff (0-600]`);
  const plantNs = values['plant-ns'] === undefined ? undefined : intFlag('--plant-ns', values['plant-ns'], 0, 1e9);
  const out = ensureDirectory(values.out, '--out');
  const { markdown } = await calibratePairs({
    root: ROOT,
    out,
    repeats,
    budgetSeconds: budget * 60,
    profile: bench.profile,
    filters: {
      ...(list(bench.experiments) ? { experiments: list(bench.experiments) } : {}),
      ...(list(bench.variants) ? { variants: list(bench.variants) } : {}),
      params: parseParamFlags(bench.param),
    },
    require: bench.require.flatMap((r) => list(r) ?? []),
    ...(plantNs !== undefined ? { plantNs } : {}),
    busy: values.busy,
  });
  process.stdout.write(
    `${markdown}\ncalibration: ${join(out, 'calibration-paired.md')} and .json; thresholds: ${join(out, 'noise-paired.json')}\n`,
  );
  return EXIT.ok;
}
