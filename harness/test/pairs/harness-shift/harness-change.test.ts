import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HarnessChange, harnessChange, importGraph } from '../../../src/pairs/harness-shift/harness-change.js';
import { git, HARNESS_PATHS, harnessRepos } from '../../helpers/harness-repos.js';
import { removeScratch } from '../../helpers/scratch.js';

let dir: string;
let base: string;
let head: string;
/** Head back at the base commit, untracked files removed. */
const resetHead = () => {
  git(head, 'reset', '-q', '--hard', 'origin/main');
  git(head, 'clean', '-q', '-fd');
};

beforeAll(() => {
  ({ dir, base, head } = harnessRepos('jsio-harness-change-', [
    ...HARNESS_PATHS,
    'harness/test/lib',
    'docs',
    'gh-pages/src',
  ]));
});
afterAll(() => removeScratch(dir));

/** Changes one file of head (appending a line), commits it, and returns what harnessChange reports. */
async function planted(file: string, line: string): Promise<HarnessChange> {
  resetHead();
  appendFileSync(join(head, file), line);
  git(head, 'commit', '-q', '-am', `change ${file}`);
  return harnessChange(base, head);
}
/** The changed files alone. */
const plant = async (file: string, line: string) => (await planted(file, line)).files;

describe('harnessChange', () => {
  it('finds nothing between identical checkouts', async () => {
    resetHead();
    expect(await harnessChange(base, head)).toEqual({ files: [], sameCode: false });
  });

  it('counts a runner file, a file it imports, a C tool and the pins', async () => {
    expect(await plant('harness/src/run/measure.ts', '// a no-op\n')).toEqual(['harness/src/run/measure.ts']);
    expect(await plant('harness/src/lib/exec.ts', '// a no-op\n')).toEqual(['harness/src/lib/exec.ts']);
    expect(await plant('harness/tools/evict.c', '/* a no-op */\n')).toEqual(['harness/tools/evict.c']);
    expect(await plant('harness/tools/pair-timer.c', '/* a no-op */\n')).toEqual(['harness/tools/pair-timer.c']);
    expect(await plant('harness/toolchains.json', '\n')).toEqual(['harness/toolchains.json']);
  });

  it('counts what the old import-graph rule missed: the bootstrap, the bench pipeline and command, scripts, tsconfig, a new tool header', async () => {
    expect(await plant('harness/bootstrap.mjs', '// a no-op\n')).toEqual(['harness/bootstrap.mjs']);
    expect(await plant('harness/src/pipeline/bench.ts', '// a no-op\n')).toEqual(['harness/src/pipeline/bench.ts']);
    expect(await plant('harness/src/cli/commands/bench.ts', '// a no-op\n')).toEqual([
      'harness/src/cli/commands/bench.ts',
    ]);
    expect(await plant('tsconfig.json', '\n')).toEqual(['tsconfig.json']);
    expect(await plant('harness/tools/install-just.sh', '# a no-op\n')).toEqual(['harness/tools/install-just.sh']);
    resetHead();
    writeFileSync(join(head, 'harness/tools/timer.h'), '#define X 1\n');
    const pkg = JSON.parse(readFileSync(join(head, 'package.json'), 'utf8'));
    pkg.scripts.bench = `${pkg.scripts.bench} --profile quick`;
    writeFileSync(join(head, 'package.json'), JSON.stringify(pkg));
    expect((await harnessChange(base, head)).files).toEqual(['harness/tools/timer.h', 'package.json']);
  });

  it('does not count a doc, the site, the comment renderer, a test, a runner set-up script or the description', async () => {
    expect(await plant('docs/paired-design.md', 'a note\n')).toEqual([]);
    expect(await plant('gh-pages/src/main.ts', '// a no-op\n')).toEqual([]);
    expect(await plant('harness/src/pairs/comment/comment.ts', '// a no-op\n')).toEqual([]);
    expect(await plant('harness/src/site/bundle.ts', '// a no-op\n')).toEqual([]);
    expect(await plant('harness/test/lib/expr.test.ts', '// a no-op\n')).toEqual([]);
    expect(await plant('harness/tools/setup-runner.sh', '# a no-op\n')).toEqual([]);
    resetHead();
    const pkg = JSON.parse(readFileSync(join(head, 'package.json'), 'utf8'));
    pkg.description = 'reworded';
    writeFileSync(join(head, 'package.json'), JSON.stringify(pkg, null, 2));
    expect((await harnessChange(base, head)).files).toEqual([]);
  });

  it('counts a new module whether or not anything imports it, and a side that does not build', async () => {
    resetHead();
    writeFileSync(join(head, 'harness/src/lib/added.ts'), 'export const added = 1;\n');
    expect((await harnessChange(base, head)).files).toEqual(['harness/src/lib/added.ts']);
    resetHead();
    appendFileSync(join(head, 'harness/src/run/build.ts'), 'export const = ;\n');
    await expect(importGraph(head)).rejects.toThrow();
    expect(await harnessChange(base, head)).toEqual({ files: ['harness/src/run/build.ts'], sameCode: false });
  });

  it('a comment, a type or code nothing reaches compiles to the same code; a statement that runs does not', async () => {
    expect(await planted('harness/src/run/measure.ts', '// a note\n')).toEqual({
      files: ['harness/src/run/measure.ts'],
      sameCode: true,
    });
    expect(await planted('harness/src/lib/exec.ts', 'export type Unused = { a: number };\n')).toEqual({
      files: ['harness/src/lib/exec.ts'],
      sameCode: true,
    });
    expect((await planted('harness/src/lib/exec.ts', 'export const unused = () => 1;\n')).sameCode).toBe(true);
    // Runs whenever the module loads, and prints: the measuring code is not the same.
    expect(await planted('harness/src/run/measure.ts', "if (Date.now() < 0) console.log('never');\n")).toEqual({
      files: ['harness/src/run/measure.ts'],
      sameCode: false,
    });
    // A C tool or the pins are not TypeScript: compiling proves nothing about them.
    expect((await planted('harness/tools/evict.c', '/* a note */\n')).sameCode).toBe(false);
  });

  it('counts a package the measuring code imports when the lockfile pins it differently', async () => {
    resetHead();
    const lockFile = join(head, 'package-lock.json');
    const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as { packages: Record<string, { version: string }> };
    lock.packages['node_modules/zod']!.version = '0.0.1';
    writeFileSync(lockFile, JSON.stringify(lock));
    git(head, 'commit', '-q', '-am', 'pin zod differently');
    expect(await harnessChange(base, head)).toEqual({ files: ['package zod'], sameCode: false });
    // A package nothing in the measuring code imports is not measuring code.
    resetHead();
    const other = JSON.parse(readFileSync(lockFile, 'utf8')) as { packages: Record<string, { version: string }> };
    other.packages['node_modules/uplot']!.version = '0.0.1';
    writeFileSync(lockFile, JSON.stringify(other));
    git(head, 'commit', '-q', '-am', 'pin uplot differently');
    expect((await harnessChange(base, head)).files).toEqual([]);
  });
});
