// The paired PR diff on real checkouts: two copies of this repository's programs (an A/A diff:
// the same build in two directories), and a copy whose wc C variant spins after every read (a
// planted slowdown). Real gcc, real processes, the real timer; assertions on the artifact, none
// on timings.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plantedWc } from '../../../src/calibration/plant.js';
import { PAIRS_COMPARISON_SCHEMA } from '../../../src/formats/comparison-format.js';
import { PairsComparison } from '../../../src/formats/pairs-format.js';
import { machineInfo } from '../../../src/machine/machine.js';
import { buildTool } from '../../../src/machine/tools.js';
import { renderPairsComparison } from '../../../src/pairs/comment/comment.js';
import { leadMetric } from '../../../src/pairs/engine/lead-metric.js';
import { processValues } from '../../../src/pairs/engine/pair-engine.js';
import { parseTimerOutput, runSchedule } from '../../../src/pairs/engine/pair-timer.js';
import { pairSchedule } from '../../../src/pairs/engine/strategies.js';
import { loadExperiment } from '../../../src/plan/experiments.js';
import { placementOf } from '../../../src/plan/jobs.js';
import { expand } from '../../../src/plan/plan.js';
import { commentOnDiff, ROOT, runCli, runPairs } from '../../helpers/cli.js';
import { jobOf } from '../../helpers/jobs.js';
import { pairsComparison, pairsPoint } from '../../helpers/pairs.js';
import { programCheckout } from '../../helpers/program-checkout.js';

const checkout = programCheckout;

