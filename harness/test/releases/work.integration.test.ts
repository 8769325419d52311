// Counted work of real releases: Node 20.2.0 and 20.3.0 from the npm registry measured on wc's
// release suite at the smoke profile, every suite point counted under the real Valgrind (V8 made
// predictable); `changes` calls a work change exactly where compareWork says the two releases'
// counts differ beyond the tolerance, and nowhere else. (Registry answers for the catalogue:
// fixtures.)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareWork } from '../../src/pairs/analysis/work-verdict.js';
import { workCounts } from '../../src/releases/analysis/work-changes.js';
import { ReleaseChangesFile, ReleaseIndexFile } from '../../src/releases/release-store.js';
import { FIXTURES, runCli } from '../helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'jsio-release-work-'));
const store = join(tmp, 'store');
const out = join(tmp, 'out');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const common = ['--profile', 'smoke', '--experiments', 'wc', '--store', store, '--out', out];
const measure = (flags: string[]) =>
  runCli([
    'releases',
    'measure',
    '--runtime',
    'node',
    '--since',
    '20.2.0',
    '--until',
    '20.3.0',
    '--registry-json',
    `node=${join(FIXTURES, 'registry', 'node-time.json')}`,
    ...common,
    ...flags,
  ]);

describe('counted work of real releases', () => {
  it('refuses a --counts it does not know before measuring anything', () => {
    const r = measure(['--counts', 'headline']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe('error: --counts headline: expected all, none');
  });

  it('counts every suite point of each release and calls a change only beyond the tolerance', {
    timeout: 900_000,
  }, () => {
    const measured = measure([]);
    expect(measured.status, measured.stderr).toBe(0);
    expect(measured.stdout).toMatch(
      /^2 release\(s\) measured and published \(\d+ s each on average, \d+ s of it counting\)/,
    );
    const id = runCli(['machine-id']).stdout.trim();
    const index = ReleaseIndexFile.parse(JSON.parse(readFileSync(join(store, 'releases', id, 'index.json'), 'utf8')));
    const at = (v: string) => index.releases.find((r) => r.version === v)!;
    for (const r of index.releases) {
      expect(r.countSeconds, r.version).toBeGreaterThan(0);
      expect(r.countSeconds!, r.version).toBeLessThan(r.seconds!);
      // Both sizes of readsync, C beside them; a fit: the smallest size once, its own twice.
      expect(r.work!.map((w) => `${w.variant} ${w.params.bs}`).sort()).toEqual([
        'c 4096',
        'c 65536',
        'readsync 4096',
        'readsync 65536',
      ]);
      for (const w of r.work!) {
        expect(w.counts, `${r.version} ${w.variant}`).toMatchObject({ status: 'ok', role: 'decides' });
        if (w.counts.status !== 'ok') continue;
        expect(w.counts.runs.map((x) => x.size)).toEqual(['small', 'large', 'large']);
        expect(w.counts.settings).toContain(w.reference ? 'the program as compiled' : '--predictable');
        const per = workCounts(w.counts.runs);
        expect(per.metric).toBe('instructions_per_op');
        // Node's readSync loop: thousands of instructions a read; C's: a few tens.
        expect(Math.min(...per.counts)).toBeGreaterThan(w.reference ? 5 : 1000);
      }
      // The instructions metrics are values of the release, like its timings.
      const perOp = r.values.filter((v) => v.metric === 'instructions_per_op' && !v.reference);
      expect(perOp.map((v) => v.params.bs).sort()).toEqual([4096, 65536]);
    }
    // C does not change with the Node release: its counts are the same, run for run.
    const cRuns = (v: string) => at(v).work!.filter((w) => w.reference);
    expect(cRuns('20.3.0')).toEqual(cRuns('20.2.0'));

    const changes = runCli(['releases', 'changes', '--bisect', '0', ...common]);
    expect(changes.status, changes.stderr).toBe(0);
    expect(changes.stdout).toMatch(/^\d+ confirmed timing change\(s\), \d+ counter change\(s\), \d+ work change\(s\)/);
    const file = ReleaseChangesFile.parse(
      JSON.parse(readFileSync(join(store, 'releases', id, 'changes.json'), 'utf8')),
    );
    const work = file.changes.filter((c) => c.kind === 'work');
    for (const bs of [4096, 65536]) {
      const counts = (v: string) => {
        const w = at(v).work!.find((x) => !x.reference && x.params.bs === bs)!;
        return w.counts.status === 'ok' ? workCounts(w.counts.runs).counts : [];
      };
      const verdict = compareWork(counts('20.2.0'), counts('20.3.0'));
      const listed = work.find((c) => c.params.bs === bs);
      expect(listed !== undefined, `bs ${bs}: ${JSON.stringify(verdict)}`).toBe(verdict.kind === 'changed');
      if (!listed || verdict.kind !== 'changed') continue;
      expect(listed).toMatchObject({
        from: '20.2.0',
        to: '20.3.0',
        metric: 'instructions_per_op',
        status: 'confirmed',
        counts: { from: verdict.base, to: verdict.head },
      });
      expect(listed.text).toMatch(
        new RegExp(
          `^node 20\\.2\\.0 → 20\\.3\\.0: wc readsync bs ${bs} instructions per read [\\d,]+ → [\\d,]+ \\([+-]\\d+\\.\\d\\d?%\\), exact `,
        ),
      );
      expect(changes.stdout).toContain(`  ${listed.text}\n`);
    }
  });
});
