/**
 * Sets up one side's sandbox: bubblewrap found in a root-owned folder, the side's folders created
 * in the harness's cache (bwrap binds only what exists), the system's folders as they are here,
 * and a probe that starts one sandbox. Where it cannot start, the reason says why: the paired diff
 * refuses, `bench` measures without one and says so.
 */
import { existsSync, lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { probe, runSync } from '../../lib/exec.js';
import { makeDirectories } from '../../lib/paths.js';
import { INSIDE, type Sandbox, type SandboxRoot, type SystemEntry } from '../../model/sandbox.js';
import { SANDBOX_ENV, sandboxed, unplainPath } from './argv.js';

/** Where bubblewrap is looked for: folders only root can write, never a PATH a checkout can extend. */
const BWRAP_PLACES = ['/usr/bin/bwrap', '/bin/bwrap', '/usr/local/bin/bwrap'];

/** The system's top-level folders a program may need (merged /usr makes most of them links). */
const SYSTEM_FOLDERS = ['/usr', '/etc', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/** Folders whose tools every sandbox sees already: a tool elsewhere gets a folder of its own. */
const SYSTEM_TOOL_DIRS = /^\/(usr\/(local\/)?)?s?bin\//;

const BWRAP_HINT = 'apt-get install bubblewrap (and allow unprivileged user namespaces, or run as root)';

/** bubblewrap's path: `JSIO_BWRAP` when set (tests plant a broken one), else the first root-owned one found. */
function findBwrap(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.JSIO_BWRAP) return env.JSIO_BWRAP;
  return BWRAP_PLACES.find((p) => {
    try {
      const s = statSync(p);
      return s.isFile() && s.uid === 0;
    } catch {
      return false;
    }
  });
}

/** The system folders as this machine has them. */
function systemEntries(folders: readonly string[] = SYSTEM_FOLDERS): SystemEntry[] {
  const out: SystemEntry[] = [];
  for (const path of folders) {
    try {
      const l = lstatSync(path);
      if (l.isSymbolicLink()) out.push({ path, link: readlinkSync(path) });
      else if (l.isDirectory()) out.push({ path });
    } catch {
      // not on this machine
    }
  }
  return out;
}

/** What one side's sandbox shows, as host folders. */
export interface SideFolders {
  /** The side's checkout. */
  root: string;
  /** Its programs, when they are not the checkout's own programs/ (`--programs`). */
  programsDir?: string;
  /** Where runtimes, inputs and the harness's tools are cached (the paired diff: one for both sides). */
  cacheDir: string;
  /** The scratch folder (the paired diff: one backing folder for both sides). */
  scratchDir: string;
  /** just(js)'s installation and build target, when installed. */
  justHome?: string;
  justTarget?: string;
  /** Measuring tools and runtimes found outside the system's folders (each gets a folder inside). */
  toolPaths?: readonly string[];
  /**
   * Folders a binary's RUNPATH names (a just(js) built against a V8 library of its own): the
   * dynamic loader reads them by their absolute path, so they are shown at that same path.
   */
  libraryDirs?: readonly string[];
}

/** The folders of an ELF binary's RUNPATH (or RPATH) that exist here; none when it has none or readelf is missing. */
export function runpathOf(binary: string): string[] {
  const out = probe(['readelf', '-d', binary]) ?? '';
  const m = /\((?:RUNPATH|RPATH)\)\s+Library r(?:un)?path: \[([^\]]*)\]/.exec(out);
  return (m?.[1] ?? '').split(':').filter((d) => d.startsWith('/') && existsSync(d));
}

