/**
 * A machine's trend marks (`<machine>/marks.json` in the trend store): commits where its numbers
 * moved for a known reason that is not the programs' performance — the runs moved into the sandbox
 * (or out of it) or their toolchain pins changed, a live re-count dropped stored counts, or the
 * harness changed what runs or how numbers are made (its recorded transcript verdict). Written by
 * `npm run pages` only (main's publishing), never by a pull request's run; drawn on the trend
 * charts and listed below them with the reason. Versioned on its own, like counts.json.
 */
import { z } from 'zod';
import { CommitSha, SafeRecord, Segment, Text } from './parts/fields.js';
import { MARKS_SCHEMA } from './parts/store-layout.js';

/** 1: marks per commit, each with its kind, reason and source (parts/store-layout.ts holds the number). */
export { MARKS_SCHEMA };

/** The file's name inside a machine's folder. */
export const MARKS_FILE = 'marks.json';

/** Why the numbers moved at a commit: the order is the order the site lists a commit's marks in. */
export const MARK_KINDS = ['sandbox', 'harness', 'counts'] as const;
export type MarkKind = (typeof MARK_KINDS)[number];

export const Mark = z
  .object({
    kind: z.enum(MARK_KINDS),
    /** The profile whose run showed it (a harness mark: the profile main measures with). */
    profile: Segment,
    /** What changed, in words: the site shows it as it is (escaped). */
    reason: Text('long'),
    /** Where the reason comes from: the run files compared, or the transcript verdict. */
    source: Text('line'),
  })
  .strict();
export type Mark = z.infer<typeof Mark>;

const MarkedCommit = z
  .object({
    date: Text('short'),
    subject: Text('line'),
    /** At most one mark per kind and profile: publishing the commit again replaces its own. */
    marks: z.array(Mark).min(1).max(30),
  })
  .strict();

export const MarksFile = z
  .object({
    schema: z.literal(MARKS_SCHEMA),
    commits: SafeRecord(CommitSha, MarkedCommit),
  })
  .strict();
export type MarksFile = z.infer<typeof MarksFile>;
