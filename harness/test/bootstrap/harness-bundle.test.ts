// The bootstrap runs the harness bundled from the checkout's harness/src into the user's cache
// (JSIO_CACHE), in a folder named by its sources' digest, never a bundle the checkout brings: a
// planted .cache/harness/cli.mjs, with the stamp the bootstrap once accepted for those very
// sources, is not run; a changed source gets a bundle of its own.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { removeScratch } from '../helpers/scratch.js';

const dir = mkdtempSync(join(tmpdir(), 'jsio-harness-bundle-'));
afterAll(() => removeScratch(dir));

/** The stamp the bootstrap wrote beside .cache/harness/cli.mjs before the bundle left the checkout. */
function oldStamp(root: string): string {
  const options = {
    entryPoints: [join(root, 'harness', 'src', 'cli', 'main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
    sourcemap: 'inline',
  };
  const hash = createHash('sha256').update(JSON.stringify(options));
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) hash.update(`${p}\0`).update(readFileSync(p)).update('\0');
    }
  };
  walk(join(root, 'harness', 'src'));
  return hash.digest('hex');
}

it('runs the bundle of its own sources from the user cache, never the one the checkout planted', () => {
  const root = join(dir, 'checkout');
  mkdirSync(join(root, 'harness'), { recursive: true });
  cpSync(join(ROOT, 'harness', 'src'), join(root, 'harness', 'src'), { recursive: true });
  cpSync(join(ROOT, 'harness', 'bootstrap.mjs'), join(root, 'harness', 'bootstrap.mjs'));
  for (const f of ['package.json', 'package-lock.json']) cpSync(join(ROOT, f), join(root, f));
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  const mark = join(dir, 'planted-bundle-ran');
  mkdirSync(join(root, '.cache', 'harness'), { recursive: true });
  writeFileSync(
    join(root, '.cache', 'harness', 'cli.mjs'),
    `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(mark)}, 'ran');\n`,
  );
  writeFileSync(join(root, '.cache', 'harness', 'cli.mjs.sha256'), oldStamp(root));
  const cache = join(dir, 'cache');
  const help = () =>
    spawnSync(process.execPath, [join(root, 'harness', 'bootstrap.mjs'), 'help'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, JSIO_CACHE: cache },
    });

  const r = help();
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toContain('npm run bench');
  expect(existsSync(mark)).toBe(false);
  const bundles = () => readdirSync(join(cache, 'harness'));
  expect(bundles()).toHaveLength(1);
  expect(existsSync(join(cache, 'harness', bundles()[0]!, 'cli.mjs'))).toBe(true);

  // Keyed by content: the same sources reuse it, a changed source is bundled anew.
  expect(help().status).toBe(0);
  expect(bundles()).toHaveLength(1);
  appendFileSync(join(root, 'harness', 'src', 'cli', 'main.ts'), '\n// changed\n');
  expect(help().status).toBe(0);
  expect(bundles()).toHaveLength(2);
  expect(existsSync(mark)).toBe(false);
}, 120_000);
