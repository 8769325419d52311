// Two transcripts compared, each difference named once with how many starts it touches (pure).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NormalRun } from '../../../src/formats/transcript-format.js';
import { compareTranscripts, tokenChange } from '../../../src/pairs/harness-shift/transcript-compare.js';
import { normalizeRun, placeNamer } from '../../../src/pairs/harness-shift/transcript-places.js';
import { HARNESS_SETTINGS, jobPlaces, recordingEnv } from '../../../src/pairs/harness-shift/transcript-record.js';
import { ROOT } from '../../helpers/cli.js';

const run = (argv: string[], over: Partial<NormalRun> = {}): NormalRun => ({
  exe: `/usr/bin/${argv[0]}`,
  argv,
  env: ['TZ=UTC'],
  cwd: '<side>',
  limits: {},
  ...over,
});
const hyperfine = (warmup: number, size: number) => run(['hyperfine', `--warmup=${warmup}`, `wc ${size}`]);

describe('compareTranscripts', () => {
  it('the same starts in another order of a parallel stage are the same', () => {
    const a = [run(['gcc', 'a.c']), run(['gcc', 'b.c'])];
    expect(compareTranscripts(a, [...a].reverse())).toEqual({ same: true, alike: 2, differences: [] });
  });

  it("names a changed argument once for every size it touches, the driver's consequences after it", () => {
    const base = [hyperfine(3, 256), hyperfine(3, 4096), run(['wc', '256'])];
    const head = [hyperfine(1, 256), hyperfine(1, 4096)];
    const c = compareTranscripts(base, head);
    expect(c.same).toBe(false);
    expect(c.alike).toBe(0);
    expect(c.differences).toEqual([
      { what: 'hyperfine: `--warmup=3` → `--warmup=1`', runs: 2, kind: 'harness', points: [] },
      { what: 'wc: started only by the base', runs: 1, kind: 'harness', points: [] },
    ]);
  });

  it('names environment, directory, CPU and limit differences', () => {
    const base = [run(['dd'], { affinity: '[1]', limits: { RLIMIT_CPU: '120' } })];
    const head = [run(['dd'], { env: ['TZ=UTC', 'X=1'], cwd: '<side>/programs', limits: { RLIMIT_CPU: '1' } })];
    expect(compareTranscripts(base, head).differences[0]!.what).toBe(
      'dd: environment (nothing) → `X=1`; working directory `<side>` → `<side>/programs`; CPUs `[1]` → `any`; limits `RLIMIT_CPU=120` → `RLIMIT_CPU=1`',
    );
  });

  it("names a start's standard streams wired otherwise (a pipe where a file was)", () => {
    const base = [run(['wc'], { point: 'wc/c/bs=4096', stdio: ['<inputs>/wc.bin', 'pipe', 'inherited'] })];
    const head = [run(['wc'], { point: 'wc/c/bs=4096', stdio: ['pipe', 'pipe', 'inherited'] })];
    expect(compareTranscripts(base, head).differences).toEqual([
      {
        what: 'wc: standard input `<inputs>/wc.bin` → `pipe`',
        runs: 1,
        kind: 'program',
        points: ['wc/c/bs=4096'],
      },
    ]);
  });

  it("names a sandbox's other inherited descriptors (one more pipe handed to the program)", () => {
    const bwrap = (fds?: string[]) => run(['bwrap', '--', 'wc'], { point: 'wc/c/bs=4096', ...(fds ? { fds } : {}) });
    expect(compareTranscripts([bwrap()], [bwrap(['3 pipe'])]).differences).toEqual([
      { what: 'bwrap: other descriptors (nothing) → `3 pipe`', runs: 1, kind: 'program', points: ['wc/c/bs=4096'] },
    ]);
    expect(compareTranscripts([bwrap(['3 pipe'])], [bwrap(['3 pipe'])]).same).toBe(true);
  });

  it('names what a sandbox read with other content, and what only one side named', () => {
    const bwrap = (...reads: string[]) => run(['bwrap', '--', 'wc'], { point: 'wc/c/bs=4096', reads });
    const c = compareTranscripts(
      [bwrap('/jsio/inputs/a.bin 11', '/jsio/side/programs/wc/c.c 22')],
      [bwrap('/jsio/inputs/a.bin 99', '/jsio/side/programs/wc/c.c 22', '/jsio/tools/x missing')],
    );
    expect(c.differences.map((d) => [d.what, d.kind])).toEqual([
      ['bwrap: reads other content in `/jsio/inputs/a.bin`; reads (nothing) → `/jsio/tools/x missing`', 'program'],
    ]);
  });

  it('the same timed runs in another order are a difference', () => {
    const a = [hyperfine(3, 256), hyperfine(3, 4096)];
    expect(compareTranscripts(a, [...a].reverse()).differences).toEqual([
      { what: 'hyperfine: the same runs in another order', runs: 2, kind: 'harness', points: [] },
    ]);
  });
});

