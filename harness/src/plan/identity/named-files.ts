/**
 * Paths a manifest entry names in its words: a variant's command, the input pipe, build flags and
 * libraries. Every token — and what a flag carries after its letter, an `=` or a `,`, and a
 * response file after `@` — is a candidate path resolved against the folder its process runs in;
 * the caller keeps the candidates that exist inside the checkout. Over-naming only makes more
 * points affected, never fewer. Pure.
 */
import { isAbsolute, resolve } from 'node:path';
import { parse } from 'shell-quote';

/** The words of a shell command (operators and placeholders' braces left out). */
export function commandWords(command: string): string[] {
  return parse(command).filter((w): w is string => typeof w === 'string');
}

/** What one token could name as a path: itself and the pieces a compiler or a shell would take as one. */
function tokenCandidates(token: string): string[] {
  if (!token || token.includes('{')) return [];
  const out = new Set<string>([token]);
  if (token.startsWith('@')) out.add(token.slice(1));
  // -Idir, -Ldir, -Tscript.ld, -include's neighbour is a token of its own.
  if (/^-[A-Za-z]./.test(token)) out.add(token.slice(2));
  for (const piece of token.split(/[=,]/).slice(1)) out.add(piece);
  return [...out].filter((p) => p.length > 0 && p.length <= 1024 && !p.startsWith('-'));
}

/** Absolute candidates of a list of tokens, resolved against `cwd`. */
export function candidatePaths(tokens: readonly string[], cwd: string): string[] {
  const out = new Set<string>();
  for (const t of tokens) for (const c of tokenCandidates(t)) out.add(isAbsolute(c) ? c : resolve(cwd, c));
  return [...out];
}

/** Flags whose directory gcc searches for headers: the files it uses there come from `gcc -M`. */
export const INCLUDE_DIR_FLAG = /^-(I|iquote|isystem|idirafter|iprefix|iwithprefix)/;
