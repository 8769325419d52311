// The threadpool and scan manifests load (schema and cross-checks), and the cross-checks that
// guard the new fields reject misuse with the field named.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExperiment, parseManifest } from '../../src/plan/experiments.js';
import { ROOT } from '../helpers/cli.js';

const dir = (id: string) => join(ROOT, 'programs', id);

describe('threadpool and scan manifests', () => {
  it('load', () => {
    expect(loadExperiment(dir('threadpool')).manifest.runner).toBe('self');
    expect(loadExperiment(dir('scan')).manifest.variants.map((v) => v.id)).toEqual([
      'node-sync',
      'node-async',
      'node-eventloop',
      'just-sync',
      'c-blocking',
      'c-eventloop',
    ]);
  });

  it('refuse samples fields without runner self, and unknown parameters in check.when and ratio.at', () => {
    const raw = JSON.parse(readFileSync(join(dir('threadpool'), 'manifest.json'), 'utf8'));
    const bad = {
      ...raw,
      runner: 'hyperfine',
      validate: [{ field: 'files', equals: 'copies', when: { nope: 1 } }],
      summary: { ...raw.summary, ratios: [{ metric: 'x', at: { poo: 4 } }] },
    };
    const msg = (() => {
      try {
        parseManifest('threadpool/manifest.json', dir('threadpool'), JSON.stringify(bad));
      } catch (e) {
        return (e as Error).message;
      }
      return '';
    })();
    expect(msg).toContain('reports.latency.samples: needs "runner": "self"');
    expect(msg).toContain('validate.0.when: unknown parameter (got "nope")');
    expect(msg).toContain('summary.ratios.at: unknown parameter (got "poo")');
  });
});
