import { rmSync } from 'node:fs';

/**
 * Removes a test's temporary directory as soon as its file is done with it (the GB-sized git
 * worlds and clones), so a test run's scratch peaks at one of them rather than their sum. The
 * run's own TMPDIR (global-setup.ts) catches everything else. JSIO_KEEP_TMP=1 keeps them.
 */
export function removeScratch(dir: string | undefined): void {
  if (dir && process.env.JSIO_KEEP_TMP !== '1') rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}
