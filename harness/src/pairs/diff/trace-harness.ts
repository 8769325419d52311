/**
 * The harness's own processes traced: the running harness started once the way the workflows
 * start it (`npm run bench -- --help`: npm, the bootstrap, the bundle and every package it loads)
 * under the same file trace as the points, once per plan. The files it loads as code or
 * configuration that the static harness identity (harness-shift/harness-change.ts: every file under
 * harness/, package.json's fields, tsconfig.json, the pins of the packages its sources import) does
 * (and .npmrc) does not name join the harness's identity: a changed one is a harness change (a
 * file a package.json script preloads, a package only the trace sees loaded). The files it only
 * reads to identify the programs (programs/, the lockfile) are the points' business, not its own.
 * Traced at plan time, not stored: it takes about 2-3 s, the start-up of one command.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeExit, runProcess } from '../../lib/exec.js';
import { fileTraceCommand } from '../../machine/sandbox/traced-step.js';
import { systemTool } from '../../machine/tools.js';
import { parseFileTrace, pathsInTree } from '../../run/parse-file-trace.js';
import { lockKeyOf, SEEN_ONLY_BY_TRACING } from '../decide/traced-changes.js';

export type HarnessTrace =
  | { ok: true; paths: string[]; listed: string[]; seconds: number }
  | { ok: false; reason: string; seconds: number };

/** How the workflows start the harness: npm, then the bootstrap, then the bundle; `--help` measures nothing. */
const START = ['npm', 'run', '--silent', 'bench', '--', '--help'];

/**
 * Paths the harness's processes touch that are not what it loads as code or configuration, or
 * that the static identity names already: the programs it reads to identify them, the lockfile
 * (its packages count by their own entries), harness/ (every file there is named), package.json
 * (by its fields), tsconfig.json and .npmrc; and node_modules outside any package (the folder, a scope's
 * folder, npm's .bin and install stamps), which the packages in it stand for.
 */
function namedOrOnlyRead(path: string): boolean {
  const top = path.split('/')[0]!;
  if (top === 'programs' || top === 'harness') return true;
  if (['package-lock.json', 'package.json', 'tsconfig.json', '.npmrc'].includes(path)) return true;
  return top === 'node_modules' && lockKeyOf(path) === undefined;
}

/**
 * What a harness trace adds to the harness's identity, one entry per file or installed package
 * (node_modules compared by its lockfile entry, as the points' traces are). Pure.
 */
export function harnessLoads(paths: readonly string[]): string[] {
  const out = new Set<string>();
  for (const p of paths) if (!namedOrOnlyRead(p)) out.add(lockKeyOf(p) ?? p);
  return [...out].sort();
}

/**
 * The harness changes a trace adds: each loaded path that differs between the sides, unless the
 * static comparison names its package already ("package zod"). Pure but for `changed`.
 */
export function tracedHarnessChanges(
  trace: Extract<HarnessTrace, { ok: true }>,
  staticFiles: readonly string[],
  changed: (path: string, listed: boolean) => boolean,
): string[] {
  const listed = new Set(trace.listed);
  return harnessLoads(trace.paths)
    .filter(
      (p) => !(p.startsWith('node_modules/') && staticFiles.includes(`package ${p.slice('node_modules/'.length)}`)),
    )
    .filter((p) => changed(p, listed.has(p)))
    .map((p) => `${SEEN_ONLY_BY_TRACING}${p}`);
}

/** Starts the harness of `root` once under a file trace; its paths as that checkout names them. */
export async function traceHarness(root: string): Promise<HarnessTrace> {
  const strace = systemTool('strace');
  if (!strace) return { ok: false, reason: 'strace missing (apt-get install strace)', seconds: 0 };
  const work = mkdtempSync(join(tmpdir(), 'jsio-harness-trace-'));
  try {
    const log = join(work, 'trace.txt');
    const r = await runProcess([...fileTraceCommand(strace, log), ...START], { cwd: root, timeoutMs: 120_000 });
    if (r.code !== 0) return { ok: false, reason: `${START.join(' ')} ${describeExit(r)}`, seconds: r.seconds };
    const parsed = parseFileTrace(readFileSync(log, 'utf8'), root);
    // Both spellings of the checkout: as given and behind its links.
    const tree = [...new Set([root, realpathSync(root)])].map((inside) => ({ inside, relative: '' }));
    const listedOnly = new Map([...parsed.paths].filter(([, kinds]) => kinds.has('list')));
    return {
      ok: true,
      paths: pathsInTree(parsed, tree),
      listed: pathsInTree({ paths: listedOnly }, tree),
      seconds: r.seconds,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
