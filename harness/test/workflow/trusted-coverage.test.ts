// The comment job holds the diff to the trusted plan (made before any pull-request code ran) by
// rules that fail closed: a point is answered by a judged verdict, by breaking or being fixed, by a
// one-sided existence the plan agrees with, or by a skip on both sides for an accepted reason;
// failed on both sides, skipped for another reason, or missing is not. Each hole is planted.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DiffPlan } from '../../src/formats/diff-plan-format.js';
import type { PairsComparison } from '../../src/formats/pairs-format.js';
import type { TranscriptVerdict, TranscriptVerdictFile } from '../../src/formats/transcript-format.js';
import { parseGateRule } from '../../src/pairs/decide/merge-gate.js';
import { commentFromArtifact } from '../../src/workflow/artifact.js';
import { judgeDiff, NO_RECORD, trustedPlanOf } from '../../src/workflow/judgement.js';
import { coverageProblem, unansweredPoints } from '../../src/workflow/trusted-coverage.js';
import { honestComparison, pairRecord, recordedPoint } from '../helpers/pair-record.js';

const measured = 'wc/c/bs=4096';
const plan = (affected: string[], control: string[] = [], over: Partial<DiffPlan> = {}): DiffPlan => ({
  schema: 2,
  kind: 'pairs-plan',
  base: { root: '/b', commit: 'a'.repeat(40) },
  head: { root: '/h', commit: 'b'.repeat(40) },
  profile: 'quick',
  affected: affected.map((benchmark) => ({ benchmark, reasons: ['changed: programs/wc/wc-c.c'] })),
  control,
  notAffected: [],
  harnessChange: { changed: false, files: [], why: '' },
  ...over,
});
const record = pairRecord([recordedPoint(measured, 1.0)]);
const comparison = (edit: (c: PairsComparison) => void = () => {}) => {
  const c = honestComparison(record);
  edit(c);
  return c;
};
const why = (p: DiffPlan, c: PairsComparison) => unansweredPoints(p, c).map((u) => `${u.benchmark}: ${u.why}`);

/** What the recordings of both harnesses said: the same runs, or one difference. */
const verdict = (same: boolean): TranscriptVerdict => ({
  bench: ['--profile', 'quick'],
  runs: { same, alike: 50, differences: same ? [] : [{ what: 'bash: `a` → `b`', runs: 3 }], more: 0 },
  numbers: { same: true, compared: 40, notReplayed: 0, moves: [] },
  exits: { base: 0, head: 0 },
  seconds: 30,
});
/** The uploaded transcripts.json of the plan's commits (or of another head). */
const recorded = (v: TranscriptVerdict, head = 'b'.repeat(40)): TranscriptVerdictFile => ({
  schema: 1,
  kind: 'transcript-verdict',
  base: { commit: 'a'.repeat(40) },
  head: { commit: head },
  verdict: v,
});

describe('trusted coverage', () => {
  it('a judged row answers; a point neither measured nor listed does not', () => {
    expect(why(plan([measured]), comparison())).toEqual([]);
    expect(why(plan([measured, 'wc/data/bs=1'], ['scan/c/x=1']), comparison())).toEqual([
      'wc/data/bs=1: neither measured nor listed',
      'scan/c/x=1: a control point neither measured nor listed',
    ]);
    expect(
      coverageProblem(plan([measured], [], { head: { root: '/h', commit: 'c'.repeat(40) } }), comparison())?.line,
    ).toMatch(/not of the commits this diff measured/);
  });

  it('failed on both sides is unanswered; on the head only it is broken (answered)', () => {
    const id = 'wc/dd/bs=1';
    const fail = (side: 'base' | 'head') => ({ benchmark: id, side, status: 'failed' as const, reason: 'exit 1' });
    expect(
      why(
        plan([id]),
        comparison((c) => c.notMeasured.push(fail('head'), fail('base'))),
      ),
    ).toEqual([`${id}: failed on both sides`]);
    expect(
      why(
        plan([id]),
        comparison((c) => c.notMeasured.push(fail('head'))),
      ),
    ).toEqual([]);
  });

  it('a skip answers only on both sides, for an accepted reason (a runtime not installed here)', () => {
    const id = 'wc/just-sync/bs=1,runtime=just';
    const skip = (side: 'base' | 'head', reason: string) => ({
      benchmark: id,
      side,
      status: 'skipped' as const,
      reason,
    });
    const missing = 'just(js) is not installed (no `just` on PATH)';
    expect(
      why(
        plan([id]),
        comparison((c) => c.notMeasured.push(skip('base', missing), skip('head', missing))),
      ),
    ).toEqual([]);
    expect(
      why(
        plan([id]),
        comparison((c) => c.notMeasured.push(skip('head', missing))),
      ),
    ).toEqual([`${id}: not measured for a reason not accepted`]);
    const excuse = 'the diff was interrupted before this point was measured';
    expect(
      why(
        plan([id]),
        comparison((c) => c.notMeasured.push(skip('base', excuse), skip('head', excuse))),
      ),
    ).toEqual([`${id}: not measured for a reason not accepted`]);
  });

  it('new or removed only where the plan says one side lacks it', () => {
    const id = 'wc/new/bs=1';
    const c = comparison((x) => x.added.push({ benchmark: id, side: 'head' }));
    expect(why(plan([id]), c)).toEqual([`${id}: listed as new, yet both sides have it`]);
    const onlyHead = { ...plan([]), affected: [{ benchmark: id, reasons: ['only the head has it'] }] };
    expect(why(onlyHead, c)).toEqual([]);
  });

  it('under a fallback (an experiment the plan could not read) an inconclusive point is unanswered', () => {
    const fallback = plan([measured], [], { unreadable: [{ experiment: 'wc', side: 'head', reason: 'unknown key' }] });
    const c = comparison((x) => {
      x.points[0]!.lead = { ...x.points[0]!.lead, verdict: 'inconclusive' };
    });
    expect(why(plan([measured]), c)).toEqual([]);
    expect(why(fallback, c)).toEqual([
      `${measured}: left undecided in an experiment the base's harness could not read`,
    ]);
  });

  it('a harness change the plan found and the diff did not measure fails', () => {
    const changed = plan([measured], [], {
      harnessChange: { changed: true, files: ['harness/src/run/measure.ts'], why: '1 measuring file(s) differ' },
    });
    expect(coverageProblem(changed, comparison())?.line).toMatch(
      /found the harness changed .* did not measure what that change does/,
    );
  });
});

