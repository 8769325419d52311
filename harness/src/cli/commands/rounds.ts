/**
 * npm run rounds: the PR diff. Benchmarks two checkouts alternately, then compares. Every input
 * is checked before the first round (a bad noise file must not cost an hour of measuring); a
 * round that stops early still leaves the complete pairs compared and written.
 */
import { join } from 'node:path';
import { loadNoise, noiseSourceOf } from '../../calibrate/noise.js';
import { writeComparison } from '../../compare/run-compare.js';
import { EXIT, UserError } from '../../lib/errors.js';
import { ensureDirectory, existingDirectory } from '../../lib/paths.js';
import { machineInfo } from '../../machine/machine.js';
import { runRounds } from '../../pipeline/rounds.js';
import { intFlag, ROOT } from '../args.js';
import { type CommandSpec, parseCommand } from '../options.js';

export const roundsSpec = {
  name: 'rounds',
  brief: 'two checkouts benched alternately, then compared (coarser than pairs)',
  summary:
    'Benchmarks two checkouts alternately (base, head, base, head...) with npm run bench, then compares the rounds. ' +
    'The paired PR diff is npm run pairs; this is the older, coarser one.',
  positionals: '[-- bench flags...]',
  options: {
    base: { type: 'string', value: 'DIR', description: 'the base checkout (required)' },
    head: { type: 'string', value: 'DIR', description: 'the head checkout (required)' },
    rounds: { type: 'string', default: '3', value: 'N', description: 'rounds per side (1-20)' },
    out: {
      type: 'string',
      default: join(ROOT, 'results', 'pr'),
      value: 'DIR',
      description: 'where the comparison goes',
    },
    noise: { type: 'string', value: 'FILE', description: "a machine's noise.json (thresholds)" },
    'noise-store': { type: 'string', value: 'DIR', description: 'a store to read the noise thresholds from' },
  },
  example: 'npm run rounds -- --base ../base --head . -- --profile smoke --experiments wc',
} as const satisfies CommandSpec;

export async function roundsCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(roundsSpec, argv);
  if (!values.base || !values.head) throw new UserError('rounds needs --base DIR and --head DIR (two checkouts)');
  const rounds = intFlag('--rounds', values.rounds, 1, 20);
  const base = existingDirectory(values.base, '--base');
  const head = existingDirectory(values.head, '--head');
  const out = ensureDirectory(values.out, '--out');
  const source = noiseSourceOf(values);
  // Read and validated now, for this machine: the rounds run here.
  const noise = loadNoise(source, machineInfo().id);
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const { files, stopped } = await runRounds({ base, head, rounds, out, benchArgs: positionals, log });
  if (!files.base.length || !files.head.length) {
    log(`error: ${stopped?.reason ?? 'no round was measured'}; no complete round to compare`);
    return stopped?.status ?? EXIT.internalError;
  }
  const warnings = stopped
    ? [`the rounds stopped early (${stopped.reason.slice(0, 300)}): ${files.base.length} of ${rounds} rounds compared`]
    : [];
  const { markdown } = writeComparison(files.base, files.head, () => noise, out, warnings);
  process.stdout.write(`${markdown}\ncomparison: ${join(out, 'comparison.md')} and comparison.json\n`);
  if (stopped) {
    log(`error: ${stopped.reason}; the ${files.base.length} complete round(s) were compared and written`);
    return stopped.status;
  }
  return EXIT.ok;
}
