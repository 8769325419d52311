/**
 * One workflow run under act, host mode, offline and contained: its own HOME, TMPDIR, action
 * cache and tool cache (seeded, stand-ins.ts), artifact server folder and log, all under the
 * world's root; every `uses:` resolved to its local copy (pins.ts); git's "network" is
 * configuration in the steps' environment that sends https://github.com/REPOSITORY (and the
 * x-access-token URL github-action-benchmark pushes to) to the world's bare repository. What
 * the run did is read back from `act --json -v`: each job's result, each step's outcome (skipped
 * ones too, with the condition that skipped them), output and step summary.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { findAct } from './act.js';
import type { StandInApi } from './github-api.js';
import { localActions } from './pins.js';
import { npmStandIn, seedToolCache } from './stand-ins.js';
import { type ActWorld, REPOSITORY } from './world.js';

export const TOKEN = 'act-test-token-0123456789';

export interface StepOutcome {
  name: string;
  stage: string;
  result: 'success' | 'failure' | 'skipped' | undefined;
  /** The condition act gave for skipping it. */
  skippedBecause?: string;
  /** What the step printed (its commands' messages included). */
  output: string;
}
interface JobOutcome {
  result: 'success' | 'failure' | undefined;
  steps: StepOutcome[];
  /** Everything the job's steps wrote to GITHUB_STEP_SUMMARY. */
  summary: string;
}
export interface ActRun {
  status: number;
  jobs: Record<string, JobOutcome>;
  /** The run's artifacts: <name>/<name>.zip. */
  artifacts: string;
  dir: string;
  /** The whole JSON log, for failure messages. */
  log: string;
  /** Every npm command the steps ran, with the folder it ran in (the npm stand-in's record). */
  npm: { cwd: string; args: string }[];
}

export interface RunSpec {
  world: ActWorld;
  /** Path of the workflow file, relative to the world's clone. */
  workflow: string;
  event: string;
  payload: Record<string, unknown>;
  inputs?: Record<string, string>;
  vars?: Record<string, string>;
  job?: string;
  api?: StandInApi;
  /** Extra environment for act and so for every step (host mode). */
  env?: Record<string, string>;
  /** A name for the run's folder. */
  name: string;
  /** What setup-node and setup-go will ask for. */
  tools?: { node?: string[]; go?: string[] };
}

const freePort = () =>
  new Promise<number>((ok, fail) => {
    const s = createServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => ok(port));
    });
  });

interface LogLine {
  jobID?: string;
  step?: string;
  stage?: string;
  stepResult?: string;
  jobResult?: string;
  msg?: string;
  level?: string;
  raw_output?: boolean;
  command?: string;
  content?: string;
}

/** Jobs and steps from act's --json log. */
function parseActLog(text: string): Record<string, JobOutcome> {
  const jobs: Record<string, JobOutcome> = {};
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    let j: LogLine;
    try {
      j = JSON.parse(line) as LogLine;
    } catch {
      continue;
    }
    if (!j.jobID) continue;
    const job = (jobs[j.jobID] ??= { result: undefined, steps: [], summary: '' });
    if (j.jobResult) job.result = j.jobResult as JobOutcome['result'];
    if (j.command === 'summary' && j.content) job.summary += j.content;
    if (!j.step || !j.stage) continue;
    // A step's lines follow its start ("⭐ Run ..."); a skipped step has one line, with its result.
    let step = [...job.steps].reverse().find((s) => s.name === j.step && s.stage === j.stage);
    if (!step || (step.result && (j.msg?.startsWith('⭐') || j.stepResult))) {
      step = { name: j.step, stage: j.stage, result: undefined, output: '' };
      job.steps.push(step);
    }
    if (j.stepResult) {
      step.result = j.stepResult as StepOutcome['result'];
      const because = /^Skipping step '.*' due to '(.*)'$/s.exec(j.msg ?? '')?.[1];
      if (because !== undefined) step.skippedBecause = because;
    }
    if (j.raw_output || (j.level !== 'debug' && j.command && j.command !== 'debug')) step.output += j.msg ?? '';
  }
  return jobs;
}

/** The main-stage step named `name` of a job. */
export function step(run: ActRun, job: string, name: string | RegExp): StepOutcome {
  const steps = run.jobs[job]?.steps.filter((s) => s.stage === 'Main') ?? [];
  const found = steps.find((s) => (typeof name === 'string' ? s.name === name : name.test(s.name)));
  if (!found) throw new Error(`no step ${name} in job ${job}: ${steps.map((s) => s.name).join(' | ')}`);
  return found;
}

