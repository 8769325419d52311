import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseManifest } from '../../src/plan/experiments.js';

/**
 * Parses a copy of `base` changed by `mutate`, in a temporary experiment folder holding the
 * given (empty) program files. Returns 'valid' or the error thrown.
 */
export function parseMutated(base: object, mutate: (m: any) => void, files: readonly string[] = []): 'valid' | Error {
  const dir = mkdtempSync(join(tmpdir(), 'jsio-manifest-'));
  for (const f of files) writeFileSync(join(dir, f), f.endsWith('.c') ? 'int main(void){return 0;}' : '');
  const m = structuredClone(base) as any;
  mutate(m);
  try {
    parseManifest(join(dir, 'manifest.json'), dir, JSON.stringify(m));
    return 'valid';
  } catch (e) {
    return e as Error;
  }
}
