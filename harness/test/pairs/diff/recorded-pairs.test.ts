// A point the harness change moves only inside its own timed commands, made a pair of jobs from a
// real wc point's plan: the base harness's recorded commands against the head's (pure).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { translate } from '../../../src/machine/sandbox/argv.js';
import { commandLine } from '../../../src/model/job.js';
import type { Sandbox } from '../../../src/model/sandbox.js';
import type { ImpactPlan } from '../../../src/pairs/decide/impact.js';
import { recordedPlan, takeRecorded, withRecordedPlans } from '../../../src/pairs/diff/recorded-pairs.js';
import type { PointPlan } from '../../../src/pairs/engine/executor.js';
import { loadExperiment } from '../../../src/plan/experiments.js';
import { expand } from '../../../src/plan/plan.js';
import { ROOT } from '../../helpers/cli.js';
import { jobOf } from '../../helpers/jobs.js';

const SANDBOX: Sandbox = {
  bwrap: '/usr/bin/bwrap',
  system: [],
  roots: [{ host: ROOT, inside: '/jsio/side' }],
  masks: [],
  env: {},
};

function wcPlan(variant: string, sandbox: Sandbox | null = SANDBOX): PointPlan {
  const [point] = expand([loadExperiment(join(ROOT, 'programs', 'wc'))], 'smoke', {
    variants: [variant],
    params: { bs: [4096] },
  });
  const job = jobOf(point!, sandbox ? { sandbox } : {});
  return { id: job.id, base: job, head: job, kind: job.sizes ? 'fit' : 'process', changed: false, impact: 'control' };
}

/** What the recording of the planning harness shows hyperfine timing: its sizes' lines inside the sandbox. */
const recordedLines = (p: PointPlan) =>
  (p.head.sizes ?? [p.head]).map((s) => translate(`set -o pipefail; ${commandLine(s)}`, p.head.sandbox!.roots));
const nounset = (c: string) => c.replace('set -o pipefail;', 'set -o pipefail -o nounset;');

describe('recordedPlan', () => {
  it("times each harness's recorded line for each size, in the planning harness's sandbox", () => {
    const plan = wcPlan('c');
    expect(plan.kind).toBe('fit');
    const lines = recordedLines(plan);
    const made = recordedPlan(plan, { point: plan.id, base: lines, head: lines.map(nounset) });
    if ('why' in made) throw new Error(made.why);
    expect(made).toMatchObject({ impact: 'affected', changed: false, recordedCommands: true });
    // The pair timer adds `set -o pipefail; ` itself: the base's line is the harness's own again.
    expect(lines.join('\n')).toContain('/jsio/build/wc/c/');
    expect(made.base.sizes!.map((s) => `set -o pipefail; ${commandLine(s)}`)).toEqual(lines);
    expect(made.head.sizes!.map((s) => commandLine(s))).toEqual(lines.map(nounset));
    expect(made.base.sandbox).toBe(plan.head.sandbox);
    expect(made.head.sandbox).toBe(plan.head.sandbox);
  });

  it('maps the sizes by what the planning harness recorded, whichever side that is, in any order', () => {
    const plan = wcPlan('c');
    const lines = recordedLines(plan);
    // The head's harness plans and measures (pr.yml): its recording lists its own lines, sizes swapped.
    const made = recordedPlan(plan, { point: plan.id, base: lines.map(nounset).reverse(), head: [...lines].reverse() });
    if ('why' in made) throw new Error(made.why);
    expect(made.head.sizes!.map((s) => `set -o pipefail; ${commandLine(s)}`)).toEqual(lines);
    expect(made.base.sizes!.map((s) => commandLine(s))).toEqual(lines.map(nounset));
  });

  it("runs each side in the planning harness's sandbox with that side's recorded environment", () => {
    const plan = wcPlan('c', { ...SANDBOX, env: { LANG: 'C', TZ: 'UTC' } });
    const lines = recordedLines(plan);
    const env = {
      base: [
        ['LANG', 'C'],
        ['MALLOC_ARENA_MAX', '2'],
        ['TZ', 'UTC'],
      ] as [string, string][],
      head: [
        ['LANG', 'C'],
        ['TZ', 'UTC'],
      ] as [string, string][],
    };
    const made = recordedPlan(plan, { point: plan.id, base: lines, head: lines, env });
    if ('why' in made) throw new Error(made.why);
    expect(made.base.sandbox!.env).toEqual({ LANG: 'C', MALLOC_ARENA_MAX: '2', TZ: 'UTC' });
    expect(made.head.sandbox!.env).toEqual({ LANG: 'C', TZ: 'UTC' });
    expect(made.base.sandbox!.roots).toBe(plan.head.sandbox!.roots);
    // Neither side's environment is this harness's own: it cannot tell which recording is its plan.
    const neither = { base: env.base, head: [['LANG', 'C.UTF-8']] as [string, string][] };
    expect(recordedPlan(plan, { point: plan.id, base: lines, head: lines, env: neither })).toEqual({
      why: expect.stringMatching(
        /^this harness plans other timed commands or another environment than either side's recording \(`set -o pipefail; .*`\): it cannot tell which size each is$/,
      ),
    });
  });

  it('takes one folder bound at two paths inside as one (a just(js) installation as its home and its target)', () => {
    const plan = wcPlan('c');
    const build = plan.head.sandbox!.roots.find((r) => r.inside === '/jsio/build/wc/c')!;
    const twice = {
      ...plan.head,
      sandbox: {
        ...plan.head.sandbox!,
        roots: [...plan.head.sandbox!.roots, { host: build.host, inside: '/jsio/build/again' }],
      },
    };
    const bound = { ...plan, base: twice, head: twice };
    // The recordings name the other path of the same folder.
    const lines = recordedLines(plan).map((l) => l.replaceAll('/jsio/build/wc/c/', '/jsio/build/again/'));
    const made = recordedPlan(bound, { point: plan.id, base: lines, head: lines.map(nounset) });
    if ('why' in made) throw new Error(made.why);
    // And run as recorded: the path is bound in the sandbox.
    expect(made.head.sizes!.map((s) => commandLine(s))).toEqual(lines.map(nounset));
  });

  it('says why when it cannot', () => {
    const plan = wcPlan('c');
    const lines = recordedLines(plan);
    const other = { point: plan.id, base: lines.map((l) => `${l} x`), head: lines.map(nounset) };
    expect(recordedPlan(plan, other)).toEqual({
      why: `this harness plans other timed commands than either side's recording (\`${lines[0]}\`): it cannot tell which size each is`,
    });
    expect(recordedPlan(wcPlan('c', null), { point: plan.id, base: lines, head: lines })).toEqual({
      why: 'it has no sandbox here, and the recorded commands name paths inside one',
    });
    expect(recordedPlan({ ...plan, kind: 'self' }, { point: plan.id, base: lines, head: lines })).toEqual({
      why: 'it times itself, and hyperfine timed it in the recordings',
    });
  });
});

