/** Reading what a run under act uploaded: act's artifact server keeps each artifact as <name>/<name>.zip. */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export function artifactNames(run: { artifacts: string }): string[] {
  if (!existsSync(run.artifacts)) return [];
  return execFileSync('ls', [run.artifacts], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
}

/** The files in an artifact. */
export function artifactFiles(run: { artifacts: string }, name: string): string[] {
  const zip = join(run.artifacts, name, `${name}.zip`);
  return execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
}

/** One file of an artifact, as text. */
export function artifactFile(run: { artifacts: string }, name: string, file: string): string {
  const zip = join(run.artifacts, name, `${name}.zip`);
  return execFileSync('unzip', ['-p', zip, file], { encoding: 'utf8', maxBuffer: 64 << 20 });
}
