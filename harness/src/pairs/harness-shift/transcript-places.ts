/**
 * What legitimately differs between two recordings, made equal (docs/paired-design.md lists it):
 * where each side's checkout, cache and temporary folder are, the random suffixes of folders made
 * with mkdtemp inside that temporary folder, and process ids in /proc paths and in the staging
 * folders of runtime installs. Nothing else: any
 * other difference is a difference in what runs. Pure.
 */
import type { NormalRun } from '../../formats/transcript-format.js';
import type { ProcessRun } from './transcript-starts.js';

export type { NormalRun };

/** A folder of one side and the name it has in the transcript ("<side>", "<tmp>"). */
export interface Place {
  readonly path: string;
  readonly name: string;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A file or folder name in a temporary folder: its last six letters or digits are random. */
const TEMPORARY_NAME =
  /((?:<tmp>|\/tmp)\/(?:[^/\s]+\/)*[A-Za-z0-9._-]*?)[A-Za-z0-9]{6}(?=\.[A-Za-z]+(?![A-Za-z0-9])|\/|$|[^A-Za-z0-9._-])/g;

/** A temporary file of gcc's (cc, six random characters, a suffix), in a temporary folder. */
const GCC_TEMPORARY = /((?:<tmp>|\/tmp)\/cc)[A-Za-z0-9]{6}(?=\.)/g;

/** A function that names the places in a string; longest path first, so a nested place wins. */
export function placeNamer(places: readonly Place[]): (s: string) => string {
  const sorted = [...places].filter((p) => p.path.length > 1).sort((a, b) => b.path.length - a.path.length);
  const rules: [RegExp, string][] = sorted.map((p) => [
    new RegExp(`${escapeRegExp(p.path)}(?=/|$|[^A-Za-z0-9._-])`, 'g'),
    p.name,
  ]);
  return (s) => {
    let out = s;
    for (const [re, name] of rules) out = out.replace(re, name);
    // gcc's temporary files start with six random characters after `cc`, whatever follows
    // (/tmp/ccT4Ae4C.ltrans0.ltrans.o); then mkdtemp's and mkstemp's last six, in temporary folders only.
    out = out.replace(GCC_TEMPORARY, '$1XXXXXX');
    out = out.replace(TEMPORARY_NAME, '$1XXXXXX');
    // hyperfine gives every run an environment variable of random length (to vary stack alignment).
    out = out.replace(/^(HYPERFINE_RANDOMIZED_ENVIRONMENT_OFFSET=).*$/, '$1<random>');
    // The harness stages a runtime's install in `<dir>.tmp-<its pid>` (machine/toolchains.ts).
    out = out.replace(/(\.tmp-)\d+(?=\/|$|[^A-Za-z0-9._-])/g, '$1<pid>');
    // ... and builds a tool as `<tool>.<its pid>.part` before renaming it into place (machine/tools.ts).
    out = out.replace(/(\/tools\/[A-Za-z0-9_-]+\.)\d+(\.part)/g, '$1<pid>$2');
    return out.replace(/\/proc\/\d+(?=\/|$)/g, '/proc/<pid>');
  };
}

export function normalizeRun(run: ProcessRun, name: (s: string) => string): NormalRun {
  return {
    exe: name(run.exe),
    argv: run.argv.map(name),
    env: run.env.map(name).sort(),
    cwd: name(run.cwd),
    ...(run.affinity !== undefined ? { affinity: run.affinity } : {}),
    limits: Object.fromEntries(Object.entries(run.limits).sort(([a], [b]) => a.localeCompare(b))),
    ...(run.point !== undefined ? { point: run.point } : {}),
    ...(run.fill ? { fill: true as const } : {}),
    ...(run.stdio
      ? { stdio: [name(run.stdio[0]), name(run.stdio[1]), name(run.stdio[2])] as [string, string, string] }
      : {}),
    ...(run.fds ? { fds: run.fds.map(name) } : {}),
    ...(run.reads ? { reads: run.reads.map(name) } : {}),
  };
}