describe('a harness change answered by its recordings, without timing', () => {
  const changed = plan([measured], [], {
    harnessChange: { changed: true, files: ['harness/src/run/measure.ts'], why: '1 measuring file(s) differ' },
  });
  const untimed = (v: TranscriptVerdict) =>
    comparison((c) => {
      c.harnessShift = {
        files: ['harness/src/run/measure.ts'],
        profile: 'quick',
        rounds: 0,
        seed: 1,
        margin: 0.015,
        experiments: [],
        notMeasured: [],
        transcript: v,
      };
    });

  it('holds when the recordings the base uploaded show both measuring the same, as the diff reports', () => {
    expect(coverageProblem(changed, untimed(verdict(true)), recorded(verdict(true)))).toBeUndefined();
  });

  it.each([
    ['no recordings of both harnesses were uploaded', undefined, verdict(true)],
    ['of other commits', recorded(verdict(true), 'c'.repeat(40)), verdict(true)],
    ['show the two harnesses run programs differently', recorded(verdict(false)), verdict(true)],
    ['not what was uploaded', recorded(verdict(true)), { ...verdict(true), seconds: 1 }],
  ])('fails when %s', (what, file, reported) => {
    expect(coverageProblem(changed, untimed(reported), file)?.line).toContain(what);
  });

  it('holds untimed when the recordings show the same runs and numbers made differently (listed, exact)', () => {
    const numbers = {
      ...verdict(true),
      numbers: {
        same: false,
        compared: 40,
        notReplayed: 0,
        moves: [{ what: 'wc wall_time: median → mean', benchmarks: 9 }],
      },
    };
    expect(coverageProblem(changed, untimed(numbers), recorded(numbers))).toBeUndefined();
  });

  it("holds with differences only in points' own timed commands when each of those points was timed in pairs", () => {
    // The recordings of the plan's commits: one point, timed with other commands by the head's harness.
    const paired: TranscriptVerdict = {
      ...verdict(false),
      runs: {
        same: false,
        alike: 50,
        differences: [{ what: 'hyperfine: `a` → `b`', runs: 1, kind: 'program', points: 1 }],
        more: 0,
        inPoints: [measured],
        replay: [{ point: measured, base: ['a'], head: ['b'] }],
      },
    };
    const answered = untimed(paired);
    answered.harnessShift!.paired = [measured];
    expect(coverageProblem(changed, answered, recorded(paired))).toBeUndefined();
    // The same recordings, the point not measured in pairs: unanswered.
    const unanswered = comparison((c) => {
      c.harnessShift = { ...answered.harnessShift! };
      c.points = [];
    });
    expect(coverageProblem(changed, unanswered, recorded(paired))?.line).toContain(
      `1 point the recordings time with other commands has no answer from pairs (${measured})`,
    );
    // Another difference besides, which only the timed shift answers: rounds were owed.
    const more: TranscriptVerdict = {
      ...paired,
      runs: { ...paired.runs, inPoints: [measured, 'wc/c/bs=65536'] },
    };
    expect(coverageProblem(changed, untimed(more), recorded(more))?.line).toContain(
      'show the two harnesses run programs differently',
    );
  });

  it("the comment shows the uploaded recordings, not the measuring harness's", () => {
    const r = judgeDiff(
      untimed({ ...verdict(true), seconds: 1 }),
      record,
      { plan: changed, recorded: recorded(verdict(true)) },
      parseGateRule('broken'),
    );
    expect(r.fail).toBe(true);
    expect(r.comparison.harnessShift?.transcript?.seconds).toBe(30);
  });
});

