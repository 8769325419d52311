// Change detection on real git repositories: a copy of this repository's harness, docs and site as
// the base commit, and a clone in which one file of each kind is changed and committed; only the
// measuring code (the runner's import graph, the C tools, the pins) counts.
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harnessChange, importGraph } from '../../../../src/pr-diff/harness-shift/plan/harness-change.js';
import { ROOT } from '../../../helpers/cli.js';
import { removeScratch } from '../../../helpers/scratch.js';

let dir: string;
let base: string;
let head: string;
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' });
/** Head back at the base commit, untracked files removed. */
const resetHead = () => {
  git(head, 'reset', '-q', '--hard', 'origin/main');
  git(head, 'clean', '-q', '-fd');
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'jsio-harness-change-'));
  base = join(dir, 'base');
  head = join(dir, 'head');
  mkdirSync(base);
  const tar = execFileSync(
    'git',
    [
      'archive',
      'HEAD',
      'harness/src',
      'harness/tools',
      'harness/toolchains.json',
      'docs',
      'gh-pages/src',
      'package.json',
      'tsconfig.json',
    ],
    { cwd: ROOT, maxBuffer: 1 << 28 },
  );
  execFileSync('tar', ['-x', '-C', base], { input: tar });
  git(base, 'init', '-q', '-b', 'main');
  git(base, 'add', '-A');
  git(base, 'commit', '-q', '-m', 'base');
  git(dir, 'clone', '-q', base, head);
});
afterAll(() => removeScratch(dir));

/** Changes one file of head (appending a no-op line), commits it, and returns what harnessChange reports. */
async function plant(file: string, line: string): Promise<string[]> {
  resetHead();
  appendFileSync(join(head, file), line);
  git(head, 'commit', '-q', '-am', `change ${file}`);
  return harnessChange(base, head);
}

describe('harnessChange', () => {
  it('finds nothing between identical checkouts', async () => {
    resetHead();
    expect(await harnessChange(base, head)).toEqual([]);
  });

  it('counts a runner file, a file it imports, a C tool and the pins', async () => {
    expect(await plant('harness/src/run/measure.ts', '// a no-op\n')).toEqual(['harness/src/run/measure.ts']);
    expect(await plant('harness/src/lib/exec.ts', '// a no-op\n')).toEqual(['harness/src/lib/exec.ts']);
    expect(await plant('harness/tools/evict.c', '/* a no-op */\n')).toEqual(['harness/tools/evict.c']);
    expect(await plant('harness/tools/pair-timer.c', '/* a no-op */\n')).toEqual(['harness/tools/pair-timer.c']);
    expect(await plant('harness/toolchains.json', '\n')).toEqual(['harness/toolchains.json']);
  });

  it('does not count a doc, the site, the comment renderer or a runner set-up script', async () => {
    expect(await plant('docs/paired-design.md', 'a note\n')).toEqual([]);
    expect(await plant('gh-pages/src/main.ts', '// a no-op\n')).toEqual([]);
    expect(await plant('harness/src/pr-diff/report/comment.ts', '// a no-op\n')).toEqual([]);
    expect(await plant('harness/tools/setup-runner.sh', '# a no-op\n')).toEqual([]);
  });

  it('counts a new module the runner imports, and fails closed on a graph it cannot follow', async () => {
    resetHead();
    writeFileSync(join(head, 'harness/src/lib/added.ts'), 'export const added = 1;\n');
    appendFileSync(join(head, 'harness/src/run/measure.ts'), "import { added } from '../lib/added.js';\nvoid added;\n");
    expect(await harnessChange(base, head)).toEqual(['harness/src/lib/added.ts', 'harness/src/run/measure.ts']);
    // A syntax error: every file of harness/src is compared, and the broken one differs.
    resetHead();
    appendFileSync(join(head, 'harness/src/build/build.ts'), 'export const = ;\n');
    const graph = await importGraph(head);
    expect(graph).toContain('harness/src/pr-diff/report/comment.ts');
    expect(await harnessChange(base, head)).toEqual(['harness/src/build/build.ts']);
  });
});
