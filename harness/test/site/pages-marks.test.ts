// `pages` stores a published commit's trend marks: the first run in the sandbox after one without
// it is marked against the store's previous commit; a transcript verdict of another commit beside
// the results is refused before anything is touched.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Results } from '../../src/formats/results-format.js';
import { runCli } from '../helpers/cli.js';
import { wcResults } from '../helpers/results.js';

const conditions = (sandbox?: string): NonNullable<Results['run']['conditions']> => ({
  loadAverage: [0, 0, 0],
  governor: 'performance',
  turbo: 'off',
  smt: 'off',
  measuredCpus: '1',
  harnessCpus: '0',
  ...(sandbox ? { sandbox } : {}),
});

/** A run folder holding results.json of `sha`, dated `day`, measured as `sandbox` says. */
function runDir(sha: string, day: number, sandbox?: string): string {
  const run = mkdtempSync(join(tmpdir(), 'jsio-pages-marks-run-'));
  const r = wcResults(sha);
  r.run.commit.date = `2026-11-0${day}T00:00:00Z`;
  r.run.conditions = conditions(sandbox);
  writeFileSync(join(run, 'results.json'), JSON.stringify(r));
  return run;
}

describe('pages and trend marks', () => {
  it('marks the first commit measured in the sandbox; refuses a verdict of another commit, touching nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-pages-marks-'));
    const [a, b] = ['a'.repeat(40), 'b'.repeat(40)];
    const first = runCli(['pages', join(runDir(a, 1), 'results.json'), '--dir', dir]);
    expect(first.status, first.stderr).toBe(0);
    // The site build leaves an empty marks file (the page never requests a missing one).
    const none = JSON.parse(readFileSync(join(dir, 'data', 'test-machine', 'marks.json'), 'utf8'));
    expect(none).toEqual({ schema: 1, commits: {} });
    const second = runDir(b, 2, 'bubblewrap');
    mkdirSync(join(second, 'transcripts'));
    const verdict = {
      schema: 1,
      kind: 'transcript-verdict',
      base: { commit: a },
      head: { commit: 'c'.repeat(40) },
      verdict: {
        bench: ['--profile', 'smoke'],
        runs: { same: true, alike: 1, differences: [], more: 0 },
        numbers: { same: true, compared: 1, notReplayed: 0, moves: [] },
        exits: { base: 0, head: 0 },
        seconds: 1,
      },
    };
    writeFileSync(join(second, 'transcripts', 'transcripts.json'), JSON.stringify(verdict));
    const refused = runCli(['pages', join(second, 'results.json'), '--dir', dir]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('recorded the harness of commit cccccccccccc');
    expect(existsSync(join(dir, 'data', 'test-machine', 'runs', b))).toBe(false);
    writeFileSync(join(second, 'transcripts', 'transcripts.json'), JSON.stringify({ ...verdict, head: { commit: b } }));
    const ok = runCli(['pages', join(second, 'results.json'), '--dir', dir]);
    expect(ok.status, ok.stderr).toBe(0);
    const marks = JSON.parse(readFileSync(join(dir, 'data', 'test-machine', 'marks.json'), 'utf8'));
    // The verdict measures the same: a sandbox mark only.
    expect(marks.commits[b].marks.map((m: { kind: string }) => m.kind)).toEqual(['sandbox']);
    expect(marks.commits[b].marks[0].reason).toMatch(/^measured in the sandbox \(bubblewrap\) from this commit on/);
  });
});
