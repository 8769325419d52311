/**
 * Runs a job of one of the repository's workflow files the way a runner does, on this machine:
 * every `run:` step in order, in bash (`bash --noprofile --norc -eo pipefail`), with GitHub's
 * variables (GITHUB_SHA, GITHUB_WORKSPACE, GITHUB_EVENT_PATH, RUNNER_TEMP, ...), the environment
 * files honoured between steps (GITHUB_ENV, GITHUB_OUTPUT, GITHUB_PATH, GITHUB_STEP_SUMMARY),
 * `if:` and `${{ }}` evaluated with GitHub's rules (gh-expr.ts), `continue-on-error` and
 * `working-directory` respected. `uses:` steps are reproduced by handlers (checkout = git from a
 * local bare repository standing in for github.com; upload/download-artifact = copies; see
 * localActions). The steps are read from the YAML, so the test exercises the workflow as written.
 * "The network" is git URL rewriting in the environment (GIT_CONFIG_*): https://github.com/<repo>
 * is the local bare repository, any other https:// URL fails.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { type ExprContext, evaluate, evaluateIf, interpolate, toText, truthy } from './gh-expr.js';

interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
  'working-directory'?: string;
  'continue-on-error'?: boolean | string;
}
interface Job {
  if?: string;
  needs?: string | string[];
  env?: Record<string, unknown>;
  steps: Step[];
  environment?: unknown;
  permissions?: Record<string, string>;
}
export interface Workflow {
  name: string;
  'run-name'?: string;
  env?: Record<string, unknown>;
  jobs: Record<string, Job>;
}

export function readWorkflow(file: string): Workflow {
  return parse(readFileSync(file, 'utf8')) as Workflow;
}

/** The machine and the "GitHub" a job runs against. */
export interface Runner {
  /** owner/name */
  repository: string;
  /** The bare repository standing in for https://github.com/<repository>. */
  remote: string;
  /** The job's workspace (GITHUB_WORKSPACE); reuse it to replay a second job on the same runner. */
  workspace: string;
  /** RUNNER_TOOL_CACHE: persists across jobs, like a real runner's. */
  toolCache: string;
  /** Where upload-artifact puts artifacts, by name (shared by the jobs of one test). */
  artifacts: string;
  /** HOME before the job changes it. */
  home: string;
  /** Extra environment for every step (e.g. GITHUB_API_URL of a stand-in API). */
  env?: Record<string, string>;
  runnerName?: string;
  /**
   * Bash put in front of every `run:` script: stand-ins for the few commands that need the
   * internet this machine does not have (see replay-fixture.ts), nothing else.
   */
  prelude?: string;
}

interface StepResult {
  name: string;
  outcome: 'success' | 'failure' | 'skipped';
  conclusion: 'success' | 'failure' | 'skipped';
  outputs: Record<string, string>;
  log: string;
}
export interface JobResult {
  result: 'success' | 'failure' | 'skipped';
  steps: StepResult[];
  summary: string;
  env: Record<string, string>;
  /** The step that failed the job, if any. */
  failed?: StepResult;
}

interface ActionCall {
  step: Step;
  with: Record<string, string>;
  env: Record<string, string>;
  runner: Runner;
  github: Record<string, unknown>;
  log: (s: string) => void;
}
export type ActionHandler = (call: ActionCall) => Promise<{ ok: boolean; outputs?: Record<string, string> }>;

export interface JobSpec {
  workflow: Workflow;
  job: string;
  /** github context: event_name, sha, ref, event (the payload), run_id, ... */
  github: Record<string, unknown>;
  inputs?: Record<string, string>;
  vars?: Record<string, string>;
  matrix?: Record<string, unknown>;
  needs?: Record<string, { result: string; outputs?: Record<string, string> }>;
  /** Handlers for `uses:` steps, by action (owner/name). */
  actions: Record<string, ActionHandler>;
  /** Overrides of the workflow's env: (a test knob, e.g. to measure at smoke size). */
  workflowEnv?: Record<string, string>;
  runner: Runner;
  /** Echo each step's output as it runs. */
  verbose?: boolean;
}

/** Parses GITHUB_ENV / GITHUB_OUTPUT: NAME=value lines and NAME<<DELIM heredocs. */
function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line) continue;
    const h = /^([^=<]+)<<(.+)$/.exec(line);
    if (h) {
      const body: string[] = [];
      for (i++; i < lines.length && lines[i] !== h[2]; i++) body.push(lines[i]!);
      out[h[1]!] = body.join('\n');
      continue;
    }
    const eq = line.indexOf('=');
    if (eq > 0) out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
}

