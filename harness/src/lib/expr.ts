/**
 * A tiny arithmetic language for manifests: numbers, names, + - * / %, parentheses and
 * the functions min, max, floor, ceil, round, log2, pow. Manifests stay declarative data
 * (no eval); derived values like "count = floor(bytes / bs)" are written as strings.
 */
import { UserError } from './errors.js';

export type Scope = Readonly<Record<string, number | string | undefined>>;

const FUNCTIONS: Record<string, (...a: number[]) => number> = {
  min: Math.min,
  max: Math.max,
  floor: Math.floor,
  ceil: Math.ceil,
  round: Math.round,
  log2: Math.log2,
  pow: Math.pow,
};

type Token = { kind: 'num'; value: number } | { kind: 'name'; value: string } | { kind: 'op'; value: string };

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  const re = /\s*(?:(\d+(?:\.\d+)?(?:e[+-]?\d+)?)|([A-Za-z_][A-Za-z0-9_.]*)|([-+*/%(),]))/gy;
  let pos = 0;
  while (pos < src.length) {
    re.lastIndex = pos;
    const m = re.exec(src);
    if (!m) {
      if (/^\s*$/.test(src.slice(pos))) break;
      throw new Error(`unexpected character at ${pos}: "${src.slice(pos, pos + 10)}"`);
    }
    pos = re.lastIndex;
    if (m[1] !== undefined) tokens.push({ kind: 'num', value: Number(m[1]) });
    else if (m[2] !== undefined) tokens.push({ kind: 'name', value: m[2] });
    else if (m[3] !== undefined) tokens.push({ kind: 'op', value: m[3] });
  }
  return tokens;
}

/** Names an expression refers to (excluding function names). */
export function referencedNames(src: string): string[] {
  const toks = tokenize(src);
  return toks
    .filter((t, i) => t.kind === 'name' && !(toks[i + 1]?.kind === 'op' && toks[i + 1]?.value === '('))
    .map((t) => String(t.value));
}

export function evaluate(src: string, scope: Scope): number {
  let tokens: Token[];
  try {
    tokens = tokenize(src);
  } catch (e) {
    throw new UserError(`expression "${src}": ${(e as Error).message}`);
  }
  let i = 0;
  const peek = () => tokens[i];
  const fail = (msg: string): never => {
    throw new UserError(`expression "${src}": ${msg}`);
  };
  const expectOp = (op: string) => {
    const t = tokens[i++];
    if (t?.kind !== 'op' || t.value !== op) fail(`expected "${op}"`);
  };
  function primary(): number {
    const t = tokens[i++];
    if (!t) return fail('unexpected end');
    if (t.kind === 'num') return t.value;
    if (t.kind === 'op' && t.value === '(') {
      const v = sum();
      expectOp(')');
      return v;
    }
    if (t.kind === 'op' && t.value === '-') return -primary();
    if (t.kind === 'name') {
      const next = peek();
      if (next?.kind === 'op' && next.value === '(') {
        const fn = FUNCTIONS[t.value] ?? fail(`unknown function "${t.value}"`);
        i++;
        const args: number[] = [];
        if (!(peek()?.kind === 'op' && peek()?.value === ')')) {
          args.push(sum());
          while (peek()?.kind === 'op' && peek()?.value === ',') {
            i++;
            args.push(sum());
          }
        }
        expectOp(')');
        return fn(...args);
      }
      const v = scope[t.value];
      if (v === undefined) return fail(`unknown name "${t.value}" (known: ${Object.keys(scope).sort().join(', ')})`);
      const n = typeof v === 'number' ? v : Number(v);
      if (!Number.isFinite(n)) return fail(`"${t.value}" is not a number (${String(v)})`);
      return n;
    }
    return fail(`unexpected "${String(t.value)}"`);
  }
  function product(): number {
    let v = primary();
    for (;;) {
      const t = peek();
      if (t?.kind !== 'op' || !['*', '/', '%'].includes(t.value)) return v;
      i++;
      const r = primary();
      v = t.value === '*' ? v * r : t.value === '/' ? v / r : v % r;
    }
  }
  function sum(): number {
    let v = product();
    for (;;) {
      const t = peek();
      if (t?.kind !== 'op' || (t.value !== '+' && t.value !== '-')) return v;
      i++;
      const r = product();
      v = t.value === '+' ? v + r : v - r;
    }
  }
  const value = sum();
  if (i < tokens.length) fail(`unexpected "${String(tokens[i]?.value)}"`);
  return value;
}

/** A "{name}" placeholder of a command template: the one definition the checks and the filling share. */
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_.]*)\}/g;

/** The names a command template's placeholders ask for, in order. */
export const templatePlaceholders = (template: string): string[] =>
  [...template.matchAll(PLACEHOLDER)].map((m) => m[1] as string);

/**
 * Fills "{name}" placeholders in a command template. Values are shell-quoted by the caller's
 * quote function so paths with spaces survive. An unknown name is refused, or with `keepUnknown`
 * left as its placeholder (for a command shown but never run).
 */
export function fillTemplate(
  template: string,
  scope: Scope,
  quote: (s: string, name: string) => string,
  { keepUnknown = false } = {},
): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    const v = scope[name];
    if (v === undefined) {
      if (keepUnknown) return whole;
      throw new UserError(
        `command template "${template}": unknown placeholder {${name}} (known: ${Object.keys(scope).sort().join(', ')})`,
      );
    }
    return quote(String(v), name);
  });
}