describe('a diff that times nothing may leave its control unmeasured, and only then', () => {
  const control = ['scan/c/x=1', 'wc/dd/bs=1'];
  const nothing = (untimed: boolean) =>
    comparison((c) => {
      c.points = [];
      if (untimed) c.untimed = true;
    });
  const changed = plan([], control, {
    harnessChange: { changed: true, files: ['harness/src/run/measure.ts'], why: '1 measuring file(s) differ' },
  });
  const missing = (p: DiffPlan, c: PairsComparison, f?: TranscriptVerdictFile) =>
    unansweredPoints(p, c, f).map((u) => u.benchmark);

  it('no point affected and the harness unchanged: excused when the diff says it timed nothing', () => {
    expect(missing(plan([], control), nothing(true))).toEqual([]);
    // Without its own claim the control is still owed.
    expect(missing(plan([], control), nothing(false))).toEqual(control);
  });

  it('a point the plan calls affected, or a timed row, keeps the control owed', () => {
    expect(missing(plan([measured], control), nothing(true))).toEqual([measured, ...control]);
    const timed = comparison((c) => {
      c.untimed = true;
    });
    expect(missing(plan([], control), timed)).toEqual(control);
  });

  it('a changed harness: excused only by uploaded recordings of the plan commits that need no timing', () => {
    expect(missing(changed, nothing(true), recorded(verdict(true)))).toEqual([]);
    expect(missing(changed, nothing(true))).toEqual(control);
    expect(missing(changed, nothing(true), recorded(verdict(false)))).toEqual(control);
    expect(missing(changed, nothing(true), recorded(verdict(true), 'c'.repeat(40)))).toEqual(control);
  });
});

describe('the judgement: recomputed verdicts, the rule, the plan', () => {
  const rule = parseGateRule('broken');
  it('passes with a plan, a record and every point answered; fails without a plan or a record, saying why', () => {
    expect(judgeDiff(comparison(), record, { plan: plan([measured]) }, rule)).toMatchObject({ fail: false });
    expect(
      judgeDiff(comparison(), record, { missing: 'the trusted job could not plan this diff: exit 2' }, rule),
    ).toMatchObject({
      fail: true,
      because: expect.stringContaining('no trusted plan: the trusted job could not plan this diff: exit 2'),
    });
    expect(judgeDiff(comparison(), undefined, { plan: plan([measured]) }, rule)).toMatchObject({
      fail: true,
      because: expect.stringContaining(NO_RECORD.slice(0, 40)),
    });
  });

  it("the uploaded plan and the comment job's own: the union of what they call affected, the difference noted", () => {
    const t = trustedPlanOf(plan([measured, 'wc/x/bs=1']), plan([measured]), '');
    expect('plan' in t && t.plan.affected.map((a) => a.benchmark)).toEqual([measured, 'wc/x/bs=1']);
    expect('plan' in t && t.note).toMatch(/1 affected point\(s\) only the uploaded plan names/);
    expect(trustedPlanOf(undefined, undefined, 'no plan artifact')).toEqual({ missing: 'no plan artifact' });
  });

  it('the comment leads with the check as the default branch decided it, markup from the artifact escaped', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-trusted-'));
    const hostile = 'wc/<img src=x>/bs=1';
    writeFileSync(join(dir, 'comparison.json'), JSON.stringify(comparison()));
    writeFileSync(join(dir, 'pairs.json'), JSON.stringify(record));
    writeFileSync(join(dir, 'pr-number'), '42');
    const { body, judgement } = commentFromArtifact(dir, '42', rule, { plan: plan([measured, hostile]) });
    expect(judgement.fail).toBe(true);
    expect(body).toMatch(
      /\*\*Merge check \(decided by the default branch's code\): fails\*\* — 1 point the trusted plan names has no answer/,
    );
    expect(body).toContain('wc/&lt;img src=x&gt;/bs=1');
    expect(body).not.toContain('<img');
    expect(commentFromArtifact(dir, '42', rule, { plan: plan([measured]) }).body).toContain('): passes**');
  });
});
