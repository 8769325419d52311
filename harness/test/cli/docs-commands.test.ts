// Every shell command shown in the docs runs, in a fresh clone, so the docs cannot drift from
// the code. Fenced `sh` blocks run; a block marked `sh no-test (reason)` is shown only (it needs
// a benchmark machine), and `npm test` is skipped (it is this suite). Commands run at smoke size
// (JSIO_PROFILE=smoke changes only the default profile).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { removeScratch } from '../helpers/scratch.js';

const DOCS = [
  'README.md',
  'programs/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

export function shellBlocks(markdown: string): { info: string; body: string }[] {
  return [...markdown.matchAll(/^```(sh[^\n]*)\n([\s\S]*?)^```/gm)].map((m) => ({ info: m[1]!.trim(), body: m[2]! }));
}

const blocks = DOCS.flatMap((doc) =>
  shellBlocks(readFileSync(join(ROOT, doc), 'utf8')).map((b, i) => ({ doc, i, ...b })),
);

describe('docs', () => {
  it('have shell commands to test, and every untested block says why', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    for (const b of blocks.filter((x) => x.info !== 'sh'))
      expect(b.info, `${b.doc} block ${b.i}`).toMatch(/^sh no-test \(.+\)$/);
  });
});

describe('docs commands in a fresh clone', () => {
  let clone: string;
  beforeAll(() => {
    clone = mkdtempSync(join(tmpdir(), 'jsio-docs-'));
    execFileSync('git', ['clone', '--quiet', ROOT, clone]);
    // A hard-linked copy, never a symlink: when the clone's lock file differs from the working
    // tree's (an uncommitted dependency change), its bootstrap runs npm ci, which must not empty
    // the repository's own node_modules through a link.
    execFileSync('cp', ['-al', join(ROOT, 'node_modules'), join(clone, 'node_modules')]);
  });
  afterAll(() => removeScratch(clone));

  it.each(blocks.filter((b) => b.info === 'sh').map((b) => [`${b.doc} #${b.i}`, b] as const))(
    '%s runs',
    { timeout: 900_000 },
    (_name, b) => {
      const script = b.body
        .split('\n')
        .filter((l) => !/^\s*npm test\b/.test(l))
        .join('\n');
      const r = spawnSync('bash', ['-e', '-c', script], {
        cwd: clone,
        encoding: 'utf8',
        env: { ...process.env, JSIO_PROFILE: 'smoke', CI: '1' },
        timeout: 600_000,
      });
      expect(r.status, `${b.doc}:\n${script}\n--- stderr ---\n${r.stderr.slice(-3000)}`).toBe(0);
    },
  );
});
