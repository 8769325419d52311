/** npm run calibrate: an A/A run of this checkout (pipeline/calibrate.ts). */
import { join } from 'node:path';
import { EXIT, UserError } from '../../lib/errors.js';
import { ensureDirectory } from '../../lib/paths.js';
import { calibrate } from '../../pipeline/calibrate.js';
import { calibratePairs } from '../../pipeline/calibrate-pairs.js';
import { DEFAULT_STORE, intFlag, ROOT } from '../args.js';
import { type CommandSpec, parseCommand } from '../options.js';
import { SELECTION_OPTIONS, selectionOf } from '../selection.js';

export const calibrateSpec = {
  name: 'calibrate',
  brief: "A/A runs: this machine's noise and thresholds",
  summary:
    'An A/A run of this checkout: noise, false-positive rate, minimal detectable effect and thresholds for compare ' +
    "and the site; with --paired, the paired diff's own figures instead.",
  positionals: '[-- bench flags...]',
  options: {
    rounds: { type: 'string', default: '6', value: 'N', description: 'A/A rounds (even, 2-20)' },
    out: { type: 'string', default: join(ROOT, 'results', 'calibrate'), value: 'DIR', description: 'where results go' },
    store: { type: 'string', default: DEFAULT_STORE, value: 'DIR', description: 'the store the thresholds go into' },
    paired: { type: 'boolean', default: false, description: "measure the paired diff's own figures" },
    repeats: { type: 'string', default: '3', value: 'N', description: 'with --paired: diffs to repeat (1-50)' },
    budget: { type: 'string', default: '4', value: 'MINUTES', description: 'with --paired: budget per diff' },
    'plant-ns': { type: 'string', value: 'N', description: 'with --paired: a planted wc C slowdown, ns per read' },
    busy: { type: 'boolean', default: false, description: 'with --paired: load the machine while measuring' },
  },
  example: 'npm run calibrate -- --rounds 2 -- --profile smoke --experiments wc',
} as const satisfies CommandSpec;

/** The bench flags after `--` for --paired. */
const pairedBenchSpec = {
  name: 'calibrate -- --paired',
  summary: 'bench flags',
  options: SELECTION_OPTIONS,
  example: 'npm run calibrate -- --paired -- --experiments wc',
} as const satisfies CommandSpec;

export async function calibrateCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(calibrateSpec, argv);
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
  const selection = selectionOf(parseCommand(pairedBenchSpec, positionals).values);
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
    ...selection,
    ...(plantNs !== undefined ? { plantNs } : {}),
    busy: values.busy,
  });
  process.stdout.write(
    `${markdown}\ncalibration: ${join(out, 'calibration-paired.md')} and .json; thresholds: ${join(out, 'noise-paired.json')}\n`,
  );
  return EXIT.ok;
}