describe('takeRecorded and withRecordedPlans', () => {
  const plan = wcPlan('c');
  const lines = recordedLines(plan);
  const verdict = {
    bench: [],
    runs: {
      same: false,
      alike: 1,
      differences: [{ what: 'hyperfine: …', runs: 1, kind: 'program' as const, points: 2 }],
      more: 0,
      inPoints: [plan.id, 'wc/c/bs=65536'],
      replay: [
        { point: plan.id, base: lines, head: lines.map(nounset) },
        { point: 'wc/c/bs=65536', base: ['a'], head: ['b'] },
      ],
    },
    numbers: { same: true, compared: 1, notReplayed: 0, moves: [] },
    exits: { base: 0, head: 0 },
    seconds: 1,
  };

  it('marks the replayed points affected (a control point too), leaves one a program change affects', () => {
    const impact: ImpactPlan = {
      measure: new Map([
        [plan.id, 'control'],
        ['wc/c/bs=65536', 'affected'],
      ]),
      affected: new Map([['wc/c/bs=65536', ['programs/wc/wc-c.c']]]),
      notAffected: [],
    };
    const both = new Set([plan.id, 'wc/c/bs=65536']);
    const log: string[] = [];
    const taken = takeRecorded(verdict, { base: both, head: both }, impact, (m) => log.push(m));
    expect([...taken.keys()]).toEqual([plan.id]);
    expect(impact.measure.get(plan.id)).toBe('affected');
    expect(impact.affected.get(plan.id)).toEqual(["the harness's timed commands (each side's as recorded)"]);
    expect(impact.affected.get('wc/c/bs=65536')).toEqual(['programs/wc/wc-c.c']);
    expect(log.join('\n')).toContain('wc/c/bs=65536 is affected by the pull request');
    // A point only one side plans is not taken.
    const onlyHead = takeRecorded(verdict, { base: new Set(), head: both }, impact, () => {});
    expect(onlyHead.size).toBe(0);
  });

  it('swaps in the recorded pair, and lists one it cannot make as not measured, with why', () => {
    const taken = new Map(verdict.runs.replay.map((r) => [r.point, r]));
    const second = { ...plan, id: 'wc/c/bs=65536' };
    const m = withRecordedPlans({ plans: [plan, second], added: [], removed: [], notMeasured: [] }, taken);
    expect(m.plans.map((p) => [p.id, p.recordedCommands])).toEqual([[plan.id, true]]);
    expect(m.notMeasured).toEqual([
      expect.objectContaining({
        benchmark: 'wc/c/bs=65536',
        side: 'head',
        status: 'skipped',
        reason: expect.stringContaining(
          'not timed with the recorded commands: this harness plans other timed commands',
        ),
      }),
    ]);
  });
});
