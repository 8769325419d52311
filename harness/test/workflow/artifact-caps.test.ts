// comparison.json from a PR artifact took plain records for `toolchains` and `params`:
// `toolchains.constructor` rendered a function's source into the comment. Its keys now refuse
// Object.prototype's names as results.json's do, its numbers are bounded (1.7e308 drew NaN
// charts), and its caps still leave room for a whole diff of ~400 points.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commentFromArtifact } from '../../src/workflow/artifact.js';
import { pairsComparison, pairsPoint } from '../helpers/pairs.js';

function artifact(comparison: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'jsio-art-caps-'));
  writeFileSync(join(dir, 'comparison.json'), typeof comparison === 'string' ? comparison : JSON.stringify(comparison));
  writeFileSync(join(dir, 'pr-number'), '42');
  return dir;
}
const PROTO = /Object\.prototype property/;

describe('comparison.json from an artifact', () => {
  it.each(['constructor', 'toString', 'valueOf'])('refuses the toolchain name %s', (name) => {
    const c = pairsComparison();
    c.head.toolchains = { [name]: 'x' };
    expect(() => commentFromArtifact(artifact(c), '42')).toThrow(`head.toolchains.${name}: Invalid key`);
  });

  it('refuses __proto__ as a toolchain or a parameter name', () => {
    const text = JSON.stringify(pairsComparison()).replace('"toolchains":{}', '"toolchains":{"__proto__":"x"}');
    expect(() => commentFromArtifact(artifact(text), '42')).toThrow(PROTO);
    const p = pairsPoint();
    const withParam = JSON.stringify({ ...pairsComparison(), points: [p] }).replace(
      '"params":{',
      '"params":{"__proto__":1,',
    );
    expect(() => commentFromArtifact(artifact(withParam), '42')).toThrow(PROTO);
  });

  it('refuses the parameter name constructor', () => {
    const p = pairsPoint();
    p.params = { constructor: 1 };
    expect(() => commentFromArtifact(artifact({ ...pairsComparison(), points: [p] }), '42')).toThrow(
      'points.0.params.constructor: Invalid key',
    );
  });

  it('refuses a number no measurement reaches', () => {
    const p = pairsPoint();
    p.lead.ratio = 1.7e308;
    expect(() => commentFromArtifact(artifact({ ...pairsComparison(), points: [p] }), '42')).toThrow(
      /points\.0\.lead\.ratio/,
    );
  });

  it('refuses a 5,000-character toolchain version', () => {
    const c = pairsComparison();
    c.head.toolchains = { gcc: 'x'.repeat(5000) };
    expect(() => commentFromArtifact(artifact(c), '42')).toThrow(/head\.toolchains\.gcc/);
  });

  it('accepts a diff of 400 points, each with its lists', () => {
    const c = pairsComparison();
    c.points = Array.from({ length: 400 }, () => pairsPoint());
    c.notMeasured = Array.from({ length: 400 }, () => ({
      benchmark: 'wc/c/bs=1',
      side: 'head' as const,
      status: 'skipped' as const,
      reason: 'r',
    }));
    expect(() => commentFromArtifact(artifact(c), '42')).not.toThrow();
  });
});
