// Where the tests find just(js), and how they hide it from the harness.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { systemTool } from '../../src/machine/tools.js';
import { loadExperiment } from '../../src/plan/experiments.js';
import { ROOT } from './cli.js';

/** The harness's own rule: $JUST_HOME/just, else `just` in a root-owned system folder (never PATH). */
export function justInstalled(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const home = env.JUST_HOME;
  return home && existsSync(join(home, 'just')) ? join(home, 'just') : systemTool('just', env);
}

/** Every just(js) variant of every experiment under programs/, by experiment. */
export function justVariants(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const id of readdirSync(join(ROOT, 'programs'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()) {
    const exp = loadExperiment(join(ROOT, 'programs', id));
    const ids = exp.manifest.variants.filter((v) => v.runtime === 'just').map((v) => v.id);
    if (ids.length) out.set(id, ids);
  }
  return out;
}

/**
 * An environment in which the harness cannot find just(js): JUST_HOME and JUST_TARGET unset (it
 * never looks on PATH; a `just` in a root-owned system folder cannot be hidden, and justInstalled
 * says so).
 */
export function envWithoutJust(): NodeJS.ProcessEnv {
  return { JUST_HOME: undefined, JUST_TARGET: undefined };
}
