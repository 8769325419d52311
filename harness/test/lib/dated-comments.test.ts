// A comment says why, not when: a date in a comment goes stale unnoticed (the measurement it came
// with belongs in docs/ or the commit message). Format examples spell a placeholder (YYYY-MM-DD).
// Measurements are not checked: a regex cannot tell "the 95% interval" or "+5.1 %" in a format
// example from a figure measured once.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const MONTH =
  '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)(?:uary|ruary|ch|il|e|y|ust|tember|ober|ember)?\\.?';
/** A day and a month (either way round), a month and a year, or an ISO date: the examples in the first test. */
const DATE = new RegExp(`\\b\\d{1,2} ${MONTH}(?![a-z])|\\b${MONTH} (?:\\d{1,2}|\\d{4})\\b|\\b\\d{4}-\\d{2}-\\d{2}\\b`);

/** Comments of a TypeScript or JavaScript file, as the compiler attaches them to the syntax tree. */
function scriptComments(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const seen = new Map<number, string>();
  const add = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) seen.set(r.pos, text.slice(r.pos, r.end));
  };
  const visit = (node: ts.Node) => {
    add(ts.getLeadingCommentRanges(text, node.getFullStart()));
    add(ts.getTrailingCommentRanges(text, node.end));
    ts.forEachChild(node, visit);
  };
  visit(source);
  add(ts.getLeadingCommentRanges(text, source.endOfFileToken.getFullStart()));
  return [...seen.values()];
}

/** Comments of a C source or stylesheet (no string holds a comment marker there) and of a shell script. */
function otherComments(file: string, text: string): string[] {
  if (file.endsWith('.sh')) return text.split('\n').flatMap((l) => /(?:^|\s)#(?!!)(.*)$/.exec(l)?.[1] ?? []);
  return text.match(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g) ?? [];
}

/** The sources of harness/, gh-pages/ and programs/ (fixtures are data). */
const sources = ['harness', 'gh-pages', 'programs'].flatMap((dir) =>
  readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(?:[cm]?[jt]s|c|h|css|sh)$/.test(e.name) && !e.parentPath.includes('fixtures'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name))),
);

describe('comments', () => {
  it('recognise a date and leave other figures alone', () => {
    for (const dated of ['the no-op diffs of 27 Nov', 'until Nov 27', 'in Nov 2026', 'written 2026-11-27'])
      expect(dated).toMatch(DATE);
    for (const plain of ['YYYY-MM-DD', 'a 95% interval', 'may 3 runs', 'Marks 2 files', '2048 reads', '1920 px'])
      expect(plain).not.toMatch(DATE);
  });

  it('carry no date', () => {
    expect(sources.length).toBeGreaterThan(100);
    const dated = sources.flatMap((file) => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const comments = /\.[cm]?[jt]s$/.test(file) ? scriptComments(file, text) : otherComments(file, text);
      return comments.filter((c) => DATE.test(c)).map((c) => `${file}: ${DATE.exec(c)![0]}`);
    });
    expect(dated).toEqual([]);
  });
});
