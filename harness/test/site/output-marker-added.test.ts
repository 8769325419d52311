// A site carrying the build's marker was replaced whenever its top-level names were the ones the
// marker listed: a file someone added inside it (data/notes.txt) or a page they edited was lost
// with the old build. A marked site is replaced only when every file in it is one the build wrote,
// as it wrote it; anything else is refused, named, and kept.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSiteOutput, replaceSite, SITE_MARKER } from '../../src/site/output-dir.js';

const dir = mkdtempSync(join(tmpdir(), 'jsio-site-marker-'));
const store = join(dir, 'store');

/** What a build writes, in miniature: a page, a bundle and a store copy. */
async function fakeBuild(out: string): Promise<void> {
  mkdirSync(join(out, 'data', 'm'), { recursive: true });
  writeFileSync(join(out, 'index.html'), '<title>site</title>');
  writeFileSync(join(out, 'app.js'), 'console.log(1)');
  writeFileSync(join(out, 'data', 'machines.json'), '{"schema":3}');
  writeFileSync(join(out, 'data', 'm', 'index.json'), '{}');
}

async function builtSite(name: string): Promise<string> {
  const out = join(dir, name);
  await replaceSite(out, store, fakeBuild);
  expect(existsSync(join(out, SITE_MARKER))).toBe(true);
  return out;
}

describe('a site with the marker', () => {
  it('is rebuilt when it holds only what the build wrote', async () => {
    const out = await builtSite('clean');
    await expect(replaceSite(out, store, fakeBuild)).resolves.toBeUndefined();
    expect(readFileSync(join(out, 'data', 'machines.json'), 'utf8')).toBe('{"schema":3}');
  });

  it('keeps a file added inside its data/ folder, and names it', async () => {
    const out = await builtSite('added');
    writeFileSync(join(out, 'data', 'notes.txt'), 'mine');
    await expect(replaceSite(out, store, fakeBuild)).rejects.toThrow(
      `--out ${out}: not empty and not a site this tool built (it holds data/notes.txt)`,
    );
    expect(readFileSync(join(out, 'data', 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('keeps a JSON file added beside the store copy', async () => {
    const out = await builtSite('added-json');
    writeFileSync(join(out, 'data', 'm', 'mine.json'), '{}');
    expect(() => checkSiteOutput(out, store)).toThrow('(it holds data/m/mine.json)');
  });

  it('keeps a page someone edited', async () => {
    const out = await builtSite('edited');
    writeFileSync(join(out, 'index.html'), '<title>site</title><p>my own note</p>');
    expect(() => checkSiteOutput(out, store)).toThrow('(it holds index.html)');
  });

  it('refuses a symlink planted inside it', async () => {
    const out = await builtSite('linked');
    symlinkSync('/etc', join(out, 'data', 'etc'));
    expect(() => checkSiteOutput(out, store)).toThrow('(it holds data/etc)');
  });

  it('a marker of an older build (top-level names only) still keeps an added file', () => {
    const out = join(dir, 'old-marker');
    mkdirSync(join(out, 'data'), { recursive: true });
    writeFileSync(join(out, 'index.html'), '<title>jsio-bench — I/O in JavaScript runtimes vs C</title>');
    writeFileSync(join(out, 'app.js'), 'x');
    writeFileSync(join(out, 'data', 'machines.json'), '{}');
    writeFileSync(join(out, 'data', 'notes.txt'), 'mine');
    writeFileSync(join(out, SITE_MARKER), JSON.stringify({ builtBy: 'x', files: ['app.js', 'data', 'index.html'] }));
    expect(() => checkSiteOutput(out, store)).toThrow('(it holds data/notes.txt)');
  });
});
