// Every shell command shown in the docs runs, in a fresh clone, so the docs cannot drift from
// the code. Fenced `sh` blocks run; a block marked `sh no-test (reason)` is shown only (it needs
// a benchmark machine), and `npm test` is skipped (it is this suite). Commands run at smoke size
// (JSIO_PROFILE=smoke changes only the default profile) and count no work (JSIO_COUNTS=none
// changes only the default of --counts: helpers/shared-smoke.ts). The fresh clone is the shared
// smoke run's: the README's `npm run bench` ran in it first, once for every test that reads such a
// run.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { removeScratch } from '../helpers/scratch.js';
import {
  DOCS_ENV,
  SHARED_SMOKE_COMMAND,
  SHARED_SMOKE_TIMEOUT_MS,
  type SharedSmokeRun,
  sharedSmokeRun,
} from '../helpers/shared-smoke.js';

const DOCS = [
  'README.md',
  'programs/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

function shellBlocks(markdown: string): { info: string; body: string }[] {
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

/** A command line without its trailing comment. */
const command = (line: string) => line.replace(/\s+#.*$/, '').trim();

/**
 * The README's main command is the tests' shared smoke run (helpers/shared-smoke.ts): it ran in
 * this fresh clone, exactly as written, before any other block. A block that starts with it gets
 * that run's outcome and runs its remaining lines.
 */
function startsWithSharedRun(lines: string[]): boolean {
  const first = lines.map(command).find((l) => l && !l.startsWith('#'));
  return first === SHARED_SMOKE_COMMAND;
}

describe('docs commands in a fresh clone', () => {
  let shared: SharedSmokeRun;
  beforeAll(async () => {
    shared = await sharedSmokeRun();
  }, SHARED_SMOKE_TIMEOUT_MS);
  // Only this file works in the clone (the others read the run's copied results): its runtimes
  // and builds go as soon as the docs are done.
  afterAll(() => removeScratch(shared?.clone));

  it.each(blocks.filter((b) => b.info === 'sh').map((b) => [`${b.doc} #${b.i}`, b] as const))(
    '%s runs',
    { timeout: 900_000 },
    (_name, b) => {
      let lines = b.body.split('\n').filter((l) => !/^\s*npm test\b/.test(l));
      if (startsWithSharedRun(lines)) {
        expect(shared.status, `${b.doc}: ${SHARED_SMOKE_COMMAND}\n--- stderr ---\n${shared.stderr.slice(-3000)}`).toBe(
          0,
        );
        lines = lines.slice(lines.findIndex((l) => command(l) === SHARED_SMOKE_COMMAND) + 1);
      }
      const script = lines.join('\n');
      const r = spawnSync('bash', ['-e', '-c', script], {
        cwd: shared.clone,
        encoding: 'utf8',
        env: { ...process.env, ...DOCS_ENV },
        timeout: 600_000,
      });
      expect(r.status, `${b.doc}:\n${script}\n--- stderr ---\n${r.stderr.slice(-3000)}`).toBe(0);
    },
  );
});
