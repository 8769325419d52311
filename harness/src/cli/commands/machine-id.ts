/**
 * npm run machine-id: this machine's id, or the id recorded in a results.json (workflows use it
 * to keep machines' data apart, e.g. github-action-benchmark's data directory per machine).
 */

import { readResults } from '../../formats/read-results.js';
import { EXIT, UserError } from '../../lib/errors.js';
import { machineInfo } from '../../machine/machine.js';
import { type CommandSpec, parseCommand } from '../options.js';

export const machineIdSpec = {
  name: 'machine-id',
  brief: "this machine's id (or a results file's)",
  summary: "Prints this machine's id, or the id recorded in a results.json.",
  positionals: '[RESULTS.json]',
  options: {},
  example: 'npm run machine-id -- results/latest/results.json',
} as const satisfies CommandSpec;

export async function machineIdCommand(argv: string[]): Promise<number> {
  const { positionals } = parseCommand(machineIdSpec, argv);
  if (positionals.length > 1) throw new UserError('machine-id takes at most one results.json');
  // The results schema restricts ids to a safe path segment (formats/results-format.ts MachineId).
  process.stdout.write(`${positionals[0] ? readResults(positionals[0]).run.machine.id : machineInfo().id}\n`);
  return EXIT.ok;
}
