// No function in the harness or the site is longer than MAX_BODY_LINES: a longer one does
// several jobs, and splitting it into named stages (as pipeline/bench.ts reads) is what lets a
// reader follow it. Every function counts — declarations, methods, accessors, constructors,
// arrow functions and function expressions — each measured by its body, from its opening to
// its closing line. Test files are exempt.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/** Longer than this, a function is split into named functions that each do one job. */
const MAX_BODY_LINES = 80;
const SOURCE_DIRS = ['harness/src', 'gh-pages/src'];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !/\.(test|spec)\.ts$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** The name a reader would search for: the function's own, else what it is assigned to. */
function functionName(node: ts.FunctionLikeDeclaration, file: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name) return node.name.getText(file);
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name)
    return parent.name.getText(file);
  if (ts.isPropertyDeclaration(parent)) return parent.name.getText(file);
  if (ts.isCallExpression(parent)) return `<callback of ${parent.expression.getText(file).slice(0, 40)}>`;
  return '<anonymous>';
}

interface LongFunction {
  where: string;
  name: string;
  lines: number;
}

/** Every function in `text` whose body spans more than `max` lines. */
function longFunctions(path: string, text: string, max = MAX_BODY_LINES): LongFunction[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: LongFunction[] = [];
  const line = (pos: number) => file.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const fn = node as ts.FunctionLikeDeclaration;
      const body = fn.body!;
      const lines = line(body.getEnd()) - line(body.getStart(file)) + 1;
      if (lines > max) found.push({ where: `${path}:${line(fn.getStart(file))}`, name: functionName(fn, file), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('function length', () => {
  it('measures every kind of function by its body', () => {
    const body = (n: number) => Array.from({ length: n - 2 }, (_, i) => `  f(${i});`).join('\n');
    const src = [
      `function short() {\n${body(80)}\n}`,
      `function long() {\n${body(81)}\n}`,
      `const arrow = () => {\n${body(81)}\n};`,
      `const expr = function () {\n${body(81)}\n};`,
      `class C {\n  method() {\n${body(81)}\n  }\n  get value() {\n${body(81)}\n  }\n}`,
      `run(() => {\n${body(81)}\n});`,
    ].join('\n');
    expect(longFunctions('x.ts', src).map((f) => `${f.name} ${f.lines}`)).toEqual([
      'long 81',
      'arrow 81',
      'expr 81',
      'method 81',
      'value 81',
      '<callback of run> 81',
    ]);
  });

  it(`no function in ${SOURCE_DIRS.join(' or ')} has a body over ${MAX_BODY_LINES} lines`, () => {
    const files = SOURCE_DIRS.flatMap((d) => tsFiles(join(ROOT, d)));
    expect(files.length).toBeGreaterThan(50);
    const long = files.flatMap((f) => {
      const path = relative(ROOT, f);
      return longFunctions(path, readFileSync(f, 'utf8'));
    });
    expect(long.map((f) => `${f.where} ${f.name} (${f.lines} lines)`)).toEqual([]);
  });
});
