/**
 * GitHub Actions' expression language, enough of it to evaluate this repository's workflows in
 * tests: literals, property paths (a.b, a['b'], the a.*.b filter), ! == != < <= > >= && ||,
 * parentheses, and the functions contains, startsWith, endsWith, format, join, toJSON, fromJSON,
 * hashFiles (through the context), success, failure, cancelled, always. Comparison follows
 * GitHub's rules: strings compare case-insensitively, other mixed types are compared as numbers;
 * && and || return an operand, as in GitHub.
 */

export type Value = unknown;
export interface ExprContext {
  [context: string]: Value;
}
interface Status {
  success: boolean;
  failure: boolean;
  cancelled: boolean;
}
export interface EvalOptions {
  status?: Status;
  hashFiles?: (patterns: string[]) => string;
}

type Tok = { t: 'num'; v: number } | { t: 'str'; v: string } | { t: 'id'; v: string } | { t: 'op'; v: string };

function tokenize(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "'") {
      let s = '';
      i++;
      for (;;) {
        if (i >= src.length) throw new Error(`unterminated string in: ${src}`);
        if (src[i] === "'") {
          if (src[i + 1] === "'") {
            s += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        s += src[i++];
      }
      out.push({ t: 'str', v: s });
      continue;
    }
    const two = src.slice(i, i + 2);
    if (['==', '!=', '<=', '>=', '&&', '||'].includes(two)) {
      out.push({ t: 'op', v: two });
      i += 2;
      continue;
    }
    if ('!<>()[],.*'.includes(c)) {
      out.push({ t: 'op', v: c });
      i++;
      continue;
    }
    const num = /^(0x[0-9a-fA-F]+|-?\d+(\.\d+)?([eE][+-]?\d+)?)/.exec(src.slice(i));
    if (num && !(out.length && out[out.length - 1]!.t === 'op' && out[out.length - 1]!.v === '.')) {
      out.push({ t: 'num', v: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(src.slice(i));
    if (id) {
      out.push({ t: 'id', v: id[0] });
      i += id[0].length;
      continue;
    }
    throw new Error(`unexpected ${JSON.stringify(c)} in: ${src}`);
  }
  return out;
}

const FILTER = Symbol('filter');
type Filtered = { [FILTER]: Value[] };
const isFiltered = (v: Value): v is Filtered => typeof v === 'object' && v !== null && FILTER in v;
const unwrap = (v: Value): Value => (isFiltered(v) ? v[FILTER] : v);

function toNumber(v: Value): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return v.trim() === '' ? 0 : Number(v);
  return Number.NaN;
}

export function truthy(v: Value): boolean {
  v = unwrap(v);
  if (v === null || v === undefined || v === false || v === '') return false;
  if (typeof v === 'number') return v !== 0 && !Number.isNaN(v);
  return true;
}

function looseEquals(a: Value, b: Value): boolean {
  a = unwrap(a) ?? null;
  b = unwrap(b) ?? null;
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  if (typeof a === typeof b && typeof a !== 'object') return a === b;
  if (a === null && b === null) return true;
  if (typeof a === 'object' || typeof b === 'object') return a === b;
  return toNumber(a) === toNumber(b);
}

function compare(a: Value, b: Value): number {
  a = unwrap(a);
  b = unwrap(b);
  if (typeof a === 'string' && typeof b === 'string')
    return a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0;
  const x = toNumber(a);
  const y = toNumber(b);
  return Number.isNaN(x) || Number.isNaN(y) ? Number.NaN : x - y;
}

export function toText(v: Value): string {
  v = unwrap(v);
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean' || typeof v === 'number') return String(v);
  return JSON.stringify(v, null, 2);
}

function property(obj: Value, key: string): Value {
  if (isFiltered(obj)) {
    const out: Value[] = [];
    for (const item of obj[FILTER]) {
      const v = property(item, key);
      if (v !== undefined && v !== null) out.push(v);
    }
    return { [FILTER]: out };
  }
  if (obj === null || typeof obj !== 'object') return null;
  const rec = obj as Record<string, Value>;
  // Context and property names are case-insensitive.
  if (key in rec) return rec[key];
  const k = Object.keys(rec).find((x) => x.toLowerCase() === key.toLowerCase());
  return k === undefined ? null : rec[k];
}

export function evaluate(src: string, ctx: ExprContext, opts: EvalOptions = {}): Value {
  const toks = tokenize(src);
  let p = 0;
  const peek = () => toks[p];
  const isOp = (v: string) => peek()?.t === 'op' && peek()!.v === v;
  const expectOp = (v: string) => {
    if (!isOp(v)) throw new Error(`expected ${v} at token ${p} in: ${src}`);
    p++;
  };
  const status = opts.status ?? { success: true, failure: false, cancelled: false };

  const call = (name: string, args: Value[]): Value => {
    const n = name.toLowerCase();
    const s = (i: number) => toText(args[i]);
    switch (n) {
      case 'contains': {
        const hay = unwrap(args[0]);
        if (Array.isArray(hay)) return hay.some((x) => looseEquals(x, args[1]));
        return s(0).toLowerCase().includes(s(1).toLowerCase());
      }
      case 'startswith':
        return s(0).toLowerCase().startsWith(s(1).toLowerCase());
      case 'endswith':
        return s(0).toLowerCase().endsWith(s(1).toLowerCase());
      case 'format':
        return s(0)
          .replace(/\{(\d+)\}/g, (_m, i: string) => toText(args[Number(i) + 1]))
          .replace(/\{\{/g, '{')
          .replace(/\}\}/g, '}');
      case 'join': {
        const a = unwrap(args[0]);
        return Array.isArray(a) ? a.map(toText).join(args.length > 1 ? s(1) : ',') : toText(a);
      }
      case 'tojson':
        return JSON.stringify(unwrap(args[0]), null, 2);
      case 'fromjson':
        return JSON.parse(s(0)) as Value;
      case 'hashfiles':
        if (!opts.hashFiles) throw new Error('hashFiles needs opts.hashFiles');
        return opts.hashFiles(args.map(toText));
      case 'success':
        return status.success && !status.cancelled;
      case 'failure':
        return status.failure;
      case 'cancelled':
        return status.cancelled;
      case 'always':
        return true;
      default:
        throw new Error(`unknown function ${name} in: ${src}`);
    }
  };

  const primary = (): Value => {
    const t = peek();
    if (!t) throw new Error(`unexpected end of: ${src}`);
    p++;
    if (t.t === 'num' || t.t === 'str') return t.v;
    if (t.t === 'op' && t.v === '(') {
      const v = or();
      expectOp(')');
      return v;
    }
    if (t.t === 'id') {
      if (t.v === 'true') return true;
      if (t.v === 'false') return false;
      if (t.v === 'null') return null;
      if (isOp('(')) {
        p++;
        const args: Value[] = [];
        if (!isOp(')')) {
          args.push(or());
          while (isOp(',')) {
            p++;
            args.push(or());
          }
        }
        expectOp(')');
        return call(t.v, args);
      }
      return property(ctx, t.v);
    }
    throw new Error(`unexpected ${JSON.stringify(t.v)} in: ${src}`);
  };
  const postfix = (): Value => {
    let v = primary();
    for (;;) {
      if (isOp('.')) {
        p++;
        const t = peek();
        p++;
        if (t?.t === 'op' && t.v === '*') {
          const base = unwrap(v);
          v = { [FILTER]: Array.isArray(base) ? base : base && typeof base === 'object' ? Object.values(base) : [] };
        } else if (t?.t === 'id' || t?.t === 'num') v = property(v, String(t.v));
        else throw new Error(`bad property access in: ${src}`);
      } else if (isOp('[')) {
        p++;
        const k = or();
        expectOp(']');
        v = property(v, toText(k));
      } else return v;
    }
  };
  const unary = (): Value => {
    if (isOp('!')) {
      p++;
      return !truthy(unary());
    }
    return postfix();
  };
  const relational = (): Value => {
    let v = unary();
    while (['<', '<=', '>', '>='].some((o) => isOp(o))) {
      const op = (toks[p++] as { v: string }).v;
      const c = compare(v, unary());
      v = op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
    }
    return v;
  };
  const equality = (): Value => {
    let v = relational();
    while (isOp('==') || isOp('!=')) {
      const op = (toks[p++] as { v: string }).v;
      const eq = looseEquals(v, relational());
      v = op === '==' ? eq : !eq;
    }
    return v;
  };
  const and = (): Value => {
    let v = equality();
    while (isOp('&&')) {
      p++;
      const r = equality();
      v = truthy(v) ? r : v;
    }
    return v;
  };
  function or(): Value {
    let v = and();
    while (isOp('||')) {
      p++;
      const r = and();
      v = truthy(v) ? v : r;
    }
    return v;
  }
  const v = or();
  if (p !== toks.length) throw new Error(`unexpected ${JSON.stringify(toks[p]?.v)} in: ${src}`);
  return unwrap(v);
}

/** A job's or step's `if:` as GitHub runs it: `${{ }}` optional, success() implied. */
export function evaluateIf(cond: string | boolean | undefined, ctx: ExprContext, opts: EvalOptions = {}): boolean {
  if (cond === undefined) return evaluateIf('success()', ctx, opts);
  if (typeof cond === 'boolean') return cond && (opts.status?.success ?? true);
  let src = cond.trim();
  const m = /^\$\{\{([\s\S]*)\}\}$/.exec(src);
  if (m) src = m[1]!.trim();
  if (!/\b(success|failure|cancelled|always)\s*\(/i.test(src)) src = `success() && (${src})`;
  return truthy(evaluate(src, ctx, opts));
}

/** A string with `${{ }}` parts substituted (a with:, env: or run: value). */
export function interpolate(text: string, ctx: ExprContext, opts: EvalOptions = {}): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_m, e: string) => toText(evaluate(e, ctx, opts)));
}
