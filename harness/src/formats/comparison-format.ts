/**
 * comparison.json's schema versions and kinds (the documents themselves: ./quick-look-format.ts and
 * ./pairs-format.ts), and which document a comparison.json is, told before its schema is checked:
 * a reader takes its own kind at a version it knows and refuses anything else in one line naming the
 * file and the field, never with a list of every field the other document lacks.
 *
 * workflow/reader-schema.ts reads PAIRS_COMPARISON_SCHEMA's declaration from a base checkout's copy
 * of this file as text: keep it one line, `export const PAIRS_COMPARISON_SCHEMA = <n>;`.
 */
import { UserError } from '../lib/errors.js';

/**
 * The two documents a comparison.json can be, named by the command that writes each. From schema
 * KIND_SINCE on a document says which it is in `kind`; before it, the number told them apart (1:
 * the quick look; 2 and 3: pairs). So the numbers stay one sequence for both: a reader from before
 * `kind` refuses either newer document as newer than it knows, never reads one as the other.
 */
const COMPARISON_KINDS = ['quick-look', 'pairs'] as const;
export type ComparisonKind = (typeof COMPARISON_KINDS)[number];
const KIND_SINCE = 4;

/** `npm run compare`'s quick look. 4 added `kind`; readers take 1 as it is. */
export const COMPARISON_SCHEMA = 4;
export const COMPARISON_OLDEST = 1;

/**
 * The paired diff's (`npm run pairs`) comparison.json. 3 added workload-changed points measured in pairs, the
 * other timed metrics judged at the diff-wide level and the first line's counts of every affected
 * point; 4 added `kind`; 5 the base counts taken from the trend store (`work.baseStored`,
 * `counts.storedBase`). Readers accept every version from PAIRS_COMPARISON_OLDEST on: the
 * PR-comment workflow reads an artifact a pull request's harness wrote with the default branch's
 * reader, so a newer harness writes at the version the reader of its base knows
 * (pairs/comment/down-level.ts).
 */
export const PAIRS_COMPARISON_SCHEMA = 5;
export const PAIRS_COMPARISON_OLDEST = 2;

const WHAT: Record<ComparisonKind, string> = {
  'quick-look': 'the quick look `npm run compare` writes between stored runs',
  pairs: 'the paired PR diff `npm run pairs` writes',
};
const KNOWN = COMPARISON_KINDS.map((k) => JSON.stringify(k)).join(' and ');

const isKind = (v: unknown): v is ComparisonKind => COMPARISON_KINDS.some((k) => k === v);

/**
 * The document `raw` is: its `kind`, or for a file from before kinds its schema number (1: the quick
 * look, 2 and 3: pairs). Undefined when neither says, for the schema's own check to name what is wrong.
 */
export function comparisonKind(file: string, raw: unknown): ComparisonKind | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const { kind, schema } = raw as { kind?: unknown; schema?: unknown };
  if (Object.hasOwn(raw, 'kind')) {
    if (isKind(kind)) return kind;
    throw new UserError(
      `${file}: field "kind" is ${JSON.stringify(kind)?.slice(0, 60)}, a comparison this harness does not know (it knows ${KNOWN}): refusing it`,
    );
  }
  if (typeof schema !== 'number') return undefined;
  if (schema >= KIND_SINCE)
    throw new UserError(
      `${file} has schema ${schema} but no field "kind" (from schema ${KIND_SINCE} a comparison.json names its kind: ${KNOWN}): refusing it`,
    );
  if (schema === 1) return 'quick-look';
  return schema === 2 || schema === 3 ? 'pairs' : undefined;
}

/**
 * A JSON reader's migrate step (lib/json-file.ts) for a reader of `want` documents up to schema
 * `newest`: the kind is told before the number, since both documents count in one sequence. Passes
 * `raw` on unchanged.
 */
export function expectComparison(file: string, want: ComparisonKind, newest: number): (raw: unknown) => unknown {
  return (raw) => {
    const kind = comparisonKind(file, raw);
    if (kind !== undefined && kind !== want) {
      const said = Object.hasOwn(raw as object, 'kind')
        ? `field "kind" is ${JSON.stringify(kind)}`
        : `schema ${(raw as { schema: number }).schema}`;
      throw new UserError(`${file} is ${WHAT[kind]} (${said}), not ${WHAT[want]}: refusing it`);
    }
    const v = (raw as { schema?: unknown } | null)?.schema;
    if (typeof v === 'number' && v > newest)
      throw new UserError(
        `${file} has schema ${v}, newer than this harness understands (${newest}): update the harness`,
      );
    return raw;
  };
}
