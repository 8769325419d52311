/**
 * What a program's source loads or names beyond its static imports, read from its syntax tree
 * (acorn), never by matching text: esbuild's import graph follows static imports and literal
 * `import()`/`require()`, and reports nothing for the rest (a computed `import(x)` is a debug
 * message, not a warning). So a load whose target is computed makes the identity unknown here,
 * a literal load esbuild does not follow (a Worker, `just.require('./x.js')`) is handed back to be
 * followed, and every string literal that could be a path is handed back too: a data file read by
 * a literal path counts. Pure: text in, findings out.
 */
import type { AnyNode, Expression, Node, SpreadElement, Super } from 'acorn';
import { parse } from 'acorn';
import { full } from 'acorn-walk';
import { transformSync } from 'esbuild';

export interface LoadScan {
  /** Loads whose target is computed at run time, each worded with its line: the identity is unknown. */
  unfollowable: string[];
  /** Literal loads esbuild does not follow, with what they resolve against. */
  loads: { spec: string; from: 'file' | 'cwd' }[];
  /** String literals that could name a file (a data file read by a literal path). */
  literals: string[];
}

type Operand = AnyNode | Expression | SpreadElement | Super | null | undefined;

/** A string known before the program runs: a string literal, or a template without expressions. */
function literalString(node: Operand): string | undefined {
  if (!node) return undefined;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0)
    return node.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

const isMetaUrl = (n: Operand) =>
  n?.type === 'MemberExpression' &&
  n.object.type === 'MetaProperty' &&
  n.property.type === 'Identifier' &&
  n.property.name === 'url';

/** `new URL('./w.js', import.meta.url)` (or its `.href`): the literal, relative to the file. */
function urlOfFile(node: Operand): string | undefined {
  let n = node;
  if (n?.type === 'MemberExpression' && n.property.type === 'Identifier' && n.property.name === 'href') n = n.object;
  if (n?.type !== 'NewExpression' || n.callee.type !== 'Identifier' || n.callee.name !== 'URL') return undefined;
  const [spec, base] = n.arguments;
  return isMetaUrl(base) ? literalString(spec) : undefined;
}

/** The name a call or `new` targets: `require`, `just.require` -> "require", `new Worker` -> "Worker". */
function calleeName(callee: Expression | Super): string | undefined {
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier')
    return callee.property.name;
  return undefined;
}

const plausiblePath = (s: string) => s.length > 0 && s.length <= 1024 && !/[\0\n]/.test(s) && /[./]/.test(s);

/** Parses JavaScript as a module, else as a script (CommonJS); TypeScript is stripped of types first. */
function syntaxTree(text: string, fileName: string): Node {
  const source = /\.[mc]?ts$/.test(fileName) ? transformSync(text, { loader: 'ts', sourcefile: fileName }).code : text;
  const options = {
    ecmaVersion: 'latest',
    locations: true,
    allowHashBang: true,
    allowReturnOutsideFunction: true,
    allowAwaitOutsideFunction: true,
  } as const;
  try {
    return parse(source, { ...options, sourceType: 'module' });
  } catch {
    return parse(source, { ...options, sourceType: 'script' });
  }
}

/** Scans one JavaScript or TypeScript file; throws when it cannot be parsed. */
export function scanJavaScript(text: string, fileName: string): LoadScan {
  const tree = syntaxTree(text, fileName);
  const out: LoadScan = { unfollowable: [], loads: [], literals: [] };
  const at = (n: Node) => `${fileName}:${n.loc?.start.line ?? '?'}`;
  const computed = (n: Node, what: string) => out.unfollowable.push(`${what} of a computed name at ${at(n)}`);
  full(tree, (node) => {
    const n = node as AnyNode;
    const text = literalString(n);
    if (text !== undefined && plausiblePath(text)) out.literals.push(text);
    if (n.type === 'ImportExpression') {
      // A literal import() is in esbuild's graph; a computed one is not.
      if (literalString(n.source) === undefined) computed(n, 'import()');
      return;
    }
    if (n.type !== 'CallExpression' && n.type !== 'NewExpression') return;
    const name = calleeName(n.callee);
    const [first] = n.arguments;
    if (name === 'createRequire') {
      out.unfollowable.push(`createRequire at ${at(n)} makes a require the import graph does not follow`);
    } else if (name === 'dlopen') {
      out.unfollowable.push(`a native addon loaded with dlopen at ${at(n)}`);
    } else if (name === 'require' || name === 'importScripts') {
      // require('./x') and just.require('./x'): a literal is handed back to be followed (esbuild
      // follows only some of these calls); anything else is computed.
      const spec = literalString(first);
      if (spec === undefined) computed(n, `${name}()`);
      else out.loads.push({ spec, from: 'file' });
    } else if (n.type === 'NewExpression' && (name === 'Worker' || name === 'SharedWorker')) {
      const spec = literalString(first);
      const url = urlOfFile(first);
      // A Worker's string path resolves against the working directory (Node), a URL against the file.
      if (spec !== undefined) out.loads.push({ spec, from: 'cwd' }, { spec, from: 'file' });
      else if (url !== undefined) out.loads.push({ spec: url, from: 'file' });
      else computed(n, `new ${name}()`);
    }
  });
  return out;
}

/**
 * String literals of a C source (comments dropped): a file it opens by a literal path, or one an
 * `.incbin` directive embeds, counts. The includes are gcc's own business (`-M`).
 */
export function scanCLiterals(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, ' ');
  const out: string[] = [];
  const strings = (t: string) => [...t.matchAll(/"((?:[^"\\\n]|\\.)*)"/g)].map((m) => m[1]!.replace(/\\(.)/g, '$1'));
  for (const s of strings(code)) {
    if (plausiblePath(s)) out.push(s);
    // An assembler directive inside a string literal: `asm(".incbin \"blob.bin\"")`.
    for (const inner of s.includes('"') ? strings(s) : []) if (plausiblePath(inner)) out.push(inner);
  }
  return out;
}
