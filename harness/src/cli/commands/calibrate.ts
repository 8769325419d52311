/**
 * npm run calibrate: this machine's figures for the paired diff (calibration/calibrate-machine.ts): A/A
 * false positives, MDE and power for a planted wc C slowdown, from repeated real diffs of
 * worktrees of this commit; its per-point thresholds go to noise.json and the store, where
 * `pairs`, `compare` and the site read them.
 */
import { join } from 'node:path';
import { calibratePairs } from '../../calibration/calibrate-machine.js';
import { EXIT, UserError } from '../../lib/errors.js';
import { ensureDirectory } from '../../lib/paths.js';
import { DEFAULT_STORE, intFlag, ROOT } from '../args.js';
import { type CommandSpec, parseCommand, refuseTogether } from '../options.js';
import { SELECTION_OPTIONS, selectionOf } from '../selection.js';

export const calibrateSpec = {
  name: 'calibrate',
  brief: "A/A paired diffs: this machine's noise and thresholds",
  summary:
    'A/A paired diffs of two worktrees of this commit and a planted wc C slowdown: false positives, minimal ' +
    'detectable effect and power of the PR diff on this machine, and the per-point thresholds (noise.json) that ' +
    'pairs, compare and the site read.',
  positionals: '[-- bench flags...]',
  options: {
    out: { type: 'string', default: join(ROOT, 'results', 'calibrate'), value: 'DIR', description: 'where results go' },
    store: { type: 'string', default: DEFAULT_STORE, value: 'DIR', description: 'the store noise.json goes into' },
    'no-store': { type: 'boolean', default: false, description: 'store no thresholds (noise.json in --out only)' },
    repeats: { type: 'string', default: '3', value: 'N', description: 'A/A diffs, and as many planted ones (1-50)' },
    budget: { type: 'string', default: '4', value: 'MINUTES', description: 'minutes of pairs per diff' },
    'plant-ns': {
      type: 'string',
      value: 'N',
      description: 'the planted wc C slowdown, ns per read (default ~5% of the read cost; 0: none)',
    },
    busy: { type: 'boolean', default: false, description: 'load the machine while measuring' },
  },
  example: 'npm run calibrate -- --repeats 1 --budget 0.5 -- --profile smoke --experiments wc',
} as const satisfies CommandSpec;

/** The bench flags after `--`. */
const benchFlagsSpec = {
  name: 'calibrate --',
  summary: 'bench flags',
  options: SELECTION_OPTIONS,
  example: 'npm run calibrate -- -- --experiments wc',
} as const satisfies CommandSpec;

export async function calibrateCommand(argv: string[]): Promise<number> {
  const { values, positionals, given } = parseCommand(calibrateSpec, argv);
  refuseTogether(given, 'no-store', 'store', '--no-store stores nothing; drop one of them');
  const selection = selectionOf(parseCommand(benchFlagsSpec, positionals).values);
  const repeats = intFlag('--repeats', values.repeats, 1, 50);
  const minutes = Number(values.budget);
  if (!(minutes > 0 && minutes <= 600))
    throw new UserError(`--budget ${values.budget}: expected minutes per diff (0-600]`);
  const plantNs = values['plant-ns'] === undefined ? undefined : intFlag('--plant-ns', values['plant-ns'], 0, 1e9);
  const out = ensureDirectory(values.out, '--out');
  const store = values['no-store'] ? undefined : ensureDirectory(values.store, '--store');
  const { markdown } = await calibratePairs({
    root: ROOT,
    out,
    ...(store ? { store } : {}),
    repeats,
    askedSeconds: minutes * 60,
    ...selection,
    ...(plantNs !== undefined ? { plantNs } : {}),
    busy: values.busy,
  });
  process.stdout.write(
    `${markdown}\ncalibration: ${join(out, 'calibration.md')} and .json; thresholds: ${join(out, 'noise.json')}${store ? ' (also stored for pairs and the site)' : ''}\n`,
  );
  return EXIT.ok;
}
