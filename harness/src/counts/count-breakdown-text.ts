/**
 * Where a point's instructions went (formats/parts/work-breakdown-fields.ts WorkBreakdown), for the PR
 * comment: one line that says it in words ("+412,000 instructions: node (the runtime binary)
 * +398,000, …; by function: …"), and a folded block with the objects and functions, each with
 * base, head and change, and the folded rest. Object and function names come from binaries a
 * pull request controls: every one is escaped here, at the sink, and none goes into the
 * `<summary>`, which holds only numbers and this file's words.
 */

import type {
  FoldedChange,
  FunctionChange,
  ObjectChange,
  WorkBreakdown,
} from '../formats/parts/work-breakdown-fields.js';
import { groupDigits } from '../lib/format.js';
import { escapeCell, markdownTable } from '../lib/markdown.js';
import { NO_SYMBOL, type ObjectRole } from '../model/process-profile.js';

/** Objects and functions named in the one-line account before "…". */
const IN_LINE = 3;

/** An instruction change with its sign: "+412,000", "−14,000", "0". */
export function signedCount(n: number): string {
  return `${n > 0 ? '+' : n < 0 ? '−' : ''}${groupDigits(Math.abs(n))}`;
}

const ROLE_WORDS: Record<ObjectRole, (name: string) => string> = {
  program: (n) => `${n} (the program)`,
  runtime: (n) => `${n} (the runtime binary)`,
  jit: (n) => n,
  libc: (n) => `${n} (libc)`,
  loader: (n) => `${n} (the dynamic loader)`,
  library: (n) => n,
  valgrind: (n) => `${n} (Valgrind's preload)`,
  unplaced: (n) => n,
};

/** An object as a reader knows it: "node (the runtime binary)". Raw: escape where it is rendered. */
function objectLabel(o: Pick<ObjectChange, 'object' | 'role'>): string {
  return ROLE_WORDS[o.role](o.object);
}

/** A function with its object: "read (libc.so.6)"; JIT code has no function names. Raw: escape where rendered. */
function functionLabel(f: Pick<FunctionChange, 'function' | 'object' | 'role'>): string {
  if (f.role === 'jit' && f.function === NO_SYMBOL) return 'JIT code';
  return `${f.function} (${f.object})`;
}

const listed = <T extends { change: number }>(rows: readonly T[], label: (r: T) => string) => {
  const shown = rows.slice(0, IN_LINE).map((r) => `${escapeCell(label(r))} ${signedCount(r.change)}`);
  return rows.length > IN_LINE ? [...shown, '…'] : shown;
};

/** The change in one line, names escaped: totals, the objects that moved, the functions that moved. */
export function breakdownLine(b: WorkBreakdown): string {
  const total = `${signedCount(b.change)} instructions`;
  const objects = listed(b.objects, objectLabel);
  const functions = listed(b.functions, functionLabel);
  const processes =
    b.processes.base === b.processes.head
      ? ''
      : ` (processes: ${b.processes.base} in base, ${b.processes.head} in head)`;
  if (!objects.length && !functions.length) return `${total}${processes}: no object or function stands out`;
  return `${total}${processes}: ${objects.join(', ')}${functions.length ? `; by function: ${functions.join(', ')}` : ''}`;
}

const counts = (r: { base: number; head: number; change: number }) => [
  groupDigits(r.base),
  groupDigits(r.head),
  signedCount(r.change),
];

function rest(r: FoldedChange, noun: string): string {
  return `everything else (${r.entries} ${noun}${r.entries === 1 ? '' : 's'}, ${r.changed} changed)`;
}

/** The folded block: the line, then the objects' and the functions' tables (markdownTable escapes every cell) with the folded rest. */
export function renderCountBreakdown(b: WorkBreakdown): string {
  const objects = markdownTable(
    ['object', 'base', 'head', 'change'],
    [
      ...b.objects.map((o) => [objectLabel(o), ...counts(o)]),
      ...(b.otherObjects.entries ? [[rest(b.otherObjects, 'object'), ...counts(b.otherObjects)]] : []),
    ],
    ['l', 'r', 'r', 'r'],
  );
  const functions = markdownTable(
    ['function (object)', 'base', 'head', 'change'],
    [
      ...b.functions.map((f) => [functionLabel(f), ...counts(f)]),
      ...(b.otherFunctions.entries ? [[rest(b.otherFunctions, 'function'), ...counts(b.otherFunctions)]] : []),
    ],
    ['l', 'r', 'r', 'r'],
  );
  return [
    `<details><summary>Where the instructions went (callgrind): ${signedCount(b.change)}</summary>`,
    '',
    breakdownLine(b),
    '',
    objects,
    '',
    functions,
    '',
    `_Self instructions (a function's own, not its callees'), head minus base, from one callgrind run per side (${groupDigits(b.base)} instructions in base, ${groupDigits(b.head)} in head): evidence for the counted change, not the count that decided it._`,
    '</details>',
  ].join('\n');
}
