// A source file's name says what it holds, so one name means one thing across the harness and the
// site: a reader who meets `render.ts` in two folders cannot tell which one a mention means. The
// only names allowed twice are a command's entry beside the pipeline, view or entry point it runs.
import { readdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const SOURCE_DIRS = ['harness/src', 'gh-pages/src'];
/** cli/commands/<name>.ts beside pipeline/<name>.ts, pairs/diff/<name>.ts or views/<name>.ts, and the two entry points. */
const COMMAND_BESIDE_ITS_WORK = new Set(['bench.ts', 'compare.ts', 'main.ts', 'sandbox-cost.ts']);

function sources(): string[] {
  return SOURCE_DIRS.flatMap((d) =>
    readdirSync(join(ROOT, d), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts'))
      .map((e) => relative(ROOT, join(e.parentPath, e.name))),
  ).sort();
}

describe('source file names', () => {
  it('no name is used by two files, but a command beside its own work', () => {
    const byName = new Map<string, string[]>();
    for (const f of sources()) byName.set(basename(f), [...(byName.get(basename(f)) ?? []), f]);
    const repeated = [...byName].filter(([name, files]) => files.length > 1 && !COMMAND_BESIDE_ITS_WORK.has(name));
    expect(repeated).toEqual([]);
  });

  it('the allowed repeats are still a command and its work (a stale allowance is removed)', () => {
    const names = sources().map((f) => basename(f));
    for (const name of COMMAND_BESIDE_ITS_WORK) expect(names.filter((n) => n === name).length, name).toBe(2);
  });

  it('no folder name is used twice, so a short path says where it is (pairs/decide/, not a second analysis/)', () => {
    const folders = SOURCE_DIRS.flatMap((d) =>
      readdirSync(join(ROOT, d), { withFileTypes: true, recursive: true })
        .filter((e) => e.isDirectory())
        .map((e) => relative(ROOT, join(e.parentPath, e.name))),
    );
    const byName = new Map<string, string[]>();
    for (const f of folders) byName.set(basename(f), [...(byName.get(basename(f)) ?? []), f]);
    expect(folders.length).toBeGreaterThan(20);
    expect([...byName].filter(([, all]) => all.length > 1)).toEqual([]);
  });
});
