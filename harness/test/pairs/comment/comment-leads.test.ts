// The PR comment leads with what the pull request broke, says what failed on both sides once per
// reason, reports exact counter changes and the merge check, charts the changes, keeps its summary
// table short and renders only inert text from the artifact.
import { describe, expect, it } from 'vitest';
import { COMMENT_LIMIT } from '../../../src/compare/render-quick-look.js';
import { PairsComparison, type PairsPoint } from '../../../src/formats/pairs-format.js';
import { renderPairsComparison } from '../../../src/pairs/comment/comment.js';
import { forestChart } from '../../../src/pairs/comment/forest-chart.js';
import { gateResult, parseGateRule } from '../../../src/pairs/decide/merge-gate.js';
import {
  classifyNotMeasured,
  counterFindings,
  reproduceCommand,
  summarize,
} from '../../../src/pairs/decide/summarize.js';

const lead = (over: Partial<PairsPoint['lead']> = {}): PairsPoint['lead'] => ({
  metric: 'read_cost',
  unit: 'ns',
  direction: 'smaller',
  baseMedian: 5000,
  headMedian: 5050,
  ratio: 1.01,
  ci: [0.99, 1.015],
  confidence: 0.96,
  p: 0.4,
  verdict: 'unchanged',
  ...over,
});
const point = (id: string, over: Partial<PairsPoint> = {}): PairsPoint => {
  const [experiment, variant, ps] = id.split('/') as [string, string, string];
  return {
    benchmark: id,
    experiment,
    variant,
    params: Object.fromEntries(ps.split(',').map((kv) => kv.split('=') as [string, string])),
    placement: 'split',
    kind: 'fit',
    pairs: 20,
    baseFirst: 10,
    stop: 'decided',
    minEffect: 0.02,
    secondsPerPair: 0.4,
    lead: lead(),
    folded: [],
    counters: [],
    ...over,
  };
};
const BS = [16, 64, 256, 1024, 4096, 8192, 16384, 32768, 65536];
const broken = ['node20', 'node22', 'node24'].flatMap((rt) =>
  BS.map((bs) => ({
    benchmark: `wc/node-stream/bs=${bs},runtime=${rt}`,
    side: 'head' as const,
    status: 'failed' as const,
    changed: true,
    reason: `at scale 0.125: exited with status 1: ReferenceError: undefinedCounter is not defined (last lines:     at Socket.emit (node:events:524:28) | Node.js v20.20.2)`,
  })),
);
const skippedBoth = BS.slice(0, 4).flatMap((bs) =>
  (['base', 'head'] as const).map((side) => ({
    benchmark: `wc/just-sync/bs=${bs}`,
    side,
    status: 'skipped' as const,
    reason: 'just(js) is not installed on this machine: npm run install-just',
  })),
);
const failedBoth = ['c-blocking', 'node-sync'].flatMap((v) =>
  (['base', 'head'] as const).map((side) => ({
    benchmark: `scan/${v}/files=200`,
    side,
    status: 'failed' as const,
    reason: 'input generator generate.mjs: Unexpected end of JSON input',
  })),
);
function fixture(): PairsComparison {
  return {
    schema: 2,
    method: 'paired',
    seed: 5,
    profile: 'quick',
    budget: { seconds: 720, spentSeconds: 1000, setupSeconds: 300, deadlineSeconds: 1140 },
    base: { commits: ['a'], runs: 1, machine: 'm', cpu: 'c', toolchains: {} },
    head: { commits: ['b'], runs: 1, machine: 'm', cpu: 'c', toolchains: {} },
    points: [
      point('records/c/op=read,record=16', {
        changed: true,
        stop: 'decided',
        pairs: 40,
        lead: lead({ ratio: 1.078, ci: [1.002, 1.175], verdict: 'slower', p: 0.0001, confidence: 0.9995 }),
        counters: [
          { metric: 'syscalls.getpid', unit: 'calls', base: 27, head: 28 },
          { metric: 'syscalls.madvise', unit: 'calls', base: 62, head: 64, headRange: [64, 65] },
          { metric: 'syscalls.statx', unit: 'calls', base: 20, head: 1045 },
        ],
      }),
      point('records/c/op=read,record=4096', {
        changed: true,
        pairs: 0,
        stop: 'budget',
        lead: lead({ verdict: 'inconclusive' }),
      }),
      point('records/c/op=write,record=16', {
        changed: true,
        pairs: 4,
        stop: 'budget',
        lead: lead({ verdict: 'inconclusive', ci: undefined }),
      }),
      ...BS.map((bs) => point(`wc/c/bs=${bs}`)),
    ],
    added: [],
    removed: [],
    notMeasured: [...broken, ...skippedBoth, ...failedBoth],
  };
}

