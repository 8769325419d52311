/**
 * npm run compare: a quick look between stored runs (base vs head results files) ->
 * comparison.md and comparison.json (schema 1). The paired diff is `npm run pairs`.
 */
import { join } from 'node:path';
import { writeComparison } from '../../compare/run-compare.js';
import { EXIT, UserError } from '../../lib/errors.js';
import { ensureDirectory } from '../../lib/paths.js';
import { loadNoise, noiseSourceOf } from '../../store/noise-thresholds.js';
import { groupedFlags, ROOT } from '../args.js';
import { type CommandSpec, parseCommand } from '../options.js';

export const compareSpec = {
  name: 'compare',
  brief: 'a quick look between two results files (not the PR diff)',
  summary:
    'A quick look between two stored runs (not the PR diff: that is npm run pairs): medians, ratios with a ' +
    'bootstrap 95% CI and verdicts judged against calibrated noise -> comparison.md and comparison.json.',
  options: {
    base: { type: 'string', multiple: true, default: [], value: 'A.json...', description: 'the base results file(s)' },
    head: { type: 'string', multiple: true, default: [], value: 'B.json...', description: 'the head results file(s)' },
    out: {
      type: 'string',
      default: join(ROOT, 'results', 'compare'),
      value: 'DIR',
      description: 'where the comparison goes',
    },
    noise: { type: 'string', value: 'FILE', description: "a machine's noise.json (thresholds)" },
    'noise-store': { type: 'string', value: 'DIR', description: 'a store to read the noise thresholds from' },
  },
  example: 'npm run compare -- --base results/latest/results.json --head results/latest/results.json',
} as const satisfies CommandSpec;

export async function compareCommand(argv: string[]): Promise<number> {
  // --base and --head each take several files: grouped here, the rest parsed with the table.
  const { groups, rest } = groupedFlags(argv, ['base', 'head']);
  const { values } = parseCommand(compareSpec, rest);
  for (const f of ['base', 'head'] as const) if (values[f].length) (groups[f] ??= []).push(...values[f]);
  const base = groups.base ?? [];
  const head = groups.head ?? [];
  if (!base.length || !head.length)
    throw new UserError('compare needs --base <results.json...> and --head <results.json...>');
  const out = ensureDirectory(values.out, '--out');
  const source = noiseSourceOf(values);
  const { markdown } = writeComparison(base, head, (machine) => loadNoise(source, machine), out);
  process.stdout.write(`${markdown}\ncomparison: ${join(out, 'comparison.md')} and comparison.json\n`);
  return EXIT.ok;
}
