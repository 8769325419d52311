// `npm run compare` as a user runs it: rounds given as results files or as the run directories
// that hold them; both outputs written, the JSON valid against the schema pr-comment enforces.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Comparison } from '../../src/formats/quick-look-format.js';
import { runCli } from '../helpers/cli.js';
import { bench, results, timed, wcResults } from '../helpers/results.js';

describe('npm run compare', () => {
  it('accepts run directories and results files, and writes comparison.md and a valid comparison.json', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-cmp-'));
    for (const [name, c] of [
      ['base-1', 'a'],
      ['base-2', 'a'],
      ['head-1', 'b'],
    ] as const) {
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, 'results.json'), JSON.stringify(wcResults(c.repeat(40))));
    }
    const out = join(dir, 'out');
    const r = runCli([
      'compare',
      '--base',
      join(dir, 'base-1'),
      join(dir, 'base-2', 'results.json'),
      '--head',
      join(dir, 'head-1'),
      '--out',
      out,
    ]);
    expect(r.stderr).not.toMatch(/error/);
    expect(r.status).toBe(0);
    const c = Comparison.parse(JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8')));
    expect([c.base.runs, c.head.runs]).toEqual([2, 1]);
    expect(readFileSync(join(out, 'comparison.md'), 'utf8')).toMatch(/^## Performance: /);
  });

  describe('with --noise', () => {
    // Head is 10% slower in every sample: significant at the default 2% minimum effect.
    const dir = mkdtempSync(join(tmpdir(), 'jsio-noise-'));
    const run = (name: string, scale: number) => {
      const file = join(dir, `${name}.json`);
      writeFileSync(
        file,
        JSON.stringify(
          results([bench('c', { bs: 1 }, { wall_time: timed([1, 1.01, 0.99, 1.02, 0.98].map((t) => t * scale)) })]),
        ),
      );
      return file;
    };
    const [base, head] = [run('base', 1), run('head', 1.1)];
    const noiseFile = (machine: string, threshold: number | string) => {
      const file = join(dir, `noise-${machine}-${threshold}.json`);
      writeFileSync(
        file,
        JSON.stringify({
          schema: 1,
          machine,
          created: '2026-11-20T10:00:00Z',
          rounds: 6,
          thresholds: { 'wc/c/bs=1 wall_time': threshold },
        }),
      );
      return file;
    };
    const compare = (...extra: string[]) => {
      const out = mkdtempSync(join(dir, 'out-'));
      const r = runCli(['compare', '--base', base, '--head', head, '--out', out, ...extra]);
      return {
        r,
        c:
          r.status === 0 ? Comparison.parse(JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8'))) : undefined,
      };
    };

    it('without it, the 10% slowdown is called', () => {
      expect(compare().c?.metrics[0]?.verdict).toBe('slower');
    });

    it('uses this machine’s calibrated threshold and says so', () => {
      const { c } = compare('--noise', noiseFile('test-machine', 0.25));
      expect(c?.metrics[0]?.verdict).toBe('unchanged');
      expect(c?.method).toContain('noise thresholds calibrated on this machine 2026-11-20 (6 rounds)');
    });

    it('ignores another machine’s thresholds, with a warning', () => {
      const { c } = compare('--noise', noiseFile('other-machine', 0.25));
      expect(c?.metrics[0]?.verdict).toBe('slower');
      expect(c?.warnings?.join()).toContain('calibrated on other-machine, not on test-machine, so they were not used');
    });

    it('finds this machine’s thresholds in a store, and says when there are none', () => {
      const store = mkdtempSync(join(dir, 'store-'));
      const none = compare('--noise-store', store);
      expect(none.c?.metrics[0]?.verdict).toBe('slower');
      expect(none.c?.method).toContain('no calibration for this machine yet, so the 2% minimum effect applies');
      mkdirSync(join(store, 'test-machine'));
      writeFileSync(join(store, 'test-machine', 'noise.json'), readFileSync(noiseFile('test-machine', 0.25)));
      expect(compare('--noise-store', store).c?.metrics[0]?.verdict).toBe('unchanged');
      expect(compare('--noise-store', store, '--noise', noiseFile('test-machine', 0.25)).r.stderr).toContain(
        'give --noise FILE or --noise-store DIR, not both',
      );
    });

    it('refuses a malformed or missing noise file, naming it and the field', () => {
      const bad = compare('--noise', noiseFile('test-machine', 'big'));
      expect(bad.r.status).toBe(2);
      expect(bad.r.stderr).toMatch(/noise-test-machine-big\.json is invalid:[\s\S]*thresholds\.wc\/c\/bs=1 wall_time/);
      const missing = compare('--noise', join(dir, 'nope.json'));
      expect(missing.r.stderr).toContain(`cannot read ${join(dir, 'nope.json')}: it does not exist`);
    });
  });

  it('names a missing input', () => {
    const r = runCli(['compare', '--base', '/nonexistent/base', '--head', '/nonexistent/head']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('cannot read /nonexistent/base');
  });
});
