// Experiments on disk: every folder under programs/ with a manifest.json is one, named by the
// folder; a broken one stops loading with its absolute path, the field and the value.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/lib/errors.js';
import { loadAllExperiments, loadExperiment } from '../../src/plan/experiments.js';

const manifest = (variantId = 'c') => ({
  schema: 1,
  title: 't',
  question: 'q',
  parameters: { bs: { description: 'block', values: { smoke: [1], quick: [1], standard: [1], full: [1] } } },
  profiles: Object.fromEntries(['smoke', 'quick', 'standard', 'full'].map((p) => [p, { runs: 1, warmup: 0 }])),
  variants: [
    { id: variantId, description: 'd', runtime: 'system', command: 'wc -c', output: 'number', numberField: 'bytes' },
  ],
  headline: { at: { bs: 1 }, metrics: ['throughput'] },
});

function programs(folders: Record<string, string | undefined>): string {
  const root = mkdtempSync(join(tmpdir(), 'jsio-programs-'));
  for (const [name, text] of Object.entries(folders)) {
    mkdirSync(join(root, name));
    if (text !== undefined) writeFileSync(join(root, name, 'manifest.json'), text);
  }
  writeFileSync(join(root, 'README.md'), 'not an experiment');
  return root;
}

const errorOf = (f: () => unknown): Error => {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
};

describe('loading experiments from disk', () => {
  it('takes each folder with a manifest.json, sorted, named by the folder; ignores the rest', () => {
    const root = programs({
      zeta: JSON.stringify(manifest()),
      alpha: JSON.stringify(manifest('wc')),
      notes: undefined,
    });
    const exps = loadAllExperiments(root);
    expect(exps.map((e) => [e.id, e.dir, e.manifestPath])).toEqual([
      ['alpha', join(root, 'alpha'), join(root, 'alpha', 'manifest.json')],
      ['zeta', join(root, 'zeta'), join(root, 'zeta', 'manifest.json')],
    ]);
    expect(exps[0]?.manifest.variants[0]?.id).toBe('wc');
    // Defaults filled in by the schema.
    expect(exps[0]?.manifest.profiles.smoke.timeout).toBe(120);
    expect(exps[0]?.manifest.runner).toBe('hyperfine');
  });

  it('names the absolute path of a manifest that is not JSON', () => {
    const root = programs({ good: JSON.stringify(manifest()), broken: '{ "schema": 1,' });
    const err = errorOf(() => loadAllExperiments(root));
    expect(err).toBeInstanceOf(UserError);
    expect(err.message).toMatch(
      new RegExp(
        `^${join(root, 'broken', 'manifest.json').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not valid JSON \\(truncated or corrupt\\?\\): `,
      ),
    );
  });

  it('names the file, the field path and the bad value of an invalid manifest', () => {
    const bad = manifest() as Record<string, unknown> & { profiles: Record<string, { runs: unknown }> };
    bad.profiles.standard!.runs = 'ten';
    const root = programs({ exp: JSON.stringify(bad) });
    const err = errorOf(() => loadExperiment(join(root, 'exp')));
    expect(err).toBeInstanceOf(UserError);
    expect(err.message).toBe(
      `${join(root, 'exp', 'manifest.json')} is invalid:\n  profiles.standard.runs: Invalid input: expected number, received string (got "ten")`,
    );
  });

  it('lists every problem of a manifest at once', () => {
    const bad = manifest() as Record<string, any>;
    bad.schema = 2;
    bad.variants[0].runtime = 'python';
    const err = errorOf(() => loadExperiment(join(programs({ exp: JSON.stringify(bad) }), 'exp')));
    expect(err.message).toMatch(/\n {2}schema: .*\(got 2\)/);
    expect(err.message).toMatch(/\n {2}variants\.0\.runtime: .*\(got "python"\)/);
  });

  it('refuses a folder without a manifest, saying what it needs', () => {
    const root = programs({ empty: undefined });
    expect(() => loadExperiment(join(root, 'empty'))).toThrow(
      `${join(root, 'empty', 'manifest.json')} not found: every experiment folder needs a manifest.json`,
    );
  });
});
