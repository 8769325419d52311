/**
 * The one reader of the experiments' manifests (programs/<experiment>/manifest.json): which folders
 * are experiments, and each manifest parsed and schema-validated, errors naming the file and the
 * field. The plan adds its consistency checks (files named, expressions, parameters) through
 * `check`; the site reads the same manifests the same way for their overview and labels.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { UserError } from '../lib/errors.js';
import { parseJson } from '../lib/json-file.js';
import { type Experiment, Manifest } from './manifest-format.js';

const MANIFEST_FILE = 'manifest.json';

/** Problems beyond the schema, one line each; none means the manifest is valid. */
export type ManifestCheck = (file: string, dir: string, manifest: Manifest) => string[];

/** A manifest's text, validated: by the schema, then by `check`. */
export function parseManifestText(file: string, dir: string, text: string, check?: ManifestCheck): Manifest {
  const manifest = parseJson(file, text, Manifest);
  const problems = check?.(file, dir, manifest) ?? [];
  if (problems.length) throw new UserError(`${file} is invalid:\n${problems.join('\n')}`);
  return manifest;
}

/** One experiment folder; its name is the experiment's id. */
export function readExperiment(dir: string, check?: ManifestCheck): Experiment {
  const abs = resolve(dir);
  const manifestPath = join(abs, MANIFEST_FILE);
  if (!existsSync(manifestPath))
    throw new UserError(`${manifestPath} not found: every experiment folder needs a ${MANIFEST_FILE}`);
  const manifest = parseManifestText(manifestPath, abs, readFileSync(manifestPath, 'utf8'), check);
  return { id: basename(abs), dir: abs, manifestPath, manifest };
}

/** Every folder under programsDir with a manifest.json is an experiment, in name order. */
export function readExperiments(programsDir: string, check?: ManifestCheck): Experiment[] {
  return readdirSync(programsDir)
    .filter(
      (name) => statSync(join(programsDir, name)).isDirectory() && existsSync(join(programsDir, name, MANIFEST_FILE)),
    )
    .sort()
    .map((name) => readExperiment(join(programsDir, name), check));
}

/** A folder whose manifest this harness cannot read, and why (its first line). */
export interface UnreadableExperiment {
  experiment: string;
  reason: string;
}

/**
 * Every experiment folder, as readExperiments reads them, but a manifest that cannot be read is
 * listed instead of stopping the rest: a plan of another checkout (a pull request's) must go on
 * and call that experiment's points affected, not fail.
 */
export function readExperimentsTolerant(
  programsDir: string,
  check?: ManifestCheck,
): { experiments: Experiment[]; unreadable: UnreadableExperiment[] } {
  const experiments: Experiment[] = [];
  const unreadable: UnreadableExperiment[] = [];
  for (const name of readdirSync(programsDir).sort()) {
    const dir = join(programsDir, name);
    if (!statSync(dir).isDirectory() || !existsSync(join(dir, MANIFEST_FILE))) continue;
    try {
      experiments.push(readExperiment(dir, check));
    } catch (e) {
      unreadable.push({
        experiment: name,
        reason: (e as Error).message.split('\n').slice(0, 2).join(' ').slice(0, 400),
      });
    }
  }
  return { experiments, unreadable };
}
