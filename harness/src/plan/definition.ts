/**
 * A benchmark's definition hash: what it measures, so history is never compared across a
 * change without saying so. Covers the variant's manifest entry, the parts of the manifest that
 * shape the point (input, generator, validation, derived values), the program's source and the
 * generator's source. Profile settings (runs, warmups) are excluded: they change precision, not
 * meaning.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Variant } from '../model/manifest.js';
import type { Experiment } from './experiments.js';

const memo = new Map<string, string>();

function fileText(path: string): string {
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

export function definitionHash(exp: Experiment, variant: Variant): string {
  const key = `${exp.dir}|${variant.id}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const m = exp.manifest;
  const h = createHash('sha256');
  h.update(
    JSON.stringify({
      variant,
      input: m.input ?? null,
      generate: m.generate ?? null,
      derive: m.derive,
      validate: m.validate,
      evict: m.evict ?? null,
      ...(m.runner !== 'hyperfine' ? { runner: m.runner } : {}),
    }),
  );
  if (variant.source) h.update(fileText(join(exp.dir, variant.source)));
  if (variant.build?.kind === 'just-static') h.update(fileText(join(exp.dir, variant.build.config)));
  if (m.generate) h.update(fileText(join(exp.dir, m.generate.script)));
  for (const f of m.shared) h.update(fileText(join(exp.dir, f)));
  const hash = h.digest('hex').slice(0, 12);
  memo.set(key, hash);
  return hash;
}
