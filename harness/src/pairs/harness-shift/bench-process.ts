/**
 * A side's own `bench` command, run as a user runs it: `npm run bench` in its checkout, so its
 * package.json script and its bootstrap are exercised, not only compared. With this Node first on
 * PATH: the script's `node` is then the one the harness runs under on both sides.
 */
import { delimiter, dirname } from 'node:path';
import { runProcess } from '../../lib/exec.js';
import type { RunBench } from './rounds.js';

/** The parent's choices that would change what a side's bench measures or where it writes. */
const DROPPED_ENV = ['JSIO_ROOT', 'JSIO_PROFILE'];

/** npm's argument list for `args` (the command, then its flags): `run --silent <command> -- <flags>`. */
const npmArgs = (args: readonly string[]) => ['run', '--silent', args[0] ?? 'bench', '--', ...args.slice(1)];

export const benchProcess: RunBench = async (_side, root, args) => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
  };
  for (const k of DROPPED_ENV) delete env[k];
  const r = await runProcess(['npm', ...npmArgs(args)], { cwd: root, env });
  return { code: r.code ?? 1, stderr: r.stderr, stdout: r.stdout };
};
