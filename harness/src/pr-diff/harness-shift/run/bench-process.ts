/** A side's own `bench` command, run as the npm script runs it: its bootstrap, in its directory, with this Node. */
import { join } from 'node:path';
import { runProcess } from '../../../lib/exec.js';
import type { RunBench } from './rounds.js';

/** The parent's choices that would change what a side's bench measures or where it writes. */
const DROPPED_ENV = ['JSIO_ROOT', 'JSIO_PROFILE'];

export const benchProcess: RunBench = async (_side, root, args) => {
  const env = { ...process.env };
  for (const k of DROPPED_ENV) delete env[k];
  const r = await runProcess([process.execPath, join(root, 'harness', 'bootstrap.mjs'), ...args], { cwd: root, env });
  return { code: r.code ?? 1, stderr: r.stderr, stdout: r.stdout };
};
