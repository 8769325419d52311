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
import { type Experiment, Manifest } from './manifest.js';

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
