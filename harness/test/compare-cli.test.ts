// `npm run compare` as a user runs it: rounds given as results files or as the run directories
// that hold them; both outputs written, the JSON valid against the schema pr-comment enforces.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Comparison } from '../src/compare/schema.js';
import { runCli } from './helpers/cli.js';
import { wcResults } from './helpers/results.js';

describe('npm run compare', () => {
  it('accepts run directories and results files, and writes comparison.md and a valid comparison.json', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-cmp-'));
    for (const [name, c] of [['base-1', 'a'], ['base-2', 'a'], ['head-1', 'b']] as const) {
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, 'results.json'), JSON.stringify(wcResults(c.repeat(40))));
    }
    const out = join(dir, 'out');
    const r = runCli(['compare', '--base', join(dir, 'base-1'), join(dir, 'base-2', 'results.json'), '--head', join(dir, 'head-1'), '--out', out]);
    expect(r.stderr).not.toMatch(/error/);
    expect(r.status).toBe(0);
    const c = Comparison.parse(JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8')));
    expect([c.base.runs, c.head.runs]).toEqual([2, 1]);
    expect(readFileSync(join(out, 'comparison.md'), 'utf8')).toMatch(/^## Performance: /);
  });

  it('names a missing input', () => {
    const r = runCli(['compare', '--base', '/nonexistent/base', '--head', '/nonexistent/head']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('cannot read /nonexistent/base');
  });
});
