// Fixture pull requests run the way pr.yml and pr-comment.yml run them: `npm run pairs`, then
// `npm run pr-comment` on the artifact, then the merge check (`workflow -- pr-outcome`). One head
// breaks a Node program (a ReferenceError on its first chunk), one slows wc C down, one adds only
// a comment to scan's input generator (the same bytes: judged as usual), one makes that generator
// write more (a real workload change: measured and reported as such), one adds a busy wait to
// threadpool's shared finish() (its batch time moves, its p50 latency does not). Real gcc and
// node, real processes; assertions on the comment's order, grouped lines, first-line error and
// counts, and the exit statuses the workflow acts on, none on timings: the planted changes are
// far larger than the noise, and only their classification is asserted. Each diff is as small as
// its assertions allow: one point each, and the broken head with a short budget (its broken points
// need no pairs; the budget only bounds the control's). The broken head and the threadpool wait
// count no work under Valgrind (JSIO_COUNTS=none): nothing they assert reads it, and counting
// their Node programs on both sides would cost more than their diffs; the other three count their
// C programs as pr.yml does.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plantedWc } from '../../src/calibration/plant.js';
import { PairsComparison } from '../../src/formats/pairs-format.js';
import { commentOnDiff, performanceLine, runCli, runPairs } from '../helpers/cli.js';
import { editProgram, programCheckout } from '../helpers/program-checkout.js';

const checkout = programCheckout;
const edit = editProgram;

/** wc at 4 KiB reads, these variants. */
const wcOnly = (variants: string) => ['--experiments', 'wc', '--variants', variants, '--param', 'bs=4096'];

/** pairs, then pr-comment on the artifact, then the merge check under `rule`, as the workflows run them. */
function pullRequest(
  base: string,
  head: string,
  rules: string[],
  narrow: { budget: string; variants?: string; select?: string[]; counts?: 'none' },
) {
  const out = mkdtempSync(join(tmpdir(), 'jsio-prfx-out-'));
  const pairs = runPairs(
    { base, head, out, budget: narrow.budget, seed: 11 },
    ['--noise-store', join(out, 'none'), '--profile', 'smoke', ...(narrow.select ?? wcOnly(narrow.variants ?? 'c'))],
    narrow.counts ? { JSIO_COUNTS: narrow.counts } : {},
  );
  const select = ['--profile', 'smoke', ...(narrow.select ?? wcOnly(narrow.variants ?? 'c'))];
  const comment = commentOnDiff(out, 7, { base, head, flags: select });
  expect(comment.status, comment.stderr).toBe(0);
  const file = join(out, 'comparison.json');
  const outcomes = rules.map((rule) => runCli(['workflow', 'pr-outcome', '--comparison', file, '--fail-on', rule]));
  const c = PairsComparison.parse(JSON.parse(readFileSync(file, 'utf8')));
  const record = JSON.parse(readFileSync(join(out, 'pairs.json'), 'utf8')) as PairsFile;
  return { pairs, c, md: comment.stdout, outcomes, record };
}

interface PairsFile {
  schema: number;
  points: { benchmark: string; lead: { metric: string }; pairs: { base: Record<string, number | null> }[] }[];
}

/** The first line's answers: the numbers after the dash, up to any remark after a semicolon. */
function firstLineAnswers(md: string): number[] {
  const line = performanceLine(md);
  return line
    .split(' — ')[1]!
    .split(';')[0]!
    .split(' · ')
    .map((part) => Number(/^(?:❌ |⚠️ )?(\d+) /.exec(part)![1]));
}

