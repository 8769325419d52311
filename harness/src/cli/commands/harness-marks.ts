/**
 * bench.yml's harness marks (docs/workflows.md): on a push to main, the previous commit this
 * machine published (`workflow mark-base`) and whether the harness changed since it (`workflow
 * harness-changed`, the same decision as the pull request's trusted plan: pairs/harness-shift/
 * harness-change.ts). When it did, bench.yml has the previous commit's code record this one's
 * harness as a pull request's diff would (`npm run transcript -- --base-side . --head-side
 * RECORDED --store`, at the pull requests' profile) and `npm run pages` stores the verdict's
 * differences as the commit's mark.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LEGACY_PROFILE } from '../../formats/parts/store-layout.js';
import { IndexCommits, STORE_SCHEMA } from '../../formats/trend-store-format.js';
import { UserError } from '../../lib/errors.js';
import { runSync } from '../../lib/exec.js';
import { assertSegment, assertSha } from '../../lib/ids.js';
import { existingDirectory } from '../../lib/paths.js';
import { readUntrustedJson } from '../../lib/untrusted.js';
import { harnessChange } from '../../pairs/harness-shift/harness-change.js';
import { STORE_FILE_MAX_BYTES } from '../../store/store-files.js';
import { type CommandSpec, parseCommand } from '../options.js';

type Io = { stdout: (s: string) => void; stderr: (s: string) => void };

/**
 * The commits a machine's store holds (its index.json, read as untrusted input); with `profile`,
 * only those with a run of it (a store v2 run, "legacy", counts for every profile).
 */
export function storedCommits(store: string, machine: string, profile: string | undefined, io: Io): Set<string> {
  const index = join(resolve(store), machine, 'index.json');
  const stored = new Set<string>();
  if (!existsSync(index)) {
    io.stderr(`no ${index}: nothing stored for ${machine} yet\n`);
    return stored;
  }
  const raw = readUntrustedJson(index, IndexCommits, {
    maxBytes: STORE_FILE_MAX_BYTES,
    version: STORE_SCHEMA,
    what: 'store index',
  });
  const has = (runs: Record<string, unknown> | undefined) =>
    !profile || !runs || Object.hasOwn(runs, profile) || Object.hasOwn(runs, LEGACY_PROFILE);
  for (const c of raw.commits) if (has(c.runs)) stored.add(c.sha);
  return stored;
}

/** First-parent history from `head`, newest first (head included), or a clear refusal. */
export function firstParents(repo: string, head: string, depth: number): string[] {
  const r = runSync(['git', '-C', resolve(repo), 'log', '--first-parent', '--format=%H', '-n', String(depth), head], {
    timeoutMs: 60_000,
  });
  if (r.code !== 0)
    throw new UserError(`git log of ${head} failed in ${repo}: is it a clone with history (fetch-depth: 0)?`);
  return r.stdout.split('\n').filter(Boolean);
}

export const markBaseSpec = {
  name: 'workflow mark-base',
  brief: "bench.yml: the previous commit this machine published (a harness mark's base)",
  summary:
    "Prints base=SHA: the newest first-parent ancestor of --head that the machine's store has a run of --profile, " +
    'or base= when there is none (the machine published nothing before it, within --depth commits).',
  options: {
    repo: { type: 'string', value: 'DIR', default: '.', description: 'the clone, with history' },
    head: { type: 'string', value: 'SHA', description: 'the commit being measured (required)' },
    store: { type: 'string', value: 'DIR', description: 'the trend store (required)' },
    machine: { type: 'string', value: 'ID', description: "this runner's machine id (required)" },
    profile: { type: 'string', value: 'P', description: 'the profile published (required)' },
    depth: { type: 'string', value: 'N', default: '200', description: 'first-parent commits looked at' },
  },
  example: 'npm run workflow -- mark-base --head HEAD_SHA --store pages/data --machine ID --profile standard',
} as const satisfies CommandSpec;

export async function markBaseCmd(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommand(markBaseSpec, argv);
  const missing = (['head', 'store', 'machine', 'profile'] as const).filter((n) => !values[n]);
  if (missing.length) throw new UserError(`missing ${missing.map((n) => `--${n}`).join(', ')}`);
  const head = assertSha('--head', values.head);
  const machine = assertSegment('--machine', values.machine);
  const profile = assertSegment('--profile', values.profile);
  const depth = Number(values.depth);
  if (!Number.isInteger(depth) || depth < 2 || depth > 5000)
    throw new UserError(`--depth ${values.depth}: expected an integer from 2 to 5000`);
  const stored = storedCommits(values.store!, machine, profile, io);
  const base = firstParents(values.repo!, head, depth)
    .slice(1)
    .find((c) => stored.has(c));
  io.stderr(
    base
      ? `the previous commit ${machine} published a ${profile} run of: ${base}\n`
      : `${machine} published no ${profile} run of the ${depth - 1} commits before ${head.slice(0, 12)}: no harness mark\n`,
  );
  io.stdout(`base=${base ?? ''}\n`);
  return 0;
}

export const harnessChangedSpec = {
  name: 'workflow harness-changed',
  brief: "bench.yml: whether the harness's measuring code changed between two checkouts",
  summary:
    "Prints harness=changed or harness=unchanged: the trusted plan's decision for a pull request (a measuring file, " +
    'package.json, a pin of a package the harness loads; sources that compile to the same code are no change), ' +
    'between --base and --head; the files on stderr.',
  options: {
    base: { type: 'string', value: 'DIR', description: 'the previous published commit, checked out (required)' },
    head: { type: 'string', value: 'DIR', default: '.', description: 'the commit being measured, checked out' },
  },
  example: 'npm run workflow -- harness-changed --base ../previous --head .',
} as const satisfies CommandSpec;

export async function harnessChangedCmd(argv: string[], io: Io): Promise<number> {
  const { values } = parseCommand(harnessChangedSpec, argv);
  if (!values.base) throw new UserError('harness-changed needs --base DIR (the previous published commit)');
  const base = existingDirectory(values.base, '--base');
  const head = existingDirectory(values.head!, '--head');
  for (const [flag, dir] of [
    ['--base', base],
    ['--head', head],
  ] as const)
    if (!existsSync(join(dir, 'harness')))
      throw new UserError(`${flag} ${dir}: not a jsio-bench checkout (it has no harness/ folder)`);
  const change = await harnessChange(base, head);
  const changed = change.files.length > 0 && !change.sameCode;
  io.stderr(
    !change.files.length
      ? 'no measuring file of the harness differs\n'
      : change.sameCode
        ? `only TypeScript sources differ and both compile to the same code: ${change.files.join(', ')}\n`
        : `${change.files.length} measuring file(s) differ: ${change.files.slice(0, 50).join(', ')}\n`,
  );
  io.stdout(`harness=${changed ? 'changed' : 'unchanged'}\n`);
  return 0;
}
