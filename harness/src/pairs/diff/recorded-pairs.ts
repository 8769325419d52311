/**
 * A point a harness change moves only inside its own timed commands (the transcripts' `replay`),
 * made a pair of jobs: one template job, the measuring harness's plan of the head's program, run
 * once with the commands the base's harness timed and once with the head's, as the recordings show
 * them. Both run in the template's sandbox under the one pair timer, so the pair compares exactly
 * what the two harnesses start, and nothing else of theirs. Pure.
 */
import { pointsToPair, type TranscriptVerdict } from '../../formats/transcript-format.js';
import { translate } from '../../machine/sandbox/argv.js';
import { commandLine, freezeJob, type Job, type JobCommand } from '../../model/job.js';
import type { SandboxRoot } from '../../model/sandbox.js';
import type { ImpactPlan } from '../decide/impact.js';
import type { Matched } from '../engine/diff-sides.js';
import type { PointPlan } from '../engine/executor.js';
import { RECORDED_REASON } from '../harness-shift/shift-section.js';

type Replay = NonNullable<TranscriptVerdict['runs']['replay']>[number];

const PREFIX = 'set -o pipefail; ';
/**
 * A timed command as hyperfine is handed it inside the job's sandbox (hyperfine-runner.ts, its
 * host paths translated): what the recordings list.
 */
const timedLine = (job: Job) => (c: Pick<Job, 'command'>) =>
  translate(`${PREFIX}${commandLine(c)}`, job.sandbox?.roots ?? []);
/** A recorded command as a job's: the whole line its program (the timer adds the prefix again). */
const asCommand = (line: string): JobCommand => ({
  generatorPin: '',
  assignments: '',
  pin: '',
  program: line.startsWith(PREFIX) ? line.slice(PREFIX.length) : line,
});

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x) => b.includes(x)) && b.every((x) => a.includes(x));

/**
 * A line as compared with another of the same sandbox: a folder bound at two paths inside (one
 * just(js) installation as both its home and its target, as the paired diff binds it) is written by
 * the first of them, so `/jsio/just/target/just` and `/jsio/just/home/just` name one program.
 */
function canonical(roots: readonly SandboxRoot[]): (line: string) => string {
  const first = new Map<string, string>();
  const aliases: SandboxRoot[] = [];
  for (const r of roots) {
    if (r.alias) continue;
    const inside = first.get(r.host);
    if (inside === undefined) first.set(r.host, r.inside);
    else if (inside !== r.inside) aliases.push({ host: r.inside, inside });
  }
  return (line) => translate(line, aliases);
}

const envOf = (pairs: readonly [string, string][]) => Object.fromEntries(pairs) as Record<string, string>;
const sameEnv = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

/**
 * `job` timing `lines` instead of its own commands, by `mine` (its own, in the recording's order),
 * in its sandbox with `env` when given. A fit times its sizes only: its job command stays when
 * hyperfine did not time it.
 */
function withLines(
  job: Job,
  mine: readonly string[],
  lines: readonly string[],
  env?: Readonly<Record<string, string>>,
): Job {
  const same = canonical(job.sandbox?.roots ?? []);
  const swap = (c: Pick<Job, 'command'>) => {
    const at = mine.map(same).indexOf(same(timedLine(job)(c)));
    return at < 0 ? c.command : asCommand(lines[at]!);
  };
  return freezeJob({
    ...job,
    ...(env && job.sandbox ? { sandbox: Object.freeze({ ...job.sandbox, env: Object.freeze({ ...env }) }) } : {}),
    command: swap(job),
    ...(job.sizes ? { sizes: job.sizes.map((s) => ({ ...s, command: swap(s) })) } : {}),
  });
}

/**
 * The pair of jobs for `replay` from `plan` (whose head job is the template), or why there is none:
 * the measuring harness must plan the very commands one side's recording timed, or it would not
 * know which of its sizes each recorded command is.
 */
export function recordedPlan(plan: PointPlan, replay: Replay): PointPlan | { why: string } {
  const template = plan.head;
  const sandbox = template.sandbox;
  if (!sandbox) return { why: 'it has no sandbox here, and the recorded commands name paths inside one' };
  if (plan.kind === 'self') return { why: 'it times itself, and hyperfine timed it in the recordings' };
  const own = (template.sizes ?? [template]).map(timedLine(template));
  if (template.sizes?.some((s) => !Number.isFinite(s.expected)))
    return { why: 'its operation counts per size are known only from a check run' };
  // The side whose recording is this harness's own plan: its commands, and its environment when they differ.
  const env = replay.env && { base: envOf(replay.env.base), head: envOf(replay.env.head) };
  const same = canonical(sandbox.roots);
  const planned = (side: 'base' | 'head') =>
    sameSet(own.map(same), replay[side].map(same)) && (!env || sameEnv(sandbox.env, env[side]));
  const mine = planned('head') ? replay.head : planned('base') ? replay.base : undefined;
  if (!mine) {
    const first = own[0] ?? '';
    return {
      why: `this harness plans other timed commands${env ? ' or another environment' : ''} than either side's recording (\`${first.length > 200 ? `${first.slice(0, 197)}…` : first}\`): it cannot tell which size each is`,
    };
  }
  return {
    ...plan,
    base: withLines(template, mine, replay.base, env?.base),
    head: withLines(template, mine, replay.head, env?.head),
    // The program is the same: the harness that starts it changed (the comment says so by its reason).
    changed: false,
    impact: 'affected',
    recordedCommands: true,
  };
}

/**
 * The points to time with each side's recorded commands: the transcripts' replay points that both
 * sides plan and that no program change of the pull request affects already (its pairs answer it),
 * each marked affected in `impact` with RECORDED_REASON.
 */
export function takeRecorded(
  transcripts: TranscriptVerdict | undefined,
  planned: { base: ReadonlySet<string>; head: ReadonlySet<string> },
  impact: ImpactPlan,
  log: (m: string) => void,
): Map<string, Replay> {
  const out = new Map<string, Replay>();
  for (const r of transcripts ? pointsToPair(transcripts) : []) {
    if (!planned.base.has(r.point) || !planned.head.has(r.point)) continue;
    if (impact.affected.has(r.point)) {
      log(`pairs: ${r.point} is affected by the pull request's programs; its pairs answer the harness's change too`);
      continue;
    }
    out.set(r.point, r);
    impact.measure.set(r.point, 'affected');
    impact.affected.set(r.point, [RECORDED_REASON]);
  }
  impact.notAffected = impact.notAffected.filter((n) => !out.has(n.benchmark));
  if (out.size)
    log(
      `pairs: ${out.size} point(s) the harness change moves only in their own timed commands or their environment, timed in pairs with each side's recorded ones: ${[...out.keys()].join(', ')}`,
    );
  return out;
}

/**
 * `matched` with each recorded point's plan made a pair of its recorded commands; one that cannot
 * be (recordedPlan's why) is listed as not measured, with the reason.
 */
export function withRecordedPlans(matched: Matched, recorded: ReadonlyMap<string, Replay>): Matched {
  if (!recorded.size) return matched;
  const plans: PointPlan[] = [];
  const notMeasured = [...matched.notMeasured];
  for (const p of matched.plans) {
    const r = recorded.get(p.id);
    const made = r ? recordedPlan(p, r) : p;
    if (!('why' in made)) plans.push(made);
    else
      notMeasured.push({
        benchmark: p.id,
        side: 'head',
        status: 'skipped',
        reason: `not timed with the recorded commands: ${made.why}`.slice(0, 2000),
      });
  }
  return { ...matched, plans, notMeasured };
}
