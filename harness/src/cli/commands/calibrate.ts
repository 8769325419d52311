/** npm run calibrate: an A/A run of this checkout (pipeline/calibrate.ts). */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { EXIT, UserError } from '../../lib/errors.js';
import { ensureDirectory } from '../../lib/paths.js';
import { calibrate } from '../../pipeline/calibrate.js';
import { DEFAULT_STORE, ROOT } from '../args.js';

export async function calibrateCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: {
      rounds: { type: 'string', default: '6' },
      out: { type: 'string', default: join(ROOT, 'results', 'calibrate') },
      store: { type: 'string', default: DEFAULT_STORE },
    },
  });
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
