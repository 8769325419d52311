/**
 * `npm run sandbox-cost`: what the sandbox costs a measured process, A/A — a point's process with
 * its sandbox against the same process without one, in pairs under the pair timer
 * (pairs/diff/sandbox-cost.ts). Prints the figures; stores nothing.
 */
import { loadavg } from 'node:os';
import { EXIT } from '../../lib/errors.js';
import { type PointCost, sandboxCost } from '../../pairs/diff/sandbox-cost.js';
import { intFlag, ROOT } from '../args.js';
import { type CommandSpec, parseCommand } from '../options.js';
import { SELECTION_OPTIONS, selectionOf } from '../selection.js';

export const sandboxCostSpec = {
  name: 'sandbox-cost',
  brief: "the sandbox's cost per measured process, A/A (with it against without it, paired)",
  summary:
    "Times each selected point's process with its sandbox (bubblewrap, as every measurement runs) against the same " +
    'process without one, in pairs (AB/BA) under the pair timer, and prints the median times and the ratio ' +
    'with/without with its 95% interval. Twice: with the clock started inside the sandbox (as the paired diff ' +
    "times: the sandbox's remaining cost), then with bubblewrap's start timed too.",
  options: {
    profile: SELECTION_OPTIONS.profile,
    experiments: SELECTION_OPTIONS.experiments,
    variants: SELECTION_OPTIONS.variants,
    param: SELECTION_OPTIONS.param,
    pairs: { type: 'string', default: '100', value: 'N', description: 'pairs per point and mode (2 to 5000)' },
    seed: { type: 'string', default: '1', value: 'N', description: 'the AB/BA order of the pairs' },
    json: { type: 'boolean', default: false, description: 'the figures as JSON on stdout' },
  },
  example: 'npm run sandbox-cost -- --experiments wc --variants c --param bs=4096,65536 --pairs 200',
  notes: [
    'The load average before and after is printed: figures taken on a busy machine say so.',
    'Where bubblewrap cannot start, it refuses with the reason.',
  ],
} as const satisfies CommandSpec;

const ms = (x: number) => (x < 10 ? x.toFixed(3) : x.toFixed(1));
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** The figures of one point, a line per mode. */
function costLines(c: PointCost): string[] {
  return [
    `${c.point}`,
    ...c.batches.map(
      (b) =>
        `  ${b.mode === 'gated' ? 'clock inside the sandbox' : "bubblewrap's start timed"}: ${b.pairs} pairs, ` +
        `without ${ms(b.withoutMs)} ms, with ${ms(b.withMs)} ms (medians); ` +
        `with/without ${b.ratio.median.toFixed(4)} (95% ${b.ratio.low.toFixed(4)}–${b.ratio.high.toFixed(4)})`,
    ),
  ];
}

export async function sandboxCostCommand(argv: string[]): Promise<number> {
  const { values } = parseCommand(sandboxCostSpec, argv);
  const { profile, filters } = selectionOf({ ...values, require: [] });
  const pairs = intFlag('--pairs', values.pairs, 2, 5000);
  const seed = intFlag('--seed', values.seed, 0, 2 ** 31 - 1);
  const log = (m: string) => process.stderr.write(`${m}\n`);
  const before = load();
  const costs = await sandboxCost({ root: ROOT, profile, filters, pairs, seed, log });
  const after = load();
  if (values.json)
    process.stdout.write(`${JSON.stringify({ loadBefore: before, loadAfter: after, costs }, null, 2)}\n`);
  else
    process.stdout.write(
      `${[...costs.flatMap(costLines), `load average (1, 5, 15 min): ${before} before, ${after} after`].join('\n')}\n`,
    );
  return EXIT.ok;
}
