// Two fixture pull requests run the way pr.yml and pr-comment.yml run them: `npm run pairs`, then
// `npm run pr-comment` on the artifact, then the merge check (`workflow -- pr-outcome`). One head
// breaks a Node program (a ReferenceError on its first chunk), the other slows wc C down. Real
// gcc, real processes; assertions on the comment's order, grouped lines, first-line error and the
// exit statuses the workflow acts on, none on timings. Each diff is as small as its assertions
// allow: the slowed C point alone (it stops once decided), and the broken head with a short budget
// (its broken points need no pairs; the budget only bounds the control's).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plantedWc } from '../../src/calibration/pipeline/plant.js';
import { PairedComparison } from '../../src/model/comparison.js';
import { ROOT, runCli } from '../helpers/cli.js';

function checkout(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `jsio-prfx-${name}-`));
  cpSync(join(ROOT, 'programs'), join(dir, 'programs'), { recursive: true });
  mkdirSync(join(dir, 'harness'), { recursive: true });
  cpSync(join(ROOT, 'harness', 'toolchains.json'), join(dir, 'harness', 'toolchains.json'));
  cpSync(join(ROOT, 'harness', 'tools'), join(dir, 'harness', 'tools'), { recursive: true });
  return dir;
}

function edit(dir: string, file: string, change: (s: string) => string) {
  const f = join(dir, 'programs', file);
  writeFileSync(f, change(readFileSync(f, 'utf8')));
}

/** pairs, then pr-comment on the artifact, then the merge check under `rule`, as the workflows run them. */
function pullRequest(base: string, head: string, rules: string[], narrow: { budget: string; variants: string }) {
  const out = mkdtempSync(join(tmpdir(), 'jsio-prfx-out-'));
  const pairs = runCli([
    'pairs',
    '--base',
    base,
    '--head',
    head,
    '--out',
    out,
    '--budget',
    narrow.budget,
    '--seed',
    '11',
    '--noise-store',
    join(out, 'none'),
    '--profile',
    'smoke',
    '--experiments',
    'wc',
    '--variants',
    narrow.variants,
    '--param',
    'bs=4096',
  ]);
  const art = join(out, 'artifact');
  mkdirSync(art);
  for (const f of ['comparison.json', 'comparison.md']) cpSync(join(out, f), join(art, f));
  writeFileSync(join(art, 'pr-number'), '7');
  const comment = runCli(['pr-comment', '--artifact', art, '--pr', '7']);
  expect(comment.status, comment.stderr).toBe(0);
  const file = join(out, 'comparison.json');
  const outcomes = rules.map((rule) => runCli(['workflow', 'pr-outcome', '--comparison', file, '--fail-on', rule]));
  const c = PairedComparison.parse(JSON.parse(readFileSync(file, 'utf8')));
  return { pairs, c, md: comment.stdout, outcomes };
}

describe('fixture pull requests through pairs, pr-comment and the merge check', () => {
  const base = checkout('base');

  it('a head that breaks a program: the broken points lead, grouped, with the error line; the check fails', {
    timeout: 600_000,
  }, () => {
    const head = checkout('broken');
    edit(head, 'wc/wc-node-stream.js', (s) =>
      s.replace('    bytes += chunk.length;\n', '    bytes += chunk.length + undefinedCounter;\n'),
    );
    const { pairs, c, md, outcomes } = pullRequest(base, head, ['broken', 'none'], {
      budget: '0.2',
      variants: 'c,node-stream',
    });
    // pr.yml: exit 1 = some benchmarks failed, the comparison is posted.
    expect(pairs.status, pairs.stderr).toBe(1);
    const s = c.summary!;
    expect(s.brokenPoints).toBeGreaterThanOrEqual(1);
    expect(s.changedPrograms).toEqual(['wc/node-stream']);
    for (const g of s.broken) {
      expect(g).toMatchObject({ experiment: 'wc', variant: 'node-stream' });
      expect(g.error).toBe('ReferenceError: undefinedCounter is not defined');
      expect(g.reproduce).toMatch(
        /^npm run bench -- --profile smoke --experiments wc --variants node-stream --param bs=4096/,
      );
    }
    // The crashing program is "changed in this PR" although it produced no number.
    expect(c.notMeasured.filter((x) => x.side === 'head').every((x) => x.changed)).toBe(true);
    const lines = md.split('\n');
    expect(lines[0]).toBe('<!-- jsio-bench:perf-diff -->');
    expect(lines[1]).toMatch(
      new RegExp(`^## Performance: \\d+ affected · \\d+ not affected · \\d+ control — ❌ ${s.brokenPoints} broken · `),
    );
    expect(lines[3]).toBe(`### ❌ ${s.brokenPoints} point${s.brokenPoints === 1 ? '' : 's'} broken by this PR`);
    // One line per runtime, each with the error's first line, before anything else.
    const groupLines = lines.slice(5, 7 + s.broken.length).filter((l) => l.startsWith('- **wc node-stream**'));
    expect(groupLines).toHaveLength(s.broken.length);
    for (const l of groupLines)
      expect(l).toMatch(/: ReferenceError: undefinedCounter is not defined — reproduce: `npm run bench -- /);
    expect(md.indexOf('**Merge check: fails**')).toBeLessThan(md.indexOf('| | points | |'));
    // The stack trace's tail is kept for the folded details only, never in what leads.
    expect(md.slice(0, md.indexOf('| | points | |'))).not.toContain('at Socket.emit (node:events');
    // The merge check: the default rule fails the job (exit 1), `none` lets it pass.
    expect(outcomes.map((o) => [o.status, o.stdout.trim()])).toEqual([
      [1, 'fail=true'],
      [0, 'fail=false'],
    ]);
  });

  it('a head that slows wc C: a slower call in the chart and the table; only a regression rule fails the check', {
    timeout: 600_000,
  }, () => {
    const head = checkout('slow');
    // 40 µs per read: at 4 KiB reads that more than doubles the per-read cost.
    edit(head, 'wc/wc-c.c', (s) => plantedWc(s, 40_000));
    const { pairs, c, md, outcomes } = pullRequest(base, head, ['broken', 'slower>5%'], { budget: '1', variants: 'c' });
    expect(pairs.status, pairs.stderr).toBe(0);
    const p = c.points.find((q) => q.benchmark === 'wc/c/bs=4096')!;
    expect(p).toMatchObject({ changed: true, lead: { verdict: 'slower' } });
    expect(c.summary!.brokenPoints).toBe(0);
    const lines = md.split('\n');
    expect(lines[1]).toMatch(/^## Performance: \d+ affected · \d+ not affected · \d+ control — 1 slower · /);
    expect(md).not.toContain('### ❌');
    expect(md).toContain('| ❌ broken by this PR | 0 |');
    const at = (x: string) => md.indexOf(x);
    expect(at('**Merge check: passes**')).toBeGreaterThan(0);
    expect(at('```text')).toBeGreaterThan(at('**Merge check'));
    expect(md).toMatch(/```text\n[^`]*wc c bs=4096 +[ │─●◂▸]+ \+\d+\.\d%/);
    expect(at('| 🔴 slower | 1 | worst: wc c bs=4096: +')).toBeGreaterThan(at('```text'));
    expect(outcomes.map((o) => o.status)).toEqual([0, 1]);
  });
});
