/**
 * A checkout as the paired runner needs it: programs, the pins, the harness's C tools; nothing
 * else. Its runtimes folder is a link to this tree's, as pr.yml links the head's to the runner's
 * cache: a runtime is installed from the registry once, not once per checkout.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './cli.js';

export function programCheckout(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `jsio-checkout-${name}-`));
  cpSync(join(ROOT, 'programs'), join(dir, 'programs'), { recursive: true });
  mkdirSync(join(dir, 'harness'), { recursive: true });
  cpSync(join(ROOT, 'harness', 'toolchains.json'), join(dir, 'harness', 'toolchains.json'));
  cpSync(join(ROOT, 'harness', 'tools'), join(dir, 'harness', 'tools'), { recursive: true });
  const runtimes = join(ROOT, '.cache', 'runtimes');
  mkdirSync(runtimes, { recursive: true });
  mkdirSync(join(dir, '.cache'));
  symlinkSync(runtimes, join(dir, '.cache', 'runtimes'), 'dir');
  return dir;
}

/** Rewrites one file under the checkout's programs/. */
export function editProgram(dir: string, file: string, change: (s: string) => string): void {
  const f = join(dir, 'programs', file);
  writeFileSync(f, change(readFileSync(f, 'utf8')));
}