describe('a shared cache entry filled by one side only', () => {
  it('is no difference: the starts that use the entry name it by its key, and those are compared', () => {
    const gen = run(['node', 'generate.mjs', '--out', '/jsio/inputs/wc/ab12.tmp-<pid>'], { fill: true });
    const use = run(['bwrap', '--ro-bind', '/c/inputs/wc/ab12', '/jsio/input'], { point: 'wc/c/bs=1' });
    expect(compareTranscripts([gen, use], [use])).toMatchObject({ same: true, alike: 1 });
  });
});

describe('where a difference is: the driver, a point’s own processes, or the harness’s own work', () => {
  const at = (r: NormalRun, point: string): NormalRun => ({ ...r, point });
  const timed = (warmup: number, point: string, command = `wc ${point}`) =>
    at(run(['hyperfine', `--warmup=${warmup}`, '--export-json', '/jsio/work/h.json', command]), point);

  it("hyperfine's options alone are the driver, on the points whose sandbox ran it", () => {
    const base = [timed(3, 'wc/c/bs=256'), timed(3, 'wc/c/bs=4096'), timed(3, 'scan/node/n=1')];
    const head = [timed(1, 'wc/c/bs=256'), timed(1, 'wc/c/bs=4096'), timed(3, 'scan/node/n=1')];
    expect(compareTranscripts(base, head).differences).toEqual([
      {
        what: 'hyperfine: `--warmup=3` → `--warmup=1`',
        runs: 2,
        kind: 'driver',
        points: ['wc/c/bs=256', 'wc/c/bs=4096'],
      },
    ]);
  });

  it('a changed timed command, or a changed run of a point’s own, is its program’s', () => {
    const base = [timed(3, 'wc/c/bs=256'), at(run(['taskset', '-c', '1', 'wc']), 'wc/c/bs=4096')];
    const head = [timed(3, 'wc/c/bs=256', 'nice wc'), at(run(['taskset', '-c', '0', 'wc']), 'wc/c/bs=4096')];
    const d = compareTranscripts(base, head).differences;
    expect(d.map((x) => [x.kind, x.points])).toEqual([
      ['program', ['wc/c/bs=256']],
      ['program', ['wc/c/bs=4096']],
    ]);
  });

  it('a difference outside every point’s sandbox is the harness’s, whatever else is in points', () => {
    const base = [timed(3, 'wc/c/bs=256'), run(['git', 'status'])];
    const head = [timed(1, 'wc/c/bs=256'), run(['git', 'status', '--porcelain'])];
    expect(
      compareTranscripts(base, head)
        .differences.map((x) => x.kind)
        .sort(),
    ).toEqual(['driver', 'harness']);
  });

  it('the same timed runs of points in another order: the driver of the points that moved', () => {
    const a = [timed(3, 'wc/c/bs=256'), timed(3, 'wc/c/bs=4096'), timed(3, 'scan/node/n=1')];
    expect(compareTranscripts(a, [a[1]!, a[0]!, a[2]!]).differences).toEqual([
      {
        what: 'hyperfine: the same runs in another order',
        runs: 2,
        kind: 'driver',
        points: ['wc/c/bs=256', 'wc/c/bs=4096'],
      },
    ]);
  });
});