function run(
  argv: string[],
  opts: { cwd: string; env: Record<string, string>; log: (s: string) => void },
): Promise<number> {
  return new Promise((ok) => {
    const p = spawn(argv[0]!, argv.slice(1), { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    p.stdout.on('data', (c: Buffer) => opts.log(c.toString()));
    p.stderr.on('data', (c: Buffer) => opts.log(c.toString()));
    p.on('close', (code) => ok(code ?? 1));
  });
}

/** git URL rewriting that makes https://github.com/<repo> the local bare repository. */
function networkEnv(runner: Runner, base: Record<string, string> = {}): Record<string, string> {
  const rules: [string, string][] = [
    [`url.file://${runner.remote}.insteadOf`, `https://github.com/${runner.repository}.git`],
    [`url.file://${runner.remote}.insteadOf`, `https://github.com/${runner.repository}`],
    ['url.file:///nonexistent-offline/.insteadOf', 'https://'],
    ['advice.detachedHead', 'false'],
    ['protocol.file.allow', 'always'],
  ];
  const out: Record<string, string> = { ...base, GIT_CONFIG_COUNT: String(rules.length), GIT_TERMINAL_PROMPT: '0' };
  rules.forEach(([k, v], i) => {
    out[`GIT_CONFIG_KEY_${i}`] = k;
    out[`GIT_CONFIG_VALUE_${i}`] = v;
  });
  return out;
}

function stringify(v: unknown): string {
  return typeof v === 'string' ? v : toText(v);
}

export async function runJob(spec: JobSpec): Promise<JobResult> {
  const { workflow, runner } = spec;
  const job = workflow.jobs[spec.job];
  if (!job) throw new Error(`no job ${spec.job} in ${workflow.name}`);
  const temp = join(dirname(runner.workspace), '..', '_temp', `${spec.job}-${Date.now()}`);
  rmSync(temp, { recursive: true, force: true });
  mkdirSync(temp, { recursive: true });
  mkdirSync(runner.workspace, { recursive: true });
  mkdirSync(runner.toolCache, { recursive: true });
  const eventPath = join(temp, 'event.json');
  writeFileSync(eventPath, JSON.stringify(spec.github.event ?? {}));
  const github: Record<string, unknown> = {
    repository: runner.repository,
    workspace: runner.workspace,
    token: 'replay-token-0123456789',
    server_url: 'https://github.com',
    run_id: '4242',
    run_attempt: '1',
    actor: 'replay',
    event_path: eventPath,
    ...spec.github,
  };
  const runnerCtx = {
    os: 'Linux',
    arch: 'X64',
    name: runner.runnerName ?? 'replay-runner',
    temp,
    tool_cache: runner.toolCache,
    workspace: dirname(runner.workspace),
  };
  const baseCtx = (): ExprContext => ({
    github,
    inputs: spec.inputs ?? {},
    vars: spec.vars ?? {},
    matrix: spec.matrix ?? {},
    needs: spec.needs ?? {},
    runner: runnerCtx,
    secrets: {},
    strategy: {},
    job: {},
  });

  const skipped: JobResult = { result: 'skipped', steps: [], summary: '', env: {} };
  if (job.if !== undefined && !evaluateIf(job.if, baseCtx())) return skipped;

  // env context: workflow env, job env, then what steps add through GITHUB_ENV.
  const envCtx: Record<string, string> = {};
  for (const [k, v] of Object.entries(workflow.env ?? {}))
    envCtx[k] = spec.workflowEnv?.[k] ?? interpolate(stringify(v), { ...baseCtx(), env: envCtx });
  for (const [k, v] of Object.entries(spec.workflowEnv ?? {})) envCtx[k] ??= v;
  for (const [k, v] of Object.entries(job.env ?? {}))
    envCtx[k] = interpolate(stringify(v), { ...baseCtx(), env: envCtx });
  const addedEnv: Record<string, string> = {};
  const paths: string[] = [];
  const steps: Record<string, { outputs: Record<string, string>; outcome: string; conclusion: string }> = {};
  const results: StepResult[] = [];
  let failed = false;
  let summary = '';

  for (const [index, step] of job.steps.entries()) {
    const name = step.name ?? step.uses ?? step.run?.split('\n')[0] ?? `step ${index}`;
    const ctx = (): ExprContext => ({ ...baseCtx(), env: { ...envCtx, ...addedEnv }, steps });
    const status = { success: !failed, failure: failed, cancelled: false };
    const record = (r: StepResult) => {
      results.push(r);
      if (step.id) steps[step.id] = { outputs: r.outputs, outcome: r.outcome, conclusion: r.conclusion };
    };
    if (!evaluateIf(step.if, ctx(), { status })) {
      record({ name, outcome: 'skipped', conclusion: 'skipped', outputs: {}, log: '' });
      continue;
    }
    const stepEnv: Record<string, string> = {};
    for (const [k, v] of Object.entries(step.env ?? {})) stepEnv[k] = interpolate(stringify(v), ctx());
    const files = {
      env: join(temp, `env-${index}`),
      output: join(temp, `output-${index}`),
      path: join(temp, `path-${index}`),
      summary: join(temp, `summary-${index}`),
    };
    for (const f of Object.values(files)) writeFileSync(f, '');
    let log = '';
    const logf = (s: string) => {
      log += s;
      if (spec.verbose) process.stderr.write(s);
    };
    const processEnv: Record<string, string> = networkEnv(runner, {
      PATH: [...paths, process.env.PATH ?? '/usr/bin:/bin'].join(':'),
      HOME: runner.home,
      LANG: 'C.UTF-8',
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_REPOSITORY: runner.repository,
      GITHUB_REPOSITORY_OWNER: runner.repository.split('/')[0]!,
      GITHUB_SHA: String(github.sha),
      GITHUB_REF: String(github.ref ?? ''),
      GITHUB_EVENT_NAME: String(github.event_name),
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_WORKSPACE: runner.workspace,
      GITHUB_RUN_ID: String(github.run_id),
      GITHUB_RUN_ATTEMPT: String(github.run_attempt),
      GITHUB_WORKFLOW: workflow.name,
      GITHUB_JOB: spec.job,
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_ENV: files.env,
      GITHUB_OUTPUT: files.output,
      GITHUB_PATH: files.path,
      GITHUB_STEP_SUMMARY: files.summary,
      RUNNER_OS: 'Linux',
      RUNNER_ARCH: 'X64',
      RUNNER_NAME: runnerCtx.name,
      RUNNER_TEMP: temp,
      RUNNER_TOOL_CACHE: runner.toolCache,
      RUNNER_WORKSPACE: dirname(runner.workspace),
      ...(runner.env ?? {}),
      ...envCtx,
      ...addedEnv,
      ...stepEnv,
    });
    let ok: boolean;
    let outputs: Record<string, string> = {};
    if (step.run !== undefined) {
      const script = interpolate(step.run, ctx());
      const file = join(temp, `step-${index}.sh`);
      writeFileSync(file, runner.prelude ? `${runner.prelude}\n${script}` : script);
      const cwd = step['working-directory']
        ? resolve(runner.workspace, interpolate(step['working-directory'], ctx()))
        : runner.workspace;
      logf(`\n=== ${spec.job}: ${name}\n`);
      ok =
        (await run(['bash', '--noprofile', '--norc', '-eo', 'pipefail', file], { cwd, env: processEnv, log: logf })) ===
        0;
    } else {
      const action = step.uses!.split('@')[0]!;
      const handler = spec.actions[action];
      if (!handler) throw new Error(`no handler for ${step.uses} (step ${name})`);
      const withValues: Record<string, string> = {};
      for (const [k, v] of Object.entries(step.with ?? {})) withValues[k] = interpolate(stringify(v), ctx());
      logf(`\n=== ${spec.job}: ${name} (${action})\n`);
      const r = await handler({ step, with: withValues, env: processEnv, runner, github, log: logf });
      ok = r.ok;
      outputs = r.outputs ?? {};
    }
    Object.assign(addedEnv, parseEnvFile(readFileSync(files.env, 'utf8')));
    outputs = { ...outputs, ...parseEnvFile(readFileSync(files.output, 'utf8')) };
    paths.unshift(...readFileSync(files.path, 'utf8').split('\n').filter(Boolean).reverse());
    summary += readFileSync(files.summary, 'utf8');
    const coe = step['continue-on-error'];
    const continueOnError =
      typeof coe === 'string' ? truthy(evaluate(coe.replace(/^\$\{\{|\}\}$/g, ''), ctx())) : coe === true;
    const outcome = ok ? 'success' : 'failure';
    const r: StepResult = { name, outcome, conclusion: ok || continueOnError ? 'success' : 'failure', outputs, log };
    record(r);
    if (!ok && !continueOnError) failed = true;
  }
  const failedStep = results.find((r) => r.conclusion === 'failure');
  return {
    result: failed ? 'failure' : 'success',
    steps: results,
    summary,
    env: { ...envCtx, ...addedEnv },
    ...(failedStep ? { failed: failedStep } : {}),
  };
}

/** Lines a `uses:` handler or a test can run with the job's environment. */
async function sh(cmd: string[], cwd: string, env: Record<string, string>, log: (s: string) => void): Promise<boolean> {
  return (await run(cmd, { cwd, env, log })) === 0;
}

/**
 * Local stand-ins for the actions the workflows use. checkout: git against the bare "GitHub"
 * (reusing an existing clone as actions/checkout does, cleaning it); setup-node, setup-go: the
 * Node.js on PATH; upload/download-artifact: copies under runner.artifacts/<name>, honouring
 * if-no-files-found. Any other action must be given by the test.
 */
export function localActions(extra: Record<string, ActionHandler> = {}): Record<string, ActionHandler> {
  const checkout: ActionHandler = async ({ with: w, env, runner, github, log }) => {
    const path = resolve(runner.workspace, w.path ?? '.');
    const ref = w.ref || String(github.sha);
    const git = (cwd: string, ...a: string[]) => sh(['git', ...a], cwd, env, log);
    if (!existsSync(join(path, '.git'))) {
      rmSync(path, { recursive: true, force: true });
      mkdirSync(path, { recursive: true });
      if (!(await git(path, 'init', '-q'))) return { ok: false };
      if (!(await git(path, 'remote', 'add', 'origin', `https://github.com/${w.repository || runner.repository}`)))
        return { ok: false };
    }
    await git(path, 'clean', '-ffdxq');
    const full = w['fetch-depth'] === '0';
    const specs = full ? ['+refs/heads/*:refs/remotes/origin/*', '+refs/tags/*:refs/tags/*'] : [];
    // A branch name, a SHA (fetched by id, as GitHub allows for any reachable commit) or a ref.
    const isSha = /^[0-9a-f]{40}$/.test(ref);
    const target = isSha ? ref : ref.startsWith('refs/') ? ref : `refs/heads/${ref}`;
    if (
      !(await git(
        path,
        'fetch',
        '-q',
        ...(full ? [] : ['--depth=1']),
        'origin',
        ...specs,
        isSha ? ref : `+${target}:refs/remotes/origin/checkout-ref`,
      ))
    )
      return { ok: false };
    const ok = await git(
      path,
      'checkout',
      '-q',
      '--force',
      '--detach',
      isSha ? ref : 'refs/remotes/origin/checkout-ref',
    );
    return { ok };
  };
  const upload: ActionHandler = async ({ with: w, runner, log }) => {
    const pattern = w.path ?? '';
    // An absolute path (the builds in the harness's cache, outside the workspace) as it is.
    const base = pattern.startsWith('/') ? '/' : runner.workspace;
    // Globs: only '*' within one path segment, as the workflows use them.
    const expand = (p: string): string[] => {
      const parts = p.split('/').filter(Boolean);
      let cur = [base];
      for (const part of parts) {
        const next: string[] = [];
        for (const c of cur) {
          if (part.includes('*')) {
            const re = new RegExp(`^${part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
            if (existsSync(c)) for (const e of readdirSync(c)) if (re.test(e)) next.push(join(c, e));
          } else if (existsSync(join(c, part))) next.push(join(c, part));
        }
        cur = next;
      }
      return cur;
    };
    const found = expand(pattern);
    const dest = join(runner.artifacts, w.name ?? 'artifact');
    if (!found.length) {
      const mode = w['if-no-files-found'] || 'warn';
      log(`upload-artifact: no files found with the provided path: ${pattern} (if-no-files-found: ${mode})\n`);
      return { ok: mode !== 'error' };
    }
    rmSync(dest, { recursive: true, force: true });
    mkdirSync(dest, { recursive: true });
    for (const f of found) cpSync(f, found.length === 1 ? dest : join(dest, relative(base, f)), { recursive: true });
    return { ok: true };
  };
  const download: ActionHandler = async ({ with: w, runner, log }) => {
    const src = join(runner.artifacts, w.name ?? 'artifact');
    if (!existsSync(src)) {
      log(`download-artifact: no artifact ${w.name}\n`);
      return { ok: false };
    }
    const dest = resolve(runner.workspace, w.path ?? '.');
    mkdirSync(dest, { recursive: true });
    cpSync(src, dest, { recursive: true });
    return { ok: true };
  };
  const noop: ActionHandler = async () => ({ ok: true });
  return {
    'actions/checkout': checkout,
    'actions/setup-node': noop,
    'actions/setup-go': noop,
    'actions/upload-artifact': upload,
    'actions/download-artifact': download,
    ...extra,
  };
}