/** The scan C point the generator fixtures measure. */
const SCAN = ['--experiments', 'scan', '--variants', 'c-blocking', '--param', 'files=100', '--param', 'cache=warm'];
const SCAN_ID = 'scan/c-blocking/cache=warm,files=100';

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
      counts: 'none',
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
    expect(performanceLine(md)).toMatch(
      new RegExp(`^## Performance: \\d+ affected · \\d+ not affected · \\d+ control — ❌ ${s.brokenPoints} broken · `),
    );
    // The default branch's judgement leads; the rendered comparison follows it.
    const k = lines.indexOf(performanceLine(md));
    expect(lines[1]).toMatch(/^\*\*Merge check \(decided by the default branch's code\): fails\*\*/);
    expect(lines[k + 2]).toBe(`### ❌ ${s.brokenPoints} point${s.brokenPoints === 1 ? '' : 's'} broken by this PR`);
    // One line per runtime, each with the error's first line, before anything else.
    const groupLines = lines.slice(k + 4, k + 6 + s.broken.length).filter((l) => l.startsWith('- **wc node-stream**'));
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

  it("a head whose program writes into its own tree and swallows the sandbox's refusal: broken, with the path the trace saw", {
    timeout: 600_000,
  }, () => {
    const head = checkout('scribble');
    edit(head, 'wc/wc-c.c', (s) =>
      s.replace(
        'int main(int argc, char **argv) {\n',
        'int main(int argc, char **argv) {\n  { FILE *f = fopen("/jsio/side/programs/wc/planted.out", "w"); if (f) fclose(f); }\n',
      ),
    );
    const { pairs, c, outcomes } = pullRequest(base, head, ['broken'], {
      budget: '0.2',
      variants: 'c',
      counts: 'none',
    });
    expect(pairs.status, pairs.stderr).toBe(1);
    const broken = c.notMeasured.filter((x) => x.benchmark === 'wc/c/bs=4096');
    expect(broken).toEqual([
      expect.objectContaining({
        side: 'head',
        status: 'failed',
        changed: true,
        reason: expect.stringContaining('(the trace saw programs/wc/planted.out)'),
      }),
    ]);
    expect(broken[0]!.reason).toMatch(/^broken: its processes tried to write outside their scratch folder/);
    expect(outcomes.map((o) => o.status)).toEqual([1]);
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
    expect(performanceLine(md)).toMatch(/^## Performance: \d+ affected · \d+ not affected · \d+ control — 1 slower · /);
    expect(md).not.toContain('### ❌');
    expect(md).toContain('| ❌ broken by this PR | 0 |');
    const at = (x: string) => md.indexOf(x);
    expect(at('**Merge check: passes**')).toBeGreaterThan(0);
    expect(at('```text')).toBeGreaterThan(at('**Merge check'));
    expect(md).toMatch(/```text\n[^`]*wc c bs=4096 +[ │─●◂▸]+ \+\d+\.\d%/);
    expect(at('| 🔴 slower | 1 | worst: wc c bs=4096: +')).toBeGreaterThan(at('```text'));
    expect(outcomes.map((o) => o.status)).toEqual([0, 1]);
  });

  it('a comment added to an input generator: its points are affected, measured and judged as usual; no workload changed', {
    timeout: 600_000,
  }, () => {
    const head = checkout('gen-comment');
    edit(head, 'scan/generate.mjs', (s) => `// Only a comment: the generated files stay byte-identical.\n${s}`);
    const { pairs, c, md, outcomes } = pullRequest(base, head, ['broken', 'slower'], { budget: '1', select: SCAN });
    expect(pairs.status, pairs.stderr).toBe(0);
    expect(c.affectedBecause).toEqual([{ benchmark: SCAN_ID, reason: 'changed: programs/scan/generate.mjs' }]);
    const p = c.points.find((q) => q.benchmark === SCAN_ID)!;
    expect(p).toMatchObject({ impact: 'affected', changed: true, lead: { metric: 'scan_seconds' } });
    expect(p.workloadChanged).toBeUndefined();
    expect(p.pairs).toBeGreaterThanOrEqual(10);
    expect(c.incomparable).toBeUndefined();
    // One affected point, one answer of its pairs.
    expect(performanceLine(md)).toMatch(/^## Performance: 1 affected · 0 not affected · 0 control — /);
    expect(firstLineAnswers(md).reduce((a, b) => a + b, 0)).toBe(1);
    expect(md).not.toContain('workload changed');
    expect(md).not.toContain('Not comparable');
    expect(outcomes.map((o) => o.status)[0]).toBe(0);
  });

  it('a generator that writes more: the workload changed, measured in pairs, counted and reported as such, never a regression', {
    timeout: 600_000,
  }, () => {
    const head = checkout('gen-more');
    // Two hundred comment lines more per file: the counts stay, the bytes to read and scan grow.
    edit(head, 'scan/generate.mjs', (s) =>
      s.replace(
        "    lines.push('');\n",
        "    for (let k = 0; k < 200; k++) lines.push('// padding the scan reads past');\n    lines.push('');\n",
      ),
    );
    const { pairs, c, md, outcomes } = pullRequest(base, head, ['broken', 'slower'], { budget: '1', select: SCAN });
    expect(pairs.status, pairs.stderr).toBe(0);
    const p = c.points.find((q) => q.benchmark === SCAN_ID)!;
    expect(p.workloadChanged).toMatch(/^input_bytes \d+ → \d+; input_sha256 \w+… → \w+…; the generated input's bytes$/);
    expect(p.pairs).toBeGreaterThanOrEqual(10);
    expect(p.lead.ci).toBeDefined();
    expect(c.incomparable).toBeUndefined();
    expect(performanceLine(md)).toMatch(
      /^## Performance: 1 affected · 0 not affected · 0 control — 0 slower · 0 faster · 0 unchanged · 0 inconclusive · 1 workload changed$/,
    );
    // Said at the top with its paired change and interval, before the merge check; never folded away
    // (the whole process's time may have moved with it: then it says so after `also:`).
    expect(md).toMatch(
      /\*\*Workload changed\*\* on 1 point[^\n]*\n\n- scan c-blocking [a-z=0-9 ]+: workload changed: [+−]\d+(\.\d)? % \([+−]\d+(\.\d)? … [+−]\d+(\.\d)? %\)(; also: [^\n—]+)? — input_bytes /,
    );
    expect(md.indexOf('**Workload changed**')).toBeLessThan(md.indexOf('**Merge check:'));
    expect(md).toContain('| workload changed | 1 |');
    // Not a regression for the merge rule, even when regressions fail it.
    expect(outcomes.map((o) => o.status)).toEqual([0, 0]);
  });

  it("a busy wait in threadpool's shared finish(): the batch time moved beside a p50 latency that did not, and it is said", {
    timeout: 600_000,
  }, () => {
    const head = checkout('finish-wait');
    // 20 ms of spinning once every file is done: the batch lengthens, no file's latency does.
    edit(head, 'threadpool/threadpool-common.js', (s) =>
      s.replace(
        'export function finish({ files, bytes, jobs, t0, latency }) {\n',
        'export function finish({ files, bytes, jobs, t0, latency }) {\n  for (const end = performance.now() + 20; performance.now() < end; );\n',
      ),
    );
    const select = ['--experiments', 'threadpool', '--variants', 'node-promises'];
    select.push('--param', 'cache=warm', '--param', 'pool=4', '--param', 'work=read');
    const { pairs, c, md, outcomes, record } = pullRequest(base, head, ['broken', 'slower'], {
      budget: '1',
      select,
      counts: 'none',
    });
    expect(pairs.status, pairs.stderr).toBe(0);
    const p = c.points.find((q) => q.experiment === 'threadpool')!;
    expect(p.lead.metric).toBe('latency_p50');
    // The latency is untouched by a wait after the last file (a generous bound, no timing claim).
    expect(p.lead.ratio).toBeLessThan(1.5);
    expect(p.also).toContain('batch_ms');
    expect(p.folded.find((m) => m.metric === 'batch_ms')).toMatchObject({ verdict: 'slower' });
    expect(performanceLine(md)).toMatch(/; another timed metric moved on 1 point$/);
    expect(md).toContain('**Other timed metrics moved** on 1 point');
    expect(md).toMatch(
      /- threadpool node-promises [a-z=0-9 ]+: latency_p50 [a-z]+[^;\n]*; also: [^\n]*batch_ms \+\d+(\.\d)? % \(\+\d+(\.\d)? … \+\d+(\.\d)? %\)/,
    );
    if (p.lead.verdict !== 'slower') {
      expect(md).not.toContain('No regression found.');
      expect(md).toContain('No regression of a lead metric found, but another timed metric moved on 1 point');
    }
    // A regression rule fails on it; the default does not.
    expect(outcomes.map((o) => o.status)).toEqual([0, 1]);
    // Every pair's every timed metric is kept, not only the lead's.
    const rec = record.points.find((x) => x.benchmark === p.benchmark)!;
    expect(record.schema).toBe(3);
    expect(rec.lead.metric).toBe('latency_p50');
    expect(rec.pairs.every((q) => typeof q.base.batch_ms === 'number')).toBe(true);
  });
});
