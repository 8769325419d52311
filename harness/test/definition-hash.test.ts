// A benchmark's definition hash changes when its program or a file its programs share changes,
// and not when only the profile's precision settings do.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { definitionHash } from '../src/plan/definition.js';
import { loadExperiment } from '../src/plan/experiments.js';
import { ROOT } from './helpers/cli.js';

function copyOf(experiment: string, edit: (dir: string) => void): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'jsio-def-')), experiment);
  cpSync(join(ROOT, 'programs', experiment), dir, { recursive: true });
  edit(dir);
  const exp = loadExperiment(dir);
  return definitionHash(exp, exp.manifest.variants[0]!);
}

describe('definitionHash', () => {
  const base = copyOf('threadpool', () => {});

  it('changes when a shared helper changes', () => {
    expect(
      copyOf('threadpool', (d) =>
        writeFileSync(
          join(d, 'threadpool-common.js'),
          `${readFileSync(join(d, 'threadpool-common.js'), 'utf8')}\n// edited\n`,
        ),
      ),
    ).not.toBe(base);
  });

  it('stays when only the number of runs changes', () => {
    const same = copyOf('threadpool', (d) => {
      const m = JSON.parse(readFileSync(join(d, 'manifest.json'), 'utf8'));
      m.profiles.quick.runs += 1;
      writeFileSync(join(d, 'manifest.json'), JSON.stringify(m));
    });
    expect(same).toBe(base);
  });
});
