// A path a comment, a string or a document names must exist: a moved file leaves its old name
// behind in prose that no compiler reads (#58 found eleven). Import-style names (`.js`) stand for
// their `.ts` source. The few names of files that do not exist on purpose are listed with why.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const NAMED = /\b(?:harness|gh-pages)\/(?:src|test|tools)\/[A-Za-z0-9_./-]+\.(?:ts|mjs|js|sh|c)\b/g;

/** Names that must not exist, with why. */
const ON_PURPOSE = new Map([
  // The paired schema's place in older checkouts, which the base's reader still looks in.
  ['harness/src/model/comparison-version.ts', 'an older layout, read on purpose (workflow/reader-schema.ts)'],
  ['harness/src/model/comparison.ts', 'an older layout, read on purpose (workflow/reader-schema.ts)'],
  // A file a test adds to a checkout to plant a harness change.
  ['harness/src/lib/added.ts', 'planted by harness-change.test.ts'],
  // Made-up names that tests classify (which lane, which folder, measuring or not).
  ...[
    'harness/test/a/b.integration.test.ts',
    'harness/test/pipeline/x/y.test.ts',
    'harness/test/programs/a/b-smoke.test.ts',
    'harness/src/x.ts',
    'harness/test/run/x.test.ts',
  ].map((p): [string, string] => [p, 'an example a test classifies']),
]);

const files = [
  ...['harness', 'gh-pages', 'programs', 'docs', '.github'].flatMap((dir) =>
    readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
      .filter(
        (e) => e.isFile() && /\.(?:[cm]?[jt]s|c|h|sh|md|ya?ml)$/.test(e.name) && !e.parentPath.includes('fixtures'),
      )
      .map((e) => relative(ROOT, join(e.parentPath, e.name))),
  ),
  'README.md',
  'vitest.config.ts',
  '.dependency-cruiser.cjs',
];

const exists = (p: string) =>
  existsSync(join(ROOT, p)) || (p.endsWith('.js') && existsSync(join(ROOT, `${p.slice(0, -3)}.ts`)));

describe('paths named in sources and docs', () => {
  it('exist (or are listed as named on purpose)', () => {
    expect(files.length).toBeGreaterThan(300);
    const stale = files.flatMap((file) =>
      [...readFileSync(join(ROOT, file), 'utf8').matchAll(NAMED)]
        .map((m) => m[0].replace(/\.$/, ''))
        .filter((p) => !exists(p) && !ON_PURPOSE.has(p))
        .map((p) => `${file}: ${p}`),
    );
    expect([...new Set(stale)]).toEqual([]);
  });

  it('the names listed on purpose do not exist', () => {
    for (const p of ON_PURPOSE.keys()) expect(exists(p), p).toBe(false);
  });
});
