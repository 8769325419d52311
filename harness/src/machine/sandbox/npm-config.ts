/**
 * A checkout's own npm configuration: a root `.npmrc` configures every `npm` run in that checkout,
 * and `script-shell` in it put a folder of the checkout first on the PATH of every script (a fake
 * `dd` re-chunked wc's input pipe). A tracked `.npmrc` may only set keys that change nothing a
 * measurement depends on; any other key refuses the run, naming the file and the key.
 */
import { UserError } from '../../lib/errors.js';
import { runSync } from '../../lib/exec.js';

/** Keys that only quiet npm or shape how it saves package.json: nothing about running or installing. */
const ALLOWED_KEYS = new Set([
  'audit',
  'engine-strict',
  'fund',
  'loglevel',
  'package-lock',
  'progress',
  'save-exact',
  'save-prefix',
  'update-notifier',
]);

/** The keys an `.npmrc` text sets that are not on the allow-list (comments and blank lines skipped). */
export function disallowedNpmKeys(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const key = line.split('=')[0]!.trim();
    if (!ALLOWED_KEYS.has(key)) out.push(key);
  }
  return out;
}

/** Refuses a checkout whose tracked root `.npmrc` sets a key off the allow-list, in one line naming it. */
export function refuseNpmConfig(root: string): void {
  const r = runSync(['git', '-C', root, 'show', 'HEAD:./.npmrc'], { timeoutMs: 30_000 });
  // Not tracked, or not a git checkout: nothing the commit brings.
  if (r.code !== 0) return;
  const keys = disallowedNpmKeys(r.stdout);
  if (!keys.length) return;
  throw new UserError(
    `${root}: .npmrc sets ${keys.map((k) => JSON.stringify(k.slice(0, 80))).join(', ')}, which would configure the npm runs of this checkout`,
    `remove it from .npmrc (allowed keys: ${[...ALLOWED_KEYS].join(', ')})`,
  );
}
