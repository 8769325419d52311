// The workload hash changes with what the program is asked to do (derived sizes, input,
// placement), never with the program, nor with runs and warm-ups. (The program's side, the
// measured-input identity, is tested in pairs/decide/impact.test.ts.)
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workloadHash } from '../../src/plan/definition.js';
import { loadExperiment } from '../../src/plan/experiments.js';
import { expand } from '../../src/plan/plan.js';
import { ROOT } from '../helpers/cli.js';
import { jobOf } from '../helpers/jobs.js';

function copyOf(experiment: string, edit: (dir: string) => void) {
  const dir = join(mkdtempSync(join(tmpdir(), 'jsio-def-')), experiment);
  cpSync(join(ROOT, 'programs', experiment), dir, { recursive: true });
  edit(dir);
  return loadExperiment(dir);
}
const editManifest = (d: string, f: (m: any) => void) => {
  const m = JSON.parse(readFileSync(join(d, 'manifest.json'), 'utf8'));
  f(m);
  writeFileSync(join(d, 'manifest.json'), JSON.stringify(m));
};
describe('workloadHash', () => {
  const wc = loadExperiment(join(ROOT, 'programs', 'wc'));
  const job = (profile: 'smoke' | 'quick', exp = wc) =>
    jobOf(expand([exp], profile, { variants: ['c'], params: { bs: [65536] } })[0]!);

  it('differs between profiles that send different amounts of data', () => {
    expect(job('smoke').workload).not.toBe(job('quick').workload);
  });

  it('stays when only runs, warm-ups or timeouts change', () => {
    const more = copyOf('wc', (d) =>
      editManifest(d, (m) => {
        m.profiles.smoke.runs = 9;
        m.profiles.smoke.warmup = 3;
        m.profiles.smoke.timeout = 7;
      }),
    );
    const a = job('smoke');
    const b = job('smoke', more);
    expect(workloadHash(more, b.params, b.derived, b.placement)).toBe(
      workloadHash(wc, a.params, a.derived, a.placement),
    );
  });

  it('changes with the placement, and ignores which runtime ran', () => {
    const a = job('smoke');
    expect(workloadHash(wc, a.params, a.derived, 'shared')).not.toBe(workloadHash(wc, a.params, a.derived, 'split'));
    expect(workloadHash(wc, { ...a.params, runtime: 'bun' }, a.derived, 'split')).toBe(
      workloadHash(wc, { ...a.params, runtime: 'node22' }, a.derived, 'split'),
    );
  });
});