describe('tokenChange', () => {
  it('finds what one list has and the other lacks, keeping order', () => {
    expect(tokenChange(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd', 'e'])).toEqual({ removed: ['b'], added: ['x', 'e'] });
  });
});

describe('normalization', () => {
  const name = placeNamer([
    { path: '/home/u/base', name: '<side>' },
    { path: '/tmp/rec-1/tmp', name: '<tmp>' },
  ]);

  it('names the places, random temporary names, hyperfine’s random variable and /proc pids; nothing else', () => {
    const r = normalizeRun(
      {
        seq: 0,
        pid: 5,
        exe: '/home/u/base/node_modules/.bin/x',
        argv: [
          'x',
          '/tmp/rec-1/tmp/jsio-run-a1B2c3/out.json',
          '/tmp/ccTfEdKA.o',
          '/tmp/ccT4Ae4C.ltrans0.ltrans.o',
          '/proc/4242/status',
          '/home/u/base2',
          '/c/tools/evict-ba750c2ce49ce7c6.24788.part-',
        ],
        env: ['HYPERFINE_RANDOMIZED_ENVIRONMENT_OFFSET=XXXXXXX', 'PWD=/home/u/base/programs'],
        cwd: '/home/u/base',
        limits: {},
      },
      name,
    );
    expect(r).toEqual({
      exe: '<side>/node_modules/.bin/x',
      argv: [
        'x',
        '<tmp>/jsio-run-XXXXXX/out.json',
        '/tmp/ccXXXXXX.o',
        '/tmp/ccXXXXXX.lXXXXXX.ltrans.o',
        '/proc/<pid>/status',
        '/home/u/base2',
        '/c/tools/evict-ba750c2ce49ce7c6.<pid>.part-',
      ],
      env: ['HYPERFINE_RANDOMIZED_ENVIRONMENT_OFFSET=<random>', 'PWD=<side>/programs'],
      cwd: '<side>',
      limits: {},
    });
  });
});

describe('recordingEnv', () => {
  it("keeps only what the harness reads, with a PATH of its own: another job's ids, folders and npm's variables leave nothing", () => {
    const env = recordingEnv(
      '/tmp/r/tmp',
      {
        PATH: '/w/base/node_modules/.bin:/home/runner/.local/bin:/usr/bin',
        JSIO_ROOT: '/w/base',
        JSIO_CACHE: '/c',
        JSIO_ACT_NPM_LOG: '/r/runs/push-1/npm.log',
        PWD: '/w/base',
        OLDPWD: '/w',
        INIT_CWD: '/w/base',
        npm_package_json: '/w/base/package.json',
        npm_lifecycle_event: 'transcript',
        GITHUB_RUN_ID: '42',
        GITHUB_ACTIONS: 'true',
        RUNNER_TEMP: '/r/_temp',
        USER: 'jsio-pr',
        HOME: '/r/_temp/home',
        JUST_HOME: '/opt/just',
      },
      '/opt/node/bin/node',
    );
    expect(env).toEqual({
      PATH: '/opt/node/bin:/opt/just:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      JSIO_CACHE: '/c',
      GITHUB_ACTIONS: 'true',
      HOME: '/r/_temp/home',
      JUST_HOME: '/opt/just',
      TMPDIR: '/tmp/r/tmp',
    });
  });

  it('passes on every JSIO_ setting the harness reads (but the two naming the recorder): none is lost to the recording', () => {
    const read = new Set<string>();
    const walk = (d: string): void => {
      for (const e of readdirSync(d, { withFileTypes: true }))
        if (e.isDirectory()) walk(join(d, e.name));
        else if (e.name.endsWith('.ts'))
          for (const m of readFileSync(join(d, e.name), 'utf8').matchAll(
            /(?:process\.)?env\.(JSIO_[A-Z0-9_]+)|env\[['"](JSIO_[A-Z0-9_]+)['"]\]/g,
          ))
            read.add((m[1] ?? m[2])!);
    };
    walk(join(ROOT, 'harness', 'src'));
    expect(read.size).toBeGreaterThan(3);
    for (const name of read)
      expect(HARNESS_SETTINGS.includes(name) || ['JSIO_ROOT', 'JSIO_PROFILE'].includes(name), name).toBe(true);
  });

  it("names the job's own folders alike in every job: HOME, the cache, just(js)'s", () => {
    const name = placeNamer(
      jobPlaces({ HOME: '/r/1/home', JSIO_CACHE: '/r/1/cache', JUST_HOME: '/r/1/cache/just/just-0.1.13' }),
    );
    expect(name('/r/1/cache/just/just-0.1.13/just --version /r/1/cache/inputs/x /r/1/home/.npmrc')).toBe(
      '<just>/just --version <cache>/inputs/x <home>/.npmrc',
    );
  });
});
