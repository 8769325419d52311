/**
 * What a checkout may bring: its tracked files, and nothing in the folders where the harness keeps
 * what it makes (caches of inputs, builds, bundles and runtimes; results; installed packages). A
 * commit that tracks a file there would hand the harness an input, a build or a bundle it did not
 * make, so the run refuses, naming the file.
 */
import { UserError } from '../../lib/errors.js';
import { runSync } from '../../lib/exec.js';

/** Top-level folders of a checkout that hold only what the harness, or npm, makes. */
const HARNESS_FOLDERS = ['.cache', 'results', 'node_modules'] as const;

/** Tracked files under the harness's folders (none where `root` is not a git checkout). */
export function trackedInHarnessFolders(root: string): string[] {
  const r = runSync(['git', '-C', root, 'ls-files', '-z', '--', ...HARNESS_FOLDERS], { timeoutMs: 30_000 });
  if (r.code !== 0) return [];
  return r.stdout.split('\0').filter(Boolean);
}

/** Refuses a checkout that tracks a file where the harness keeps what it makes, in one line naming it. */
export function refuseTrackedHarnessFiles(root: string): void {
  const files = trackedInHarnessFolders(root);
  if (!files.length) return;
  const more = files.length > 1 ? ` (and ${files.length - 1} more)` : '';
  throw new UserError(
    `${root}: ${files[0]} is tracked${more}, in ${files[0]!.split('/')[0]}/ where the harness keeps only what it makes`,
    'remove it from the commit (git rm -r --cached), then run again',
  );
}
