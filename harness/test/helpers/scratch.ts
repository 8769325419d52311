import { spawn } from 'node:child_process';
import { renameSync, rmSync } from 'node:fs';

/**
 * Removes a test's temporary directory as soon as its file is done with it (the GB-sized git
 * worlds and clones), so a test run's scratch peaks at one of them rather than their sum. The
 * run's own TMPDIR (global-setup.ts) catches everything else. JSIO_KEEP_TMP=1 keeps them.
 *
 * The directory is renamed away at once (its path is free when this returns) and deleted by a
 * detached `rm -rf`: on a disk mounted with `discard` freeing blocks is slow I/O the tests need
 * not wait for. A removal cut short leaves its remains in the run's TMPDIR, whose own removal, or
 * the next run's (global-setup.ts), takes them.
 */
export function removeScratch(dir: string | undefined): void {
  if (!dir || process.env.JSIO_KEEP_TMP === '1') return;
  const trash = `${dir}.removing-${process.pid}-${Date.now()}`;
  try {
    renameSync(dir, trash);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    return;
  }
  const rm = spawn('rm', ['-rf', '--', trash], { detached: true, stdio: 'ignore' });
  rm.on('error', () => rmSync(trash, { recursive: true, force: true, maxRetries: 3 }));
  rm.unref();
}
