/**
 * Generated inputs: an experiment's generator script writes files once per distinct argument
 * set into the cache and reports facts about them (sizes, line counts, checksums). Reused across
 * runs; keyed by the generator's whole identity (its imports, the data files it may read, its
 * spec and the node that runs it: plan/identify-inputs.ts) and its arguments, so a change to any
 * of them gives each checkout its own input. A generator whose identity cannot be proven is run
 * again by every process that needs its input. With the side's sandbox, a generator runs inside it,
 * writable only in the folder it generates into; asked to (the trace pass), under a file trace
 * too, kept beside the input it made (`.trace.json`): a cached input without one is made again
 * under trace.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Experiment } from '../formats/manifest-format.js';
import { StoredTrace } from '../formats/trace-store-format.js';
import { describeExit, runProcess } from '../lib/exec.js';
import { evaluate, type Scope } from '../lib/expr.js';
import { failureDetail } from '../lib/first-error-line.js';
import { readJsonFile } from '../lib/json-file.js';
import { writableWithin } from '../machine/sandbox/argv.js';
import { type PointTrace, runSandboxStep } from '../machine/sandbox/traced-step.js';
import type { Sandbox } from '../model/sandbox.js';
import { generatorIdentity } from './identify-inputs.js';
import { digestTree, INPUT_TRACE_FILE, inputDigest, writeDigest } from './input-digest.js';
import type { Point } from './plan.js';

/** What a generator reports about the input it wrote (sizes, counts, checksums): cached beside it. */
const InputFactsFile = z.record(z.string(), z.union([z.number(), z.string()]));
export type InputFacts = z.infer<typeof InputFactsFile>;
/**
 * `digest`: the generated files' content digest (./input-digest.ts), what the paired diff compares
 * as the input's workload; absent where no generator runs. `trace`: what the generator's processes
 * touched in the side's tree, where it ran under a file trace.
 */
export type InputResult =
  | { ok: true; dir: string; facts: InputFacts; digest?: string; trace?: PointTrace }
  | { ok: false; reason: string };

/** The generator's --name value arguments for one point: bare string parameters pass through. */
function generatorArgs(exp: Experiment, scope: Scope): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, expr] of Object.entries(exp.manifest.generate?.args ?? {})) {
    const bare = scope[expr.trim()];
    out[k] = typeof bare === 'string' ? bare : String(evaluate(expr, scope));
  }
  return out;
}

export function parseFacts(stdout: string): InputFacts {
  const last = stdout.trim().split('\n').at(-1) ?? '';
  if (!last) throw new Error('exited 0 but printed no facts line (one JSON object line on stdout)');
  let obj: unknown;
  try {
    obj = JSON.parse(last);
  } catch {
    throw new Error(`its last line is not JSON: ${JSON.stringify(last.slice(0, 120))}`);
  }
  if (!obj || typeof obj !== 'object' || Array.isArray(obj))
    throw new Error('generator must print one JSON object line');
  const facts: InputFacts = {};
  for (const [k, v] of Object.entries(obj)) {
    if (typeof v !== 'number' && typeof v !== 'string')
      throw new Error(`generator fact "${k}" must be a number or a string`);
    facts[k] = v;
  }
  return facts;
}

const cache = new Map<string, Promise<InputResult>>();

/** A generator's trace as kept beside its input, and read back (a malformed one is an error naming the file). */
function writeInputTrace(dir: string, trace: PointTrace): void {
  const { seconds: _, ...kept } = trace;
  const stored: StoredTrace = { ...kept, traced: new Date().toISOString() };
  writeFileSync(join(dir, INPUT_TRACE_FILE), JSON.stringify(stored));
}

function readInputTrace(dir: string): PointTrace | undefined {
  const file = join(dir, INPUT_TRACE_FILE);
  if (!existsSync(file)) return undefined;
  const { traced: _, ...t } = readJsonFile(file, StoredTrace, { hint: `remove ${dir} to generate the input again` });
  return { ...t, seconds: 0 };
}

/**
 * The input a generator makes for `args`, from the cache where it was made before. With `strace`
 * and a sandbox the generator runs under a file trace, and a cached input made without one is
 * made again (the trace is what it read when it was made, never guessed afterwards).
 */
