/**
 * The sandbox a measured process runs in (bubblewrap): which folders of this machine it sees, at
 * which fixed paths, and its fixed environment. The paths inside are the same for both sides of a
 * paired diff, for every run and on every runner: instruction counts move with the length of a
 * script's path and with the environment (docs/counts.md), and a program must not see, nor write
 * into, the other side's checkout.
 */

/** Where things are inside every sandbox. */
export const INSIDE = {
  /** The side's checkout (its tracked files and the node_modules its lockfile installed), read-only. */
  side: '/jsio/side',
  /**
   * Programs from another folder than the checkout's (`--programs`), read-only: beside the tree, not
   * in it, so no package.json of the checkout decides how Node loads them.
   */
  programs: '/jsio/programs',
  /**
   * Builds (gcc, just build, esbuild), read-only: a job's own build at `<build>/<E>/<V>`, bound
   * from its entry of the content-keyed cache.
   */
  build: '/jsio/build',
  /** Generated inputs (content-keyed), read-only. */
  inputs: '/jsio/inputs',
  /** Runtimes installed from the npm registry, read-only. */
  runtimes: '/jsio/runtimes',
  /** The harness's own C tools (the evictor, the pair timer's gate), read-only. */
  tools: '/jsio/tools',
  /** just(js): its installation (JUST_HOME) and its build target (JUST_TARGET), read-only. */
  justHome: '/jsio/just/home',
  justTarget: '/jsio/just/target',
  /** Other measuring tools found outside the system's folders, read-only, one folder each. */
  bin: '/jsio/bin',
  /** The one folder programs may write (both sides of a pair share its backing folder). */
  scratch: '/jsio/scratch',
  /** The harness's files of one run (GNU time's and strace's reports, Valgrind's logs), writable. */
  work: '/jsio/work',
  /** An empty tmpfs per sandbox: TMPDIR and HOME (Valgrind writes its temporary files there). */
  tmp: '/tmp',
} as const;

/** A folder of this machine and where the sandbox shows it. */
export interface SandboxRoot {
  readonly host: string;
  readonly inside: string;
  readonly writable?: boolean;
  /** Another spelling of a root's host path (its real path behind links): translated, not mounted again. */
  readonly alias?: true;
}

/** A top-level system folder (/usr, /etc, /bin...): a symbolic link (merged /usr) or a folder bound read-only. */
export type SystemEntry = { readonly path: string; readonly link: string } | { readonly path: string };

/** One side's sandbox, planned once and carried by each of its jobs. */
export interface Sandbox {
  /** The bubblewrap binary (found in a root-owned folder). */
  readonly bwrap: string;
  readonly system: readonly SystemEntry[];
  /** Longest host path first is not required: translation sorts them. */
  readonly roots: readonly SandboxRoot[];
  /** Folders inside the side's tree hidden behind an empty read-only tmpfs (the harness's caches, results). */
  readonly masks: readonly string[];
  /** The whole environment of every process inside. */
  readonly env: Readonly<Record<string, string>>;
}
