// No harness source file is longer than MAX_FILE_LINES (#58): a longer one holds several modules'
// work, and a reader looking for one of them must page through the others. Split it into modules
// that each do one job, named for it. Test files are exempt, as in function-length.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/** Longer than this, a source file is split into modules with one responsibility each. */
const MAX_FILE_LINES = 450;
const SOURCE_DIR = 'harness/src';

/** Lines as `wc -l` counts them in a file that ends with a newline (a last line without one counts too). */
function lineCount(text: string): number {
  if (!text) return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

function sources(): string[] {
  return readdirSync(join(ROOT, SOURCE_DIR), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !/\.(test|spec)\.ts$/.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .sort();
}

const lengths = () => sources().map((f) => ({ file: f, lines: lineCount(readFileSync(join(ROOT, f), 'utf8')) }));

describe('file length', () => {
  it('counts lines as wc -l does', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a\n')).toBe(1);
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
    expect(lineCount('\n\n')).toBe(2);
  });

  it(`no file in ${SOURCE_DIR} is over ${MAX_FILE_LINES} lines`, () => {
    const all = lengths();
    expect(all.length).toBeGreaterThan(50);
    const long = all.filter((f) => f.lines > MAX_FILE_LINES);
    expect(long.map((f) => `${f.file} (${f.lines} lines)`)).toEqual([]);
  });
});
