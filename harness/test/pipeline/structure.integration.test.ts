// Behaviour guard for refactorings: a narrowed smoke run of every experiment (hyperfine and
// self-timed runners, gcc and esbuild builds, a cold cache, an ignored parameter, a slope
// analysis, answers) must produce the same structure of results.json, summary.md and gab/*.json
// as the fixture, timings aside. A deliberate change of behaviour regenerates the fixture with
// JSIO_UPDATE_STRUCTURE=1 npx vitest run harness/test/pipeline/structure.integration.test.ts
// No work is counted (--counts none): counting the headline points of five experiments under
// Valgrind took longer than the timed runs, and the counted metrics' shape is asserted where they are
// made (counts.integration, the release and paired-diff tests).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runCli } from '../helpers/cli.js';
import { runStructure } from '../helpers/structure.js';

const FIXTURE = join(FIXTURES, 'structure', 'smoke-structure.json');
const CURRENT = process.versions.node.split('.')[0]!;

/** Which variants and parameter values the guard run covers (every mechanism, few points). */
const STRUCTURE_ARGS = [
  'bench',
  '--profile',
  'smoke',
  '--no-store',
  '--counts',
  'none',
  '--variants',
  'c,dd-null,system-wc,node-stream,readsync,sync,c-pool,bun,c-blocking,node-sync,core-transform,through2-bundle',
  '--param',
  'bs=65536',
  '--param',
  'record=16,4096',
  '--param',
  'pool=1,4',
  '--param',
  'files=500',
  '--param',
  'n=0,10',
  '--param',
  `runtime=node${CURRENT},bun`,
];

describe('the structure of a smoke run', () => {
  it('matches the fixture (timings aside)', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'jsio-structure-')), 'out');
    // just(js) is hidden so the fixture does not depend on whether this machine has it.
    const path = (process.env.PATH ?? '')
      .split(':')
      .filter((p) => !existsSync(join(p, 'just')))
      .join(':');
    const cli = runCli([...STRUCTURE_ARGS, '--out', out], { PATH: path, JUST_HOME: '' });
    expect(cli.status, cli.stderr.slice(-2000)).toBe(0);
    const structure = JSON.parse(JSON.stringify(runStructure(out))) as unknown;
    if (process.env.JSIO_UPDATE_STRUCTURE === '1') writeFileSync(FIXTURE, `${JSON.stringify(structure, null, 1)}\n`);
    expect(structure).toEqual(JSON.parse(readFileSync(FIXTURE, 'utf8')));
  });
});
