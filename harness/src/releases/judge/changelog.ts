/**
 * A runtime's changelog as its package ships it (model/runtime-families.ts names the file and
 * how an entry is headed: Node's `## YYYY-MM-DD, Version X.Y.Z 'Codename' ...`): the date the
 * project gives each release, and the notes between two releases with the entries touching what
 * a suite point exercises first. Pure text in, data out.
 */

import type { ReleaseNotes } from '../../formats/release-store-format.js';
import { compareVersions } from '../../model/runtime-release.js';

/** Entries kept with a change; the rest are counted (`more`). */
export const NOTES_KEPT = 12;
/** Characters of an entry's text kept. */
const TEXT_CAP = 240;

interface ChangelogSection {
  version: string;
  date: string;
  body: string;
}

/** Every release section of a changelog, in the order written. `heading` captures (date, version). */
function changelogSections(text: string, heading: RegExp): ChangelogSection[] {
  const all = new RegExp(heading.source, heading.flags.includes('g') ? heading.flags : `${heading.flags}g`);
  const marks = [...text.matchAll(all)].filter((m) => m[1] && m[2]);
  return marks.map((m, i) => ({
    date: m[1]!,
    version: m[2]!,
    body: text.slice(m.index + m[0].length, marks[i + 1]?.index ?? text.length),
  }));
}

/** version -> the date its changelog heading gives it. */
export function changelogDates(text: string, heading: RegExp): Map<string, string> {
  return new Map(changelogSections(text, heading).map((s) => [s.version, s.date]));
}

export interface NoteEntry {
  subsystem?: string;
  text: string;
}

/**
 * One bulleted line of a section, as Node writes its commit list:
 * `* \[[`abc`](url)] - **(SEMVER-MINOR)** **fs**: add x (Author) [#123](url)`; any other bullet
 * is kept as its text.
 */
export function parseEntry(line: string): NoteEntry | undefined {
  let t = line.replace(/^\s*[*-]\s+/, '');
  if (t === line) return undefined;
  t = t.replace(/^\\?\[\[`[0-9a-f]+`\]\([^)]*\)\]\s*-\s*/, '');
  t = t.replace(/^(\*\*\([A-Z0-9-]+\)\*\*\s*)+/, '');
  const sub = /^\*\*([^*]+)\*\*:\s*/.exec(t);
  if (sub) t = t.slice(sub[0].length);
  t = t.replace(/\s*\[[^\]]*\]\([^)]*\)\s*$/, '').replace(/\s*\([^()]*\)\s*$/, '');
  t = t
    .replace(/`/g, '')
    .replace(/\\([\\_*[\]<>#])/g, '$1')
    .trim();
  if (!t) return undefined;
  return {
    ...(sub ? { subsystem: sub[1]!.trim() } : {}),
    text: t.length > TEXT_CAP ? `${t.slice(0, TEXT_CAP - 1)}…` : t,
  };
}

/** A section's entries: its commit list when it has one (the notable changes repeat them), else every bullet. */
function sectionEntries(body: string): NoteEntry[] {
  const commits = /^### Commits\s*$/m.exec(body);
  const part = commits ? body.slice(commits.index) : body;
  return part
    .split('\n')
    .map(parseEntry)
    .filter((e): e is NoteEntry => e !== undefined);
}

const subsystemsOf = (e: NoteEntry) => (e.subsystem ?? '').toLowerCase().split(/[\s,/]+/);

/** The subjects an entry touches: named as its subsystem, or as a word of its text ("update libuv to 1.48"). */
function touches(e: NoteEntry, subjects: readonly string[]): string[] {
  const subs = subsystemsOf(e);
  return subjects.filter(
    (s) => subs.includes(s.toLowerCase()) || new RegExp(`\\b${s.replace(/[^a-z0-9]/gi, '')}s?\\b`, 'i').test(e.text),
  );
}

/** Subsystems that change no shipped code: their entries come last, whatever they mention. */
const NOT_CODE = new Set(['doc', 'test', 'build', 'tools', 'benchmark', 'meta', 'ci', 'typings', 'test_runner']);

/** An entry's rank: its subsystem is a subject; its text names one; other code; documentation, tests, tooling. */
function rank(e: NoteEntry & { touches: string[] }): number {
  const subs = subsystemsOf(e);
  if (subs.every((s) => NOT_CODE.has(s)) && e.subsystem) return 3;
  if (e.touches.some((t) => subs.includes(t.toLowerCase()))) return 0;
  return e.touches.length ? 1 : 2;
}

/**
 * The notes of the releases after `from` up to `to` (newest first as written), entries touching
 * the point's subjects first (by subsystem, then by a mention), documentation, tests and tooling
 * last; at most NOTES_KEPT kept.
 */
export function notesBetween(
  text: string,
  heading: RegExp,
  range: { from: string; to: string },
  subjects: readonly string[],
  source: string,
): ReleaseNotes {
  const sections = changelogSections(text, heading).filter(
    (s) => compareVersions(s.version, range.from) > 0 && compareVersions(s.version, range.to) <= 0,
  );
  const all = sections.flatMap((s) =>
    sectionEntries(s.body).map((e) => ({ version: s.version, ...e, touches: touches(e, subjects) })),
  );
  const ranked = all
    .map((e, i) => ({ e, r: rank(e), i }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.e);
  const kept = ranked.slice(0, NOTES_KEPT);
  const found = sections.length
    ? source
    : `${source}: no section for the releases after ${range.from} up to ${range.to}`;
  return { source: found, entries: kept, more: ranked.length - kept.length };
}
