/**
 * A checkout as the paired runner needs it: programs, the pins, the harness's C tools; nothing
 * else. Runtimes come from the harness's cache outside every checkout (the test run's, whose
 * runtimes are shared across runs: harness/test/global-setup.ts).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './cli.js';

export function programCheckout(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `jsio-checkout-${name}-`));
  cpSync(join(ROOT, 'programs'), join(dir, 'programs'), { recursive: true });
  mkdirSync(join(dir, 'harness'), { recursive: true });
  cpSync(join(ROOT, 'harness', 'toolchains.json'), join(dir, 'harness', 'toolchains.json'));
  cpSync(join(ROOT, 'harness', 'tools'), join(dir, 'harness', 'tools'), { recursive: true });
  return dir;
}

/** Rewrites one file under the checkout's programs/. */
export function editProgram(dir: string, file: string, change: (s: string) => string): void {
  const f = join(dir, 'programs', file);
  writeFileSync(f, change(readFileSync(f, 'utf8')));
}