/** The roots and masks of a side (pure). */
export function sideRoots(f: SideFolders): { roots: SandboxRoot[]; masks: string[] } {
  const roots: SandboxRoot[] = [
    { host: f.root, inside: INSIDE.side },
    ...(f.programsDir && f.programsDir !== join(f.root, 'programs')
      ? [{ host: f.programsDir, inside: INSIDE.programs }]
      : []),
    { host: join(f.cacheDir, 'inputs'), inside: INSIDE.inputs },
    { host: join(f.cacheDir, 'runtimes'), inside: INSIDE.runtimes },
    { host: join(f.cacheDir, 'tools'), inside: INSIDE.tools },
    { host: f.scratchDir, inside: INSIDE.scratch, writable: true },
    ...(f.justHome ? [{ host: f.justHome, inside: INSIDE.justHome }] : []),
    ...(f.justTarget ? [{ host: f.justTarget, inside: INSIDE.justTarget }] : []),
    ...(f.libraryDirs ?? []).map((d) => ({ host: d, inside: d })),
  ];
  // A tool already inside a root (a runtime in the cache) is seen there.
  const seen = (p: string) => SYSTEM_TOOL_DIRS.test(p) || roots.some((r) => p.startsWith(`${r.host}/`));
  const toolDirs = [...new Set((f.toolPaths ?? []).filter((p) => !seen(p)).map(dirname))];
  for (const [i, host] of toolDirs.sort().entries()) roots.push({ host, inside: `${INSIDE.bin}/${i}` });
  // The same folders by their real paths (a checkout reached through a link), for translation.
  for (const r of [...roots]) {
    const real = realPath(r.host);
    if (real && real !== r.host && !roots.some((o) => o.host === real)) roots.push({ ...r, host: real, alias: true });
  }
  const masks = ['.cache', 'results'].filter((d) => existsSync(join(f.root, d))).map((d) => `${INSIDE.side}/${d}`);
  return { roots, masks };
}

function realPath(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

export type OpenedSandbox = { ok: true; sandbox: Sandbox } | { ok: false; reason: string; hint: string };

/** One side's sandbox, checked by starting it once; or why it cannot start here. */
export function openSandbox(f: SideFolders, bwrap = findBwrap()): OpenedSandbox {
  if (!bwrap) return { ok: false, reason: 'bubblewrap (bwrap) is not installed', hint: BWRAP_HINT };
  const bad = [f.root, f.cacheDir, f.scratchDir].map(unplainPath).find((why) => why);
  if (bad) return { ok: false, reason: bad, hint: 'move the checkout or the cache to a plain path' };
  // bwrap binds only what exists: the harness's own cache folders are made first.
  // (A point's build is shown by its job, from its entry of the content-keyed cache: plan/jobs.ts.)
  for (const d of ['inputs', 'runtimes', 'tools']) makeDirectories(join(f.cacheDir, d));
  makeDirectories(f.scratchDir);
  const { roots, masks } = sideRoots(f);
  const unplain = roots.map((r) => unplainPath(r.host)).find((why) => why);
  if (unplain) return { ok: false, reason: unplain, hint: 'move the folder to a plain path' };
  const sandbox: Sandbox = Object.freeze({ bwrap, system: systemEntries(), roots, masks, env: SANDBOX_ENV });
  // The probe writes where it must not: a sandbox that lets it is not one.
  const check = `test -r ${INSIDE.side} && ! touch ${INSIDE.side}/.jsio-write-test 2>/dev/null && touch ${INSIDE.scratch}/.jsio-write-test && rm ${INSIDE.scratch}/.jsio-write-test && echo ok`;
  const r = runSync(sandboxed(sandbox, f.root, ['/bin/bash', '-c', check]), { timeoutMs: 10_000 });
  if (r.code !== 0 || r.stdout.trim() !== 'ok') {
    const said = `${r.stderr}${r.stdout}`.trim().split('\n').slice(-2).join(' | ').slice(0, 300);
    return {
      ok: false,
      reason: `the sandbox (${bwrap}) cannot start here: ${said || `exit status ${r.code}`}`,
      hint: BWRAP_HINT,
    };
  }
  return { ok: true, sandbox };
}
