// The architecture's rules (.dependency-cruiser.cjs) name folders and files by path: a rename that
// left one naming nothing would drop its rule without a word. Every path the config names exists,
// and every source file stands on exactly one floor, so each floor's rules reach it.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

interface Layout {
  ROOMS: string[];
  FLOORS: string[];
  FILE_FLOORS: Record<string, string>;
  floors: (names: string[]) => string[];
  named: { files: string[]; folders: string[] };
}

const { layout } = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as { layout: Layout };
const SRC = join(ROOT, 'harness/src');
const isFile = (p: string) => existsSync(join(SRC, p)) && statSync(join(SRC, p)).isFile();
const isFolder = (p: string) => existsSync(join(SRC, p)) && statSync(join(SRC, p)).isDirectory();
const sources = readdirSync(SRC, { withFileTypes: true, recursive: true })
  .filter((e) => e.isFile() && e.name.endsWith('.ts'))
  .map((e) => relative(ROOT, join(e.parentPath, e.name)))
  .sort();
const floorsOf = (file: string) =>
  layout.FLOORS.filter((f) => layout.floors([f]).some((r) => new RegExp(r).test(file)));

describe('the dependency rules', () => {
  it('name files and folders that exist under harness/src', () => {
    for (const f of [...layout.named.files, ...Object.keys(layout.FILE_FLOORS)]) expect(isFile(f), f).toBe(true);
    for (const d of [...layout.named.folders, ...layout.ROOMS]) expect(isFolder(d), d).toBe(true);
  });

  it('give each file of the map a floor they know', () => {
    for (const [f, floor] of Object.entries(layout.FILE_FLOORS)) expect(layout.FLOORS, f).toContain(floor);
  });

  it('put every source file on exactly one floor', () => {
    const astray = sources.map((f) => [f, floorsOf(f)] as const).filter(([, on]) => on.length !== 1);
    expect(astray).toEqual([]);
  });

  it('find files on every floor (an emptied floor would carry its rules for nothing)', () => {
    const used = new Set(sources.flatMap(floorsOf));
    expect(layout.FLOORS.filter((f) => !used.has(f))).toEqual([]);
  });
});
