/** npm run compare: base vs head results -> comparison.md and comparison.json. */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadNoise, noiseSourceOf } from '../../calibrate/noise.js';
import { writeComparison } from '../../compare/run-compare.js';
import { EXIT, UserError } from '../../lib/errors.js';
import { ensureDirectory } from '../../lib/paths.js';
import { groupedFlags, ROOT } from '../args.js';

export async function compareCommand(argv: string[]): Promise<number> {
  const { groups, rest } = groupedFlags(argv, ['base', 'head']);
  const { values } = parseArgs({
    args: rest,
    strict: true,
    options: {
      out: { type: 'string', default: join(ROOT, 'results', 'compare') },
      noise: { type: 'string' },
      'noise-store': { type: 'string' },
    },
  });
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
