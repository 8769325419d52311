/**
 * Which paired comparison.json schema a checkout's harness reads: the PR-comment workflow reads a
 * pull request's artifact with the default branch's harness, so `pairs` writes at the version the
 * base's reader knows (pairs/comment/down-level.ts). Read from the base's source, never run: the
 * constant as each layout declares it (formats/comparison-format.ts now, model/comparison-version.ts
 * from schema 3, model/comparison.ts before), by its name's old spelling or the engine's (PAIRED_ or
 * PAIRS_): a base keeps the one it has.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const FILES = [
  'harness/src/formats/comparison-format.ts',
  'harness/src/model/comparison-version.ts',
  'harness/src/model/comparison.ts',
];
const DECLARATION = /^export const PAIR(?:ED|S)_COMPARISON_SCHEMA = (\d+);$/m;

/** The newest paired schema the harness of `root` reads, or undefined where it declares none. */
export function pairsSchemaReadBy(root: string): number | undefined {
  for (const f of FILES) {
    const file = join(root, f);
    if (!existsSync(file)) continue;
    const m = DECLARATION.exec(readFileSync(file, 'utf8'));
    if (m) return Number(m[1]);
  }
  return undefined;
}