function pairs(
  base: string,
  head: string,
  out: string,
  noise: string[] = ['--noise-store', join(out, 'no-store')],
  select: string[] = ['--experiments', 'wc', '--variants', 'c', '--param', 'bs=4096'],
) {
  const r = runPairs({ base, head, out, budget: '2', seed: 17 }, [...noise, '--profile', 'smoke', ...select]);
  expect(r.status, r.stderr).toBe(0);
  const c = PairsComparison.parse(JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8')));
  return { r, c, md: readFileSync(join(out, 'comparison.md'), 'utf8') };
}

describe('npm run pairs', () => {
  const base = checkout('base');

  it('an A/A diff (one build in two checkouts) measures its point as the control in balanced orders and reports whether the control was called', {
    timeout: 300_000,
  }, () => {
    const out = mkdtempSync(join(tmpdir(), 'jsio-pairs-aa-'));
    // As on a calibrated runner: this point's threshold is 10%, so an A/A call needs a 10% shift
    // (with the 2% default a loaded machine's A/A is called changed up to 5% of the time, by design).
    const noise = join(out, 'noise.json');
    writeFileSync(
      noise,
      JSON.stringify({
        schema: 2,
        machine: machineInfo().id,
        created: '2026-11-23T00:00:00Z',
        method: 'paired',
        repeats: 3,
        thresholds: { 'wc/c/bs=4096 read_cost': 0.1 },
      }),
    );
    // Asked for by hand: with nothing to time, only a given --control is measured.
    const { c, md } = pairs(base, checkout('same'), out, ['--noise', noise, '--control', '1']);
    expect(c.untimed).toBeUndefined();
    expect(c.method).toContain('noise thresholds calibrated on this machine');
    expect(c.schema).toBe(PAIRS_COMPARISON_SCHEMA);
    expect(c.seed).toBe(17);
    expect(c.points).toHaveLength(1);
    const p = c.points[0]!;
    expect(p.benchmark).toBe('wc/c/bs=4096');
    expect(p.kind).toBe('fit');
    expect(p.lead.metric).toBe('read_cost');
    expect(p.changed).toBeUndefined();
    // Nothing differs between the checkouts: the one point is not affected, and is drawn as the control.
    expect(p.impact).toBe('control');
    expect(c.notAffected).toEqual([]);
    // The first look needs 10 pairs; orders come in AB/BA blocks, so an even count is balanced.
    expect(p.pairs).toBeGreaterThanOrEqual(10);
    expect(p.pairs % 2).toBe(0);
    expect(p.baseFirst * 2).toBe(p.pairs);
    // Whether real timings on a shared machine call this A/A point is chance (its rate is the
    // rule's, held by the simulated A/A tests in analysis/); what this run must get right is what
    // it says of its own control: a called control point is flagged as an untrustworthy run.
    expect(['unchanged', 'inconclusive', 'slower', 'faster']).toContain(p.lead.verdict);
    expect(p.counters).toEqual([]);
    expect(md).toMatch(/^## Performance: 0 affected · 0 not affected · 1 control — /);
    if (p.lead.verdict === 'slower' || p.lead.verdict === 'faster')
      expect(md).toMatch(/Control: 1 of 1 called\.\*\*.*this run's calls cannot be trusted/);
    else expect(md).toMatch(/\*\*Control: 0 of 1 called\*\*/);
    expect(md).toContain('This PR changes nothing any benchmark runs or reads.');
    expect(md).toContain(`order seed 17`);
    // The record beside it holds every pair, for calibration.
    const rec = JSON.parse(readFileSync(join(out, 'pairs.json'), 'utf8')) as { points: { pairs: unknown[] }[] };
    expect(rec.points[0]!.pairs).toHaveLength(p.pairs);
  });

  it('with nothing to time (no point affected, the same harness) it draws no control and says why; the trusted plan accepts it', {
    timeout: 300_000,
  }, () => {
    const out = mkdtempSync(join(tmpdir(), 'jsio-pairs-untimed-'));
    const head = checkout('untimed');
    const { c, md } = pairs(base, head, out);
    expect(c.points).toEqual([]);
    expect(c.untimed).toBe(true);
    expect(c.notAffected?.map((n) => n.benchmark)).toEqual(['wc/c/bs=4096']);
    expect(c.summary?.impact).toMatchObject({ affected: 0, notAffected: 1, control: 0, untimed: true });
    expect(md).toMatch(/^## Performance: 0 affected · 1 not affected · 0 control — /);
    expect(md).toContain('**Control: not needed.** Nothing in this diff is timed');
    expect(md).toContain('_Method: nothing was timed:');
    expect(md).toContain('This PR changes nothing any benchmark runs or reads.');
    // The comment job holds it to the plan made as pr.yml makes it (which drew that point as the control).
    const select = ['--experiments', 'wc', '--variants', 'c', '--param', 'bs=4096', '--profile', 'smoke'];
    const judged = commentOnDiff(out, 7, { base, head, flags: select });
    expect(judged.status, judged.stderr).toBe(0);
    expect(judged.stdout).toMatch(/Merge check: passes/);
    expect(judged.stdout).not.toMatch(/no answer the default branch accepts/);
  });

  it('a planted slowdown of wc C is called slower, its program marked changed; the unchanged point is measured after it', {
    timeout: 300_000,
  }, () => {
    const head = checkout('slow');
    const file = join(head, 'programs', 'wc', 'wc-c.c');
    // 40 µs per read: at 4,096 reads of 4 KiB that more than doubles the process.
    writeFileSync(file, plantedWc(readFileSync(file, 'utf8'), 40_000));
    const out = mkdtempSync(join(tmpdir(), 'jsio-pairs-slow-'));
    // records C writes its output into its scratch directory: fresh checkouts have none yet.
    const select = ['--experiments', 'wc,records', '--variants', 'c', '--param', 'bs=4096'];
    select.push('--param', 'record=4096', '--param', 'op=write', '--param', 'cache=warm');
    const { c, md } = pairs(base, head, out, undefined, select);
    expect(c.notMeasured).toEqual([]);
    expect(c.points.map((q) => q.benchmark).sort()).toEqual([
      'records/c/cache=warm,op=write,record=4096',
      'wc/c/bs=4096',
    ]);
    const rec = c.points.find((q) => q.experiment === 'records')!;
    expect(rec.changed).toBeUndefined();
    // records is not affected by a change to wc's C program: measured only as the control.
    expect(rec.impact).toBe('control');
    expect(c.affectedBecause).toEqual([{ benchmark: 'wc/c/bs=4096', reason: 'changed: programs/wc/wc-c.c' }]);
    expect(md).toMatch(/^## Performance: 1 affected · 0 not affected · 1 control — 1 slower/);
    expect(rec.pairs).toBeGreaterThanOrEqual(10);
    // Both sides wrote one file by one path, in the head's cache: the base's own was never made.
    expect(existsSync(join(base, '.cache', 'scratch'))).toBe(false);
    const p = c.points.find((q) => q.experiment === 'wc')!;
    expect(p.changed).toBe(true);
    expect(p.impact).toBe('affected');
    expect(p.lead.verdict).toBe('slower');
    expect(p.stop).toBe('decided');
    expect(p.lead.ratio).toBeGreaterThan(1.2);
    expect(p.lead.ci![0]).toBeGreaterThan(1);
    // The unchanged point's own verdict is left alone: like any A/A point it has a small chance of
    // being called, so asserting it would make this test flaky. What it must show is the PR's change, marked, in its own section.
    expect(md).toMatch(/\| programs changed in this PR \| 1 \| wc\/c \|/);
    expect(md).toMatch(
      /Changed in this PR: 1 point<\/summary>\n[^#]*\| wc c bs=4096 \| (read_cost|wall_time) \|[^\n]*slower · changed in this PR/,
    );
  });

  it('--deadline: a diff whose set-up leaves no time has no pairs, says why, and still writes its comparison', {
    timeout: 300_000,
  }, () => {
    const out = mkdtempSync(join(tmpdir(), 'jsio-pairs-deadline-'));
    // 0.2 min for the whole diff is less than the margin kept for the last batches.
    // The same programs: its one point is measured only as a control asked for.
    const { c, md } = pairs(base, checkout('deadline'), out, [
      ...['--noise-store', join(out, 'none'), '--deadline', '0.2', '--control', '1'],
    ]);
    expect(c.budget.deadlineSeconds).toBe(12);
    expect(c.points.map((p) => [p.pairs, p.stop])).toEqual([[0, 'budget']]);
    expect(c.warnings!.join('\n')).toMatch(/deadline of 0\.2 min left 0\.0 of the 2\.0 budgeted minutes for pairs/);
    expect(md).toMatch(
      /0 pairs; [\d.]+ min in all: set-up [\d.]+ min, pairs 0\.0 min \(budget 2\.0 min, deadline 0\.2 min\)/,
    );
  });

  it('--no-sandbox measures without bubblewrap (a broken one refuses the diff without it, and is never started with it); refused in a workflow and with --plan', {
    timeout: 300_000,
  }, () => {
    const out = mkdtempSync(join(tmpdir(), 'jsio-pairs-nosandbox-'));
    const head = checkout('nosandbox');
    const sides = { base, head, out, budget: '2', seed: 17 };
    const select = ['--profile', 'smoke', '--experiments', 'wc', '--variants', 'c', '--param', 'bs=4096'];
    const flags = ['--noise-store', join(out, 'none'), '--deadline', '0.2', '--control', '1', ...select];
    const broken = { JSIO_BWRAP: '/bin/false' };
    const sandboxed = runPairs(sides, flags, broken);
    expect(sandboxed.status).toBe(2);
    expect(sandboxed.stderr).toMatch(/no sandbox for .*cannot start here/);
    const r = runPairs(sides, [...flags, '--no-sandbox'], broken);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('warning: --no-sandbox: both sides run without bubblewrap');
    const c = PairsComparison.parse(JSON.parse(readFileSync(join(out, 'comparison.json'), 'utf8')));
    expect(c.points.map((p) => p.benchmark)).toEqual(['wc/c/bs=4096']);
    const inWorkflow = runPairs(sides, [...flags, '--no-sandbox'], { GITHUB_ACTIONS: 'true' });
    expect(inWorkflow.status).toBe(2);
    expect(inWorkflow.stderr).toContain('--no-sandbox is refused in a workflow');
    const plan = runCli(['pairs', '--base', base, '--head', head, '--plan', '--no-sandbox', ...select]);
    expect(plan.status).toBe(2);
    expect(plan.stderr).toContain('--no-sandbox goes with a diff, not --plan');
  });

  it('--every-point measures every point as its own question: a plan, transcripts or stored counts are refused with it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-pairs-every-'));
    for (const flag of ['--trusted-plan', '--transcripts', '--count-store']) {
      const r = runCli(['pairs', '--base', base, '--out', dir, '--every-point', flag, dir]);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(`${flag} does not go with --every-point`);
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a base whose programs it cannot read, before measuring', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-pairs-bad-'));
    mkdirSync(join(dir, 'programs', 'x'), { recursive: true });
    writeFileSync(join(dir, 'programs', 'x', 'manifest.json'), '{"id": 1}');
    const r = runCli(['pairs', '--base', dir, '--out', dir, '--profile', 'smoke', '--experiments', 'wc']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/base checkout's programs cannot be read/);
  });
});

describe('paired diff: pure parts', () => {
  it('a pair runs each process once in its order; a fit runs S L L S, the large runs side by side', () => {
    expect(pairSchedule('AB', false)).toEqual([0, 1]);
    expect(pairSchedule('BA', false)).toEqual([1, 0]);
    // 0/1 = base/head at the large size, 2/3 at the small one.
    expect(pairSchedule('AB', true)).toEqual([2, 0, 1, 3]);
    expect(pairSchedule('BA', true)).toEqual([3, 1, 0, 2]);
  });

  it('parses the timer output and rejects anything else', () => {
    expect(parseTimerOutput('0 1500000 0\n1 2500000 status 3\n')).toEqual([
      { index: 0, ns: 1_500_000, status: '0' },
      { index: 1, ns: 2_500_000, status: 'status 3' },
    ]);
    expect(parseTimerOutput('garbage')).toHaveProperty('problem');
  });

  it('the timer starts every process on the measured CPUs, not on the harness core it was called from', async () => {
    const cpus = { taskset: 'taskset', harness: '0', measured: '1', all: '0-1' };
    expect(placementOf('shared', cpus).startOn).toEqual({ taskset: 'taskset', cpus: '1' });
    expect(placementOf('split', cpus).startOn).toEqual({ taskset: 'taskset', cpus: '1' });
    expect(placementOf('none', cpus).startOn).toEqual({ taskset: 'taskset', cpus: '0-1' });
    expect(placementOf('shared', undefined).startOn).toBeUndefined();
    // The real timer, pinned to cpu 0 (present on every machine): each shell reports its CPUs.
    const dir = mkdtempSync(join(tmpdir(), 'jsio-timer-'));
    const timer = await buildTool('pair-timer', 'gcc', ROOT, dir, () => {});
    expect(timer).toBeDefined();
    const cmd = `grep Cpus_allowed_list /proc/$$/status >> ${join(dir, 'cpus')}`;
    const r = await runSchedule(timer!, [cmd, cmd], [0, 1, 1, 0], {
      cwd: dir,
      timeoutMs: 10_000,
      startOn: { taskset: 'taskset', cpus: '0' },
    });
    expect(r.ok).toBe(true);
    expect(r.seconds).toHaveLength(4);
    expect(
      readFileSync(join(dir, 'cpus'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split(/\s+/)[1]),
    ).toEqual(['0', '0', '0', '0']);
  });

  it("a process's values are normalize's metrics of one run; the lead is the headline metric it measures", () => {
    const wc = loadExperiment(join(ROOT, 'programs', 'wc'));
    const wcJob = jobOf(expand([wc], 'smoke', { variants: ['c'], params: { bs: [65536] } })[0]!);
    // A whole process: its wall time; throughput (wall time again) and report fields (counters) are not paired.
    expect(Object.keys(processValues(wcJob, { wall: 0.01 }))).toEqual(['wall_time']);
    expect(leadMetric(wcJob, {})).toEqual({ metric: 'read_cost', unit: 'ns', direction: 'smaller' });
    const tp = loadExperiment(join(ROOT, 'programs', 'threadpool'));
    const tpJob = jobOf(
      expand([tp], 'smoke', { variants: ['c-pool'], params: { cache: ['warm'], pool: [4], work: ['read'] } })[0]!,
    );
    const v = processValues(tpJob, {
      wall: 0.02,
      report: { files: 20, bytes: 2e6, jobs: 0, batch_ms: 3, files_per_s: 6000, mb_per_s: 600 },
      items: { latency: [1, 2, 3, 4] },
    });
    // Self-timed: the program's own figures, one value per run, latency percentiles of this run.
    expect(v.batch_ms).toEqual({ value: 3, unit: 'ms', direction: 'smaller' });
    expect(v.latency_p50?.value).toBeCloseTo(2.5);
    expect(v).not.toHaveProperty('max_rss');
    expect(leadMetric(tpJob, v).metric).toBe('latency_p50');
  });

  it('plants a busy-wait after every read and refuses a source it cannot find the read in', () => {
    const src = readFileSync(join(ROOT, 'programs', 'wc', 'wc-c.c'), 'utf8');
    const out = plantedWc(src, 1000);
    expect(out).toContain('#include <time.h>');
    expect(out).toMatch(/read\(STDIN_FILENO[^\n]*\n[^\n]*planted slowdown[^\n]*\n[^\n]*< 1000L\); }/);
    expect(() => plantedWc('int main(void) { return 0; }', 1000)).toThrow(/read\(\) line/);
  });

  const point = pairsPoint;
  const comparison = (points: PairsComparison['points']): PairsComparison => ({
    ...pairsComparison(points),
    incomparable: [{ benchmark: 'wc/c/bs=1', metric: '*', reason: 'workload changed: bytes 1 → 2' }],
  });

  it('renders one row per point with pairs, interval and an honest "ran out of budget"', () => {
    const md = renderPairsComparison(
      comparison([
        point(),
        point({ benchmark: 'x', variant: 'c', stop: 'decided', lead: { ...point().lead, verdict: 'unchanged' } }),
      ]),
    );
    // The older artifact's changed workload was not measured: counted as such, the sum holds.
    expect(md).toMatch(/^## Performance: 0 slower · 0 faster · 1 unchanged · 1 inconclusive · 1 not measured\n/);
    expect(md).toContain('| inconclusive | 1 | 1 ran out of budget |');
    expect(md).toContain('| wc node-stream bs=65536 runtime=node22 | read_cost | 5.00 µs | 5.10 µs |');
    // The exact counter change is a verdict beside the timing's.
    expect(md).toMatch(
      /\+2\.0% \| −3\.0% … \+8\.0% \(98\.0%\) \| 60 \| counters changed · time inconclusive \(ran out of budget\)/,
    );
    expect(md).toContain('| read 1,024→1,025 |');
    // Folded: the other metrics are one line per point, not rows of their own.
    expect(md).toMatch(/Other metrics of these points[\s\S]*wall_time 50\.00 ms→51\.00 ms \+1\.0% \(unchanged\)/);
    expect(md).toContain('Not comparable: 1');
    expect(md).toContain('workload changed: bytes 1 → 2');
    expect(md).toContain('120 pairs in 9.8 min (budget 10.0 min)');
    // With set-up and a deadline (newer artifacts), the footer splits the time.
    const timed = comparison([point()]);
    timed.budget = { seconds: 720, spentSeconds: 1110, setupSeconds: 390, deadlineSeconds: 1140 };
    expect(renderPairsComparison(timed)).toContain(
      '60 pairs; 18.5 min in all: set-up 6.5 min, pairs 12.0 min (budget 12.0 min, deadline 19.0 min)',
    );
  });

  it('a point the deadline left without pairs is counted in one line, not shown as a row', () => {
    const none = point({ pairs: 0, lead: { ...point().lead, baseMedian: 0, headMedian: 0, ratio: 1 } });
    const md = renderPairsComparison(comparison([none]));
    expect(md).toContain(
      '| not measured | 2 | 1 got no pairs (budget), 1 workload changed (an older diff did not measure those) |',
    );
    expect(md).not.toContain('| wc node-stream bs=65536');
    expect(md).not.toContain('0.0 ns');
  });

  it('the paired schema reads its older versions and refuses any other, and any other kind', () => {
    expect(PairsComparison.parse(comparison([point()])).schema).toBe(2);
    expect(PairsComparison.parse({ ...comparison([point()]), schema: 3 }).schema).toBe(3);
    expect(PairsComparison.parse({ ...comparison([point()]), schema: 4, kind: 'pairs' }).kind).toBe('pairs');
    expect(PairsComparison.parse({ ...comparison([point()]), schema: 5, kind: 'pairs' }).schema).toBe(5);
    expect(() => PairsComparison.parse({ ...comparison([]), schema: 6, kind: 'pairs' })).toThrow();
    expect(() => PairsComparison.parse({ ...comparison([]), schema: 1 })).toThrow();
    expect(() => PairsComparison.parse({ ...comparison([]), schema: 4, kind: 'quick-look' })).toThrow();
  });
});
