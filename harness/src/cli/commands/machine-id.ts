/**
 * npm run machine-id: this machine's id, or the id recorded in a results.json (workflows use it
 * to keep machines' data apart, e.g. github-action-benchmark's data directory per machine).
 */
import { parseArgs } from 'node:util';
import { EXIT, UserError } from '../../lib/errors.js';
import { machineInfo } from '../../machine/machine.js';
import { readResults } from '../../model/read-results.js';

export async function machineIdCommand(argv: string[]): Promise<number> {
  const { positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: {} });
  if (positionals.length > 1) throw new UserError('machine-id takes at most one results.json');
  // The results schema restricts ids to a safe path segment (model/results.ts MachineId).
  process.stdout.write(`${positionals[0] ? readResults(positionals[0]).run.machine.id : machineInfo().id}\n`);
  return EXIT.ok;
}
