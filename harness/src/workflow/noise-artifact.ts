/**
 * What calibrate.yml's publish job accepts from one runner's artifact: exactly one
 * calibration, `<machine>/noise.json`, for one machine id (the directory's, the file's and, when
 * the repository maps runner labels to machine ids, that runner's), with every threshold capped.
 * Publishing every `downloaded/*\/noise.json` would let one runner's artifact set the thresholds
 * of any machine, and a huge threshold silences all change detection there.
 * Pure, but for listArtifact; the command (cli/commands/workflow.ts) reads the file.
 */
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { NoiseFile } from '../formats/noise-format.js';
import { NOISE_KEY_RE } from '../formats/parts/fields.js';
import { UserError } from '../lib/errors.js';

/**
 * The largest threshold a calibration may publish: a relative effect of 100% (a change must
 * double or halve a value). A machine noisier than that measures nothing worth comparing; a
 * larger number can only hide changes.
 */
export const MAX_NOISE_THRESHOLD = 1;
/** More thresholds than any suite has points times metrics. */
const MAX_NOISE_ENTRIES = 100_000;

/** One entry of the artifact: its path relative to the artifact, and its kind. */
export interface ArtifactEntry {
  path: string;
  kind: 'file' | 'dir' | 'other';
}

/** The one noise.json path of the listing, or the reason it is refused. */
export function pickNoiseFile(
  entries: readonly ArtifactEntry[],
): { file: string; machine: string } | { refused: string } {
  const files = entries.filter((e) => e.kind !== 'dir');
  const odd = files.find((e) => e.kind !== 'file' || !/^[^/]+\/noise\.json$/.test(e.path));
  if (odd) return { refused: `${odd.path}: an artifact holds one <machine>/noise.json and nothing else` };
  if (files.length !== 1)
    return { refused: `${files.length} noise.json files: a runner's artifact holds exactly one, its machine's` };
  const file = files[0]!.path;
  return { file, machine: file.slice(0, file.indexOf('/')) };
}

/** Why a calibration read from `<dir>/noise.json` may not be published for `expected`, or undefined. */
export function refuseNoise(noise: NoiseFile, dir: string, expected: string | undefined): string | undefined {
  if (noise.machine !== dir)
    return `its machine is ${JSON.stringify(noise.machine)}, but it is filed under ${JSON.stringify(dir)}`;
  if (expected && noise.machine !== expected)
    return `it is for machine ${JSON.stringify(noise.machine)}, but this runner's machine is ${JSON.stringify(expected)}`;
  const entries = Object.entries(noise.thresholds);
  if (entries.length > MAX_NOISE_ENTRIES) return `${entries.length} thresholds, over the limit of ${MAX_NOISE_ENTRIES}`;
  for (const [key, value] of entries) {
    if (!NOISE_KEY_RE.test(key))
      return `threshold key ${JSON.stringify(key.slice(0, 120))} is not "<benchmark id> <metric>"`;
    if (!(value <= MAX_NOISE_THRESHOLD))
      return `threshold ${JSON.stringify(key)} is ${value}, over the cap of ${MAX_NOISE_THRESHOLD} (a relative effect of 100%)`;
  }
  return undefined;
}

/** Every entry under `dir`, symlinks not followed (they are 'other'); at most 1,000. */
export function listArtifact(dir: string, rel = '', out: ArtifactEntry[] = []): ArtifactEntry[] {
  for (const name of readdirSync(join(dir, rel))) {
    const path = rel ? `${rel}/${name}` : name;
    const st = lstatSync(join(dir, path));
    out.push({ path, kind: st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other' });
    if (out.length > 1000) throw new UserError(`${dir}: more than 1000 entries`);
    if (st.isDirectory()) listArtifact(dir, path, out);
  }
  return out;
}
