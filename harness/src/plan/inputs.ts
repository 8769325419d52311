/**
 * Generated inputs: an experiment's generator script writes files once per distinct argument
 * set into the cache and reports facts about them (sizes, line counts, checksums). Reused across
 * runs; keyed by the generator's whole identity (its imports, the data files it may read, its
 * spec and the node that runs it: plan/identify-inputs.ts) and its arguments, so a change to any
 * of them gives each checkout its own input. A generator whose identity cannot be proven is run
 * again by every process that needs its input. With the side's sandbox, a generator runs inside it,
 * writable only in the folder it generates into.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { describeExit, runProcess } from '../lib/exec.js';
import { evaluate, type Scope } from '../lib/expr.js';
import { failureDetail } from '../lib/first-error-line.js';
import { readJsonFile } from '../lib/json-file.js';
import { sandboxCommand, writableWithin } from '../machine/sandbox/argv.js';
import type { Experiment } from '../model/manifest.js';
import type { Sandbox } from '../model/sandbox.js';
import { generatorIdentity } from './identify-inputs.js';
import { digestTree, inputDigest, writeDigest } from './input-digest.js';
import type { Point } from './plan.js';

/** What a generator reports about the input it wrote (sizes, counts, checksums): cached beside it. */
const InputFactsFile = z.record(z.string(), z.union([z.number(), z.string()]));
export type InputFacts = z.infer<typeof InputFactsFile>;
/**
 * `digest`: the generated files' content digest (./input-digest.ts), what the paired diff compares
 * as the input's workload; absent where no generator runs.
 */
export type InputResult = { ok: true; dir: string; facts: InputFacts; digest?: string } | { ok: false; reason: string };

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

export function ensureInput(
  exp: Experiment,
  args: Record<string, string>,
  cacheDir: string,
  log: (s: string) => void,
  sandbox?: Sandbox,
): Promise<InputResult> {
  const spec = exp.manifest.generate;
  if (!spec) return Promise.resolve({ ok: true, dir: '', facts: {} });
  // By its real path: a generator that checks whether it is the main module compares its own
  // (real) URL with argv[1], and the paired diff reaches checkouts through symlinks.
  const script = realpathSync(join(exp.dir, spec.script));
  const identity = generatorIdentity(exp);
  // Unproven: keyed by where it runs, and never taken from an earlier process's cache.
  const of = identity.ok ? identity.digest : `unproven ${realpathSync(exp.dir)}`;
  const key = createHash('sha256').update(of).update('\0').update(JSON.stringify(args)).digest('hex').slice(0, 16);
  const dir = join(cacheDir, 'inputs', exp.id, key);
  const memo = cache.get(dir);
  if (memo) return memo;
  const job = (async (): Promise<InputResult> => {
    const factsFile = join(dir, '.facts.json');
    if (identity.ok && existsSync(factsFile))
      return {
        ok: true,
        dir,
        facts: readJsonFile(factsFile, InputFactsFile, { hint: `remove ${dir} to generate the input again` }),
        digest: inputDigest(dir),
      };
    log(
      `generating ${exp.id} input (${
        Object.entries(args)
          .map(([k, v]) => `${k}=${v}`)
          .join(' ') || 'defaults'
      })`,
    );
    const tmp = `${dir}.tmp-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    const argv = [process.execPath, script, '--out', tmp, ...Object.entries(args).flatMap(([k, v]) => [`--${k}`, v])];
    const timeoutMs = 1_800_000;
    const r = sandbox
      ? await runProcess(sandboxCommand(sandbox, exp.dir, argv, undefined, [writableWithin(sandbox, tmp)]), {
          timeoutMs,
          env: {},
        })
      : await runProcess(argv, { timeoutMs, cwd: exp.dir });
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
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir); // a half-written input is never mistaken for a cached one
    return { ok: true, dir, facts, digest };
  })();
  cache.set(dir, job);
  return job;
}

/** Facts as scope entries: input_<name>, plus input_dir. */
export function inputScope(input: Extract<InputResult, { ok: true }>): Record<string, number | string> {
  const scope: Record<string, number | string> = input.dir ? { input_dir: input.dir } : {};
  for (const [k, v] of Object.entries(input.facts)) scope[`input_${k}`] = v;
  return scope;
}

/**
 * Generates (or finds in the cache) the input of every point whose experiment has a generator,
 * before anything is measured, so jobs are planned with their input's facts.
 */
export async function prepareInputs(
  points: readonly Point[],
  cacheDir: string,
  log: (s: string) => void,
  sandbox?: Sandbox,
): Promise<Map<string, InputResult>> {
  const out = new Map<string, InputResult>();
  for (const p of points) {
    if (!p.experiment.manifest.generate) continue;
    const scope = { ...p.settings.constants, ...p.params, ...p.derived };
    out.set(p.id, await ensureInput(p.experiment, generatorArgs(p.experiment, scope), cacheDir, log, sandbox));
  }
  return out;
}