/** The end of the log of the step that failed, for assertion messages. */
export function why(run: ActRun): string {
  for (const [id, job] of Object.entries(run.jobs))
    for (const s of job.steps) if (s.result === 'failure') return `${id} / ${s.name}:\n${s.output.slice(-4000)}`;
  return `act exited ${run.status}; no step failed:\n${run.log.slice(-3000)}`;
}

/** Runs a workflow under act and reads back what it did. */
export async function runAct(spec: RunSpec): Promise<ActRun> {
  const act = findAct();
  if (!act.bin) throw new Error(act.why);
  const actions = localActions();
  if (actions.missing.length) throw new Error(`no local copy of ${actions.missing.join('; ')}`);
  const dir = join(spec.world.root, 'runs', spec.name);
  const [home, tmp, cache, artifacts] = ['home', 'tmp', 'action-cache', 'artifacts'].map((d) => join(dir, d)) as [
    string,
    string,
    string,
    string,
  ];
  for (const d of [home, tmp, cache, artifacts]) mkdirSync(d, { recursive: true });
  seedToolCache(join(cache, 'tool_cache'), spec.tools ?? {});
  const bin = npmStandIn(join(dir, 'bin'));
  const event = join(dir, 'event.json');
  writeFileSync(event, JSON.stringify(spec.payload));
  const remote = `file://${spec.world.remote}`;
  const gitNetwork = [
    `https://github.com/${REPOSITORY}`,
    `https://github.com/${REPOSITORY}.git`,
    `https://x-access-token:${TOKEN}@github.com/${REPOSITORY}.git`,
  ];
  const stepEnv: Record<string, string> = {
    HOME: home,
    TMPDIR: tmp,
    JSIO_ACT_NPM_LOG: join(dir, 'npm.log'),
    GIT_CONFIG_COUNT: String(gitNetwork.length),
    ...Object.fromEntries(
      gitNetwork.flatMap((url, i) => [
        [`GIT_CONFIG_KEY_${i}`, `url.${remote}.insteadOf`],
        [`GIT_CONFIG_VALUE_${i}`, url],
      ]),
    ),
    ...(spec.api ? { GITHUB_API_URL: spec.api.url } : {}),
    ...spec.env,
  };
  const args = [
    spec.event,
    '-W',
    spec.workflow,
    '-e',
    event,
    ...(spec.job ? ['-j', spec.job] : []),
    '-P',
    'self-hosted=-self-hosted',
    '-P',
    'ubuntu-24.04=-self-hosted',
    '--no-skip-checkout',
    '--action-offline-mode',
    '--action-cache-path',
    cache,
    '--artifact-server-path',
    artifacts,
    '--artifact-server-addr',
    '127.0.0.1',
    '--artifact-server-port',
    String(await freePort()),
    '--no-cache-server',
    ...actions.flags.flatMap((f) => ['--local-repository', f]),
    '-s',
    `GITHUB_TOKEN=${TOKEN}`,
    ...Object.entries(spec.inputs ?? {}).flatMap(([k, v]) => ['--input', `${k}=${v}`]),
    ...Object.entries(spec.vars ?? {}).flatMap(([k, v]) => ['--var', `${k}=${v}`]),
    ...Object.entries(stepEnv).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
    '--json',
    '-v',
  ];
  const logFile = join(dir, 'act.log');
  const env = {
    PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    LANG: 'C.UTF-8',
    ...stepEnv,
  };
  // Written as it comes, so a run still going can be followed (JSIO_KEEP_TMP=1 keeps it).
  const out = openSync(logFile, 'w');
  const status = await new Promise<number>((ok) => {
    const p = spawn(act.bin!, args, { cwd: spec.world.repo, env, stdio: ['ignore', out, out] });
    p.on('error', () => ok(127));
    p.on('close', (code) => ok(code ?? 1));
  });
  closeSync(out);
  const log = readFileSync(logFile, 'utf8');
  // act's run id is 1: the artifact server keeps each run's artifacts under <path>/1/.
  const npm = existsSync(join(dir, 'npm.log'))
    ? readFileSync(join(dir, 'npm.log'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [cwd = '', args = ''] = line.split('\t');
          return { cwd, args };
        })
    : [];
  const run: ActRun = { status, jobs: parseActLog(log), artifacts: join(artifacts, '1'), dir, log, npm };
  return run;
}
