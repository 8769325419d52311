/**
 * A machine's trend marks (formats/marks-format.ts), read and written inside the trend store like its
 * other files: validated or refused (naming the file and the field), never replaced; written
 * atomically, through no planted symlink. A missing file is a machine without marks. Also the
 * run a new commit's marks are derived against: the machine's previous commit of the profile.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { MARK_KINDS, MARKS_FILE, MARKS_SCHEMA, type Mark, type MarkKind, MarksFile } from '../formats/marks-format.js';
import { commitOrder, paths } from '../formats/parts/store-layout.js';
import type { Results } from '../formats/results-format.js';
import { IndexFile } from '../formats/trend-store-format.js';
import { assertRealInside } from '../lib/fs-safety.js';
import { assertSegment, assertSha } from '../lib/ids.js';
import { readJsonFile } from '../lib/json-file.js';
import {
  HINT,
  json,
  readStoredRun,
  readStoreFile,
  runFileOf,
  STORE_FILE_MAX_BYTES,
  writeInside,
} from './store-files.js';

function marksPath(root: string, machine: string): string {
  assertSegment('machine', machine);
  return join(root, machine, MARKS_FILE);
}

export function readMarks(root: string, machine: string): MarksFile {
  const file = marksPath(root, machine);
  if (!existsSync(file)) return { schema: MARKS_SCHEMA, commits: {} };
  assertRealInside(root, file);
  return readJsonFile(file, MarksFile, {
    version: MARKS_SCHEMA,
    context: 'refusing to touch the store: ',
    hint: HINT,
    maxBytes: STORE_FILE_MAX_BYTES,
  });
}

/** What one publish of a commit's run says about its marks. */
export interface CommitMarks {
  commit: { sha: string; date: string; subject: string };
  profile: string;
  /** The kinds this publish decided (found or not): the commit's earlier marks of these kinds and this profile go. */
  decided: readonly MarkKind[];
  marks: readonly Mark[];
}

/**
 * `m`'s marks laid over the file's (pure): a commit published again replaces its marks of the
 * kinds decided for that profile, and keeps every other. A commit left without marks is dropped.
 */
export function mergeMarks(file: MarksFile, m: CommitMarks): MarksFile {
  assertSha('commit', m.commit.sha);
  const had = file.commits[m.commit.sha];
  const kept = (had?.marks ?? []).filter((k) => !(k.profile === m.profile && m.decided.includes(k.kind)));
  const marks = [...kept, ...m.marks].sort(
    (a, b) => MARK_KINDS.indexOf(a.kind) - MARK_KINDS.indexOf(b.kind) || (a.profile < b.profile ? -1 : 1),
  );
  const commits = { ...file.commits };
  delete commits[m.commit.sha];
  if (marks.length) commits[m.commit.sha] = { date: m.commit.date, subject: m.commit.subject, marks };
  return { schema: MARKS_SCHEMA, commits };
}

/** Stores a publish's marks on `machine`; a machine that never had one gets no file for none. */
export function storeMarks(root: string, machine: string, m: CommitMarks): void {
  const file = marksPath(root, machine);
  const before = readMarks(root, machine);
  if (!m.marks.length && !before.commits[m.commit.sha]) return;
  mkdirSync(join(root, machine), { recursive: true });
  writeInside(root, [{ file, data: json(mergeMarks(before, m)) }]);
}

/**
 * The stored run of the machine's commit before `results`' commit (by the store's commit order)
 * that has a run of the same profile, with its file; undefined for the machine's first.
 */
export function previousRun(root: string, results: Results): { run: Results; file: string } | undefined {
  const machine = results.run.machine.id;
  const { profile, commit } = results.run;
  const indexPath = join(root, paths.index(machine));
  const index = readStoreFile(root, indexPath, IndexFile);
  const before = (index?.commits ?? [])
    .filter((c) => c.sha !== commit.sha && c.runs[profile] && commitOrder(c, commit) < 0)
    .at(-1);
  const entry = before?.runs[profile];
  if (!before || !entry) return undefined;
  const file = runFileOf(root, indexPath, machine, before.sha, profile, entry.file);
  return existsSync(file) ? { run: readStoredRun(root, file), file: `${machine}/${entry.file}` } : undefined;
}
