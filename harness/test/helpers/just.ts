// Where the tests find just(js), and how they hide it from the harness.
import { existsSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { loadExperiment } from '../../src/plan/experiments.js';
import { ROOT } from './cli.js';

/** The harness's own rule: `just` on PATH, or $JUST_HOME/just. */
export function justInstalled(env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter))
    if (dir && existsSync(join(dir, 'just'))) return join(dir, 'just');
  const home = env.JUST_HOME;
  return home && existsSync(join(home, 'just')) ? join(home, 'just') : undefined;
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
 * An environment in which the harness cannot find just(js), whatever this machine has: JUST_HOME
 * and JUST_TARGET unset, and each PATH directory holding a `just` replaced by a copy made of
 * symlinks to everything else in it (so gcc, hyperfine or node beside it stay reachable).
 */
export function envWithoutJust(): NodeJS.ProcessEnv {
  const path = (process.env.PATH ?? '').split(delimiter).map((dir) => {
    if (!dir || !existsSync(join(dir, 'just'))) return dir;
    const shadow = mkdtempSync(join(tmpdir(), 'jsio-nojust-'));
    for (const name of readdirSync(dir)) if (name !== 'just') symlinkSync(join(dir, name), join(shadow, name));
    return shadow;
  });
  return { PATH: path.join(delimiter), JUST_HOME: undefined, JUST_TARGET: undefined };
}