describe('what leads the PR comment', () => {
  it('groups broken points by variant and runtime with the first error line and a command to reproduce', () => {
    const { broken: groups, brokenPoints, groups: rest } = classifyNotMeasured(fixture().notMeasured, 'quick');
    expect(brokenPoints).toBe(27);
    expect(groups.map((g) => [g.runtime, g.points, g.error])).toEqual([
      ['node20', 9, 'ReferenceError: undefinedCounter is not defined'],
      ['node22', 9, 'ReferenceError: undefinedCounter is not defined'],
      ['node24', 9, 'ReferenceError: undefinedCounter is not defined'],
    ]);
    expect(groups[0]!.reproduce).toBe(
      'npm run bench -- --profile quick --experiments wc --variants node-stream --param bs=16 --param runtime=node20 --no-store',
    );
    // Both sides: one line per reason, not one per point and side.
    expect(rest.map((g) => [g.sides, g.status, g.points])).toEqual([
      ['both', 'skipped', 4],
      ['both', 'failed', 2],
    ]);
  });

  it('orders the comment: title, broken, both-sided failures, counters, merge check, chart, summary table', () => {
    const md = renderPairsComparison(fixture());
    const lines = md.split('\n');
    expect(lines[0]).toBe(
      '## Performance: ❌ 27 broken · 1 slower · 0 faster · 9 unchanged · 1 inconclusive · 7 not measured',
    );
    const at = (s: string) => {
      const i = md.indexOf(s);
      expect(i, s).toBeGreaterThan(-1);
      return i;
    };
    const order = [
      '### ❌ 27 points broken by this PR',
      '- **wc node-stream** under node20 (9 points): ReferenceError: undefinedCounter is not defined — reproduce: `npm run bench -- --profile quick',
      '> ⚠️ **2 points failed on both sides**: a harness or machine problem, not this PR',
      '> - 4 points skipped on both sides (wc): just(js) is not installed on this machine: npm run install-just',
      '**Counters that changed exactly**',
      '- records c: **statx** 20 → 1,045 calls per run (+1,025) on 1 of 3 points',
      '**Merge check: fails** — 27 points broken by this PR',
      '```text',
      '| | points | |',
      '<details><summary>Changed in this PR: 2 points</summary>',
    ].map(at);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // Failures on both sides are never folded into "No regression found".
    expect(md).not.toContain('No regression found');
    // One line per group: the broken points are not listed one by one at the top.
    expect(md.slice(0, at('| | points | |')).match(/ReferenceError/g)).toHaveLength(3);
  });

  it('a summary table of at most ~20 lines; unmeasured points counted, not rows; no figure without an interval', () => {
    const md = renderPairsComparison(fixture());
    const table = md.slice(md.indexOf('| | points | |')).split('\n\n')[0]!.split('\n');
    expect(table.length).toBeLessThanOrEqual(20);
    expect(table).toContain('| not measured | 7 | 1 got no pairs (budget), 6 on both sides |');
    expect(md).not.toContain('| records c op=read record=4096 |');
    expect(md).toMatch(/\| records c op=write record=16 \| read_cost \| [^|]+ \| [^|]+ \| — \| too few pairs \| 4 \|/);
    // Rows name their experiment; the change column says what it is; counters largest change first, exact first.
    expect(md).toContain(
      '| point | metric | base median | head median | change (paired ratio) | interval of the verdict |',
    );
    expect(md).toContain('statx 20→1,045, getpid 27→28, madvise 62→64–65');
  });

  it('the merge check follows the rule: broken fails by default, regressions only when asked', () => {
    const c = fixture();
    expect(summarize(c).outcome.fail).toBe(true);
    expect(summarize(c, parseGateRule('none')).outcome).toMatchObject({ fail: false, rule: 'none' });
    const slow = gateResult(parseGateRule('slower>5%'), 27, c.points);
    expect(slow).toMatchObject({ fail: true, rule: 'slower>5%' });
    expect(gateResult(parseGateRule('slower>10%'), 27, c.points).fail).toBe(false);
    expect(renderPairsComparison(c, { rule: parseGateRule('none') })).toContain('**Merge check: passes**');
    expect(() => parseGateRule('broken,fast')).toThrow(/--fail-on "broken,fast": expected none/);
  });

  it('counters: exact changes ranked by relative size; a range never leads', () => {
    const f = counterFindings(fixture().points);
    expect(f.map((x) => x.metric)).toEqual(['syscalls.statx', 'syscalls.getpid']);
  });

  it('a forest plot: one row per point, the interval around the ratio, no change marked', () => {
    const lines = forestChart([
      { label: 'records c op=read record=16', ratio: 1.078, ci: [1.002, 1.175] },
      { label: 'wc c bs=4096', ratio: 0.99, ci: [0.97, 1.01] },
    ]);
    expect(lines[0]).toMatch(/−20%\s+0\s+\+20%/);
    expect(lines[1]).toMatch(/^records c op=read record=16 +\s*│?─*●─*\s* \+7\.8% \(\+0\.2% … \+17\.5%\)$/);
    expect(lines[2]).toContain('●');
    expect(forestChart([{ label: 'x', ratio: Number.NaN, ci: [1, 1] }])).toEqual([]);
    // Beyond the widest axis (±100%): an arrow at the edge, the figures say how far.
    expect(forestChart([{ label: 'x', ratio: 16.4, ci: [11.3, 30.7] }])[1]).toMatch(
      / ▸ \+1540\.0% \(\+1030\.0% … \+2970\.0%\)$/,
    );
    expect(forestChart([{ label: '```\nnot a fence', ratio: 1.1, ci: [1, 1.2] }])[1]).not.toContain('`');
  });

  it('renders only inert text from the artifact: no HTML, mentions or autolinks', () => {
    const c = fixture();
    const evil = '<img src=x onerror=alert(1)> @team https://evil.example www.evil.example owner/repo#12 GH-7';
    c.points[0]!.folded = [{ ...lead({ verdict: 'faster' }), metric: evil, unit: '<img src=x>@a#1' }];
    // Named beside the lead (at the top and in the row), and a changed workload's words.
    c.points[0]!.also = [evil];
    c.points[2]!.workloadChanged = evil;
    c.points[0]!.lead.note = evil;
    c.points[3]!.variant = evil;
    c.notMeasured.push({ benchmark: 'wc/c/bs=1', side: 'head', status: 'failed', reason: `wrong result: ${evil}` });
    c.warnings = [evil];
    c.method = evil;
    c.head.machine = evil;
    c.incomparable = [{ benchmark: evil, metric: '*', reason: evil }];
    PairsComparison.parse(c);
    const md = renderPairsComparison(c);
    expect(md).toContain('&lt;img');
    expect(md).toContain('**Other timed metrics moved**');
    expect(md).toContain('**Workload changed**');
    expect(md).not.toMatch(/<img|@team|https:\/\/|www\.evil|repo#12|GH-7/);
  });

  it('stays under the comment limit with 400 points and 300 broken', () => {
    const c = fixture();
    c.points = Array.from({ length: 400 }, (_, i) => point(`wc/c/bs=${i + 1}`, { changed: i % 2 === 0 }));
    c.notMeasured = Array.from({ length: 300 }, (_, i) => ({
      ...broken[0]!,
      benchmark: `wc/node-stream/bs=${i},runtime=node20`,
    }));
    const md = renderPairsComparison(c);
    expect(md.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(md).toContain('### ❌ 300 points broken by this PR');
    expect(reproduceCommand('wc/c/bs=1;rm -rf ~')).not.toContain(';');
  });
});

describe('impact and the control in the comment', () => {
  /** The fixture as an impact diff: the records points affected, the wc points the control. */
  function impactFixture(controlCalled: boolean): PairsComparison {
    const f = fixture();
    return {
      ...f,
      notMeasured: [],
      points: f.points.map((p) =>
        p.experiment === 'wc'
          ? {
              ...p,
              impact: 'control' as const,
              alpha: 0.0042,
              ...(controlCalled && p.benchmark === 'wc/c/bs=16'
                ? { lead: lead({ verdict: 'faster', ratio: 0.9, ci: [0.85, 0.95] }) }
                : {}),
            }
          : { ...p, impact: 'affected' as const, alpha: 0.0042 },
      ),
      notAffected: Array.from({ length: 390 }, (_, i) => ({ benchmark: `scan/x/files=${i}`, reason: 'identical' })),
      affectedBecause: f.points
        .filter((p) => p.experiment === 'records')
        .map((p) => ({ benchmark: p.benchmark, reason: 'changed: programs/records/records-c.c' })),
    };
  }

  it("counts affected, not affected and control points first, and never counts the control as the PR's calls", () => {
    const c = impactFixture(true);
    const s = summarize(c);
    expect(s.impact).toEqual({ affected: 3, notAffected: 390, control: 9, controlCalled: 1, controlLevel: 0.0042 });
    expect(s.calls.faster).toBe(0);
    const md = renderPairsComparison(c);
    expect(md.split('\n')[0]).toBe(
      '## Performance: 3 affected · 390 not affected · 9 control — 1 slower · 0 faster · 0 unchanged · 1 inconclusive · 1 not measured',
    );
    expect(md).toContain('> ⚠️ **Control: 1 of 9 called.**');
    expect(md).toContain("this run's calls cannot be trusted");
    expect(md).toContain('0.42%');
    expect(s.outcome.because).toMatch(/the control called 1 of 9 unaffected points/);
    expect(md).toContain('390 points not affected by this PR, so not measured');
    expect(md).toMatch(
      /Why 3 points are affected<\/summary>\n\n- changed: programs\/records\/records-c\.c — 3 points: records\/c/,
    );
    expect(md).toMatch(/Control \(unaffected, measured as an A\/A check\): 9 points/);
    // Inconclusive with its reason, counted in one line.
    expect(md).toContain('| inconclusive | 1 | 1 ran out of budget |');
  });

  it('a quiet control says the machine behaved; the comparison passes its own schema', () => {
    const c = impactFixture(false);
    expect(PairsComparison.safeParse(c).success).toBe(true);
    const md = renderPairsComparison(c);
    expect(md).toContain('**Control: 0 of 9 called**');
    expect(md).not.toContain('cannot be trusted');
  });

  it('a control that got no pairs vouches for nothing; one partly paired says how many went without', () => {
    const c = impactFixture(false);
    const unpaired = (keep: number) => ({
      ...c,
      points: c.points.map((p) => {
        if (p.impact !== 'control') return p;
        return keep-- > 0 ? p : { ...p, pairs: 0 };
      }),
    });
    const none = renderPairsComparison(unpaired(0));
    expect(none).toContain('> ⚠️ **Control: not measured.**');
    expect(none).toContain('cannot say whether the machine behaved');
    expect(none).not.toContain('): the machine behaved.');
    const some = renderPairsComparison(unpaired(4));
    expect(some).toContain('**Control: 0 of 9 called** (5 of them got no pairs before the deadline)');
  });

  it('no point affected: "changes nothing" only while the harness that measures them is the same', () => {
    const f = impactFixture(false);
    const c: PairsComparison = {
      ...f,
      points: f.points.filter((p) => p.impact === 'control'),
      affectedBecause: [],
    };
    expect(renderPairsComparison(c)).toContain('This PR changes nothing any benchmark runs or reads.');
    const harness = {
      files: ['harness/src/run/measure.ts'],
      profile: 'quick',
      rounds: 7,
      seed: 1,
      margin: 0.015,
      experiments: [],
      notMeasured: [],
    };
    const moved = renderPairsComparison({ ...c, harnessShift: harness });
    expect(moved).not.toContain('changes nothing');
    expect(moved).toContain("This PR changes no benchmark's program or inputs, but it changes the harness");
    const same = renderPairsComparison({ ...c, harnessShift: { ...harness, rounds: 0, sameCode: true } });
    expect(same).toContain('This PR changes nothing any benchmark runs or reads.');
  });
});