export function ensureInput(
  exp: Experiment,
  args: Record<string, string>,
  cacheDir: string,
  log: (s: string) => void,
  sandbox?: Sandbox,
  strace?: string,
): Promise<InputResult> {
  const spec = exp.manifest.generate;
  if (!spec) return Promise.resolve({ ok: true, dir: '', facts: {} });
  const identity = generatorIdentity(exp);
  // Unproven: keyed by where it runs, and never taken from an earlier process's cache.
  const of = identity.ok ? identity.digest : `unproven ${realpathSync(exp.dir)}`;
  const key = createHash('sha256').update(of).update('\0').update(JSON.stringify(args)).digest('hex').slice(0, 16);
  const dir = join(cacheDir, 'inputs', exp.id, key);
  const traced = sandbox && strace ? strace : undefined;
  const memoKey = traced ? `${dir}\0traced` : dir;
  const memo = cache.get(memoKey);
  if (memo) return memo;
  const job = (async (): Promise<InputResult> => {
    const factsFile = join(dir, '.facts.json');
    const trace = existsSync(factsFile) ? readInputTrace(dir) : undefined;
    if (identity.ok && existsSync(factsFile) && (trace || !traced))
      return {
        ok: true,
        dir,
        facts: readJsonFile(factsFile, InputFactsFile, { hint: `remove ${dir} to generate the input again` }),
        digest: inputDigest(dir),
        ...(trace ? { trace } : {}),
      };
    const words = Object.entries(args).map(([k, v]) => `${k}=${v}`);
    const again = identity.ok && existsSync(factsFile) ? ': its cached copy has no trace, made again under one' : '';
    log(`generating ${exp.id} input (${words.join(' ') || 'defaults'})${traced ? ', traced' : ''}${again}`);
    return generate(exp, args, dir, { log, ...(sandbox ? { sandbox } : {}), ...(traced ? { strace: traced } : {}) });
  })();
  cache.set(memoKey, job);
  return job;
}

/** Runs the generator into a folder of its own beside `dir`, then moves it in whole. */
async function generate(
  exp: Experiment,
  args: Record<string, string>,
  dir: string,
  o: { log: (s: string) => void; sandbox?: Sandbox; strace?: string },
): Promise<InputResult> {
  const spec = exp.manifest.generate!;
  // By its real path: a generator that checks whether it is the main module compares its own
  // (real) URL with argv[1], and the paired diff reaches checkouts through symlinks.
  const script = realpathSync(join(exp.dir, spec.script));
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const argv = [process.execPath, script, '--out', tmp, ...Object.entries(args).flatMap(([k, v]) => [`--${k}`, v])];
  const timeoutMs = 1_800_000;
  const { sandbox } = o;
  const { result: r, trace } = sandbox
    ? await runSandboxStep({
        sandbox,
        cwd: exp.dir,
        argv,
        also: [writableWithin(sandbox, tmp)],
        timeoutMs,
        ...(o.strace ? { strace: o.strace } : {}),
      })
    : { result: await runProcess(argv, { timeoutMs, cwd: exp.dir }), trace: undefined };
  if (r.code !== 0) {
    rmSync(tmp, { recursive: true, force: true });
    return {
      ok: false,
      // The error's own line too: in the sandbox it names the path a write was refused at.
      reason: `input generator ${spec.script} ${describeExit(r)}: ${failureDetail(r.stderr, (e) => e.trim().split('\n').slice(-3).join(' | '))}`,
    };
  }
  let facts: InputFacts;
  try {
    facts = parseFacts(r.stdout);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    return { ok: false, reason: `input generator ${spec.script}: ${(e as Error).message}` };
  }
  writeFileSync(join(tmp, '.facts.json'), JSON.stringify(facts));
  const digest = digestTree(tmp);
  writeDigest(tmp, digest);
  if (trace) writeInputTrace(tmp, trace);
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir); // a half-written input is never mistaken for a cached one
  return { ok: true, dir, facts, digest, ...(trace ? { trace } : {}) };
}

/** Facts as scope entries: input_<name>, plus input_dir. */
export function inputScope(input: Extract<InputResult, { ok: true }>): Record<string, number | string> {
  const scope: Record<string, number | string> = input.dir ? { input_dir: input.dir } : {};
  for (const [k, v] of Object.entries(input.facts)) scope[`input_${k}`] = v;
  return scope;
}

/**
 * Generates (or finds in the cache) the input of every point whose experiment has a generator,
 * before anything is measured, so jobs are planned with their input's facts (with `strace`, each
 * generator traced: ensureInput).
 */
export async function prepareInputs(
  points: readonly Point[],
  cacheDir: string,
  log: (s: string) => void,
  sandbox?: Sandbox,
  strace?: string,
): Promise<Map<string, InputResult>> {
  const out = new Map<string, InputResult>();
  for (const p of points) {
    if (!p.experiment.manifest.generate) continue;
    const scope = { ...p.settings.constants, ...p.params, ...p.derived };
    const args = generatorArgs(p.experiment, scope);
    out.set(p.id, await ensureInput(p.experiment, args, cacheDir, log, sandbox, strace));
  }
  return out;
}
