// Two transcripts compared, each difference named once with how many starts it touches (pure).
import { describe, expect, it } from 'vitest';
import type { NormalRun } from '../../../src/model/transcript-document.js';
import { compareTranscripts, tokenChange } from '../../../src/pairs/harness-shift/transcript-compare.js';
import { normalizeRun, placeNamer } from '../../../src/pairs/harness-shift/transcript-places.js';
import { recordingEnv } from '../../../src/pairs/harness-shift/transcript-record.js';

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
      ],
      env: ['HYPERFINE_RANDOMIZED_ENVIRONMENT_OFFSET=<random>', 'PWD=<side>/programs'],
      cwd: '<side>',
      limits: {},
    });
  });
});

describe('recordingEnv', () => {
  it("leaves out what names the recorder's own command: the shell's folders and npm's variables", () => {
    const env = recordingEnv('/tmp/r/tmp', {
      PATH: '/w/base/node_modules/.bin:/w/node_modules/.bin:/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin:/usr/bin',
      JSIO_ROOT: '/w/base',
      PWD: '/w/base',
      OLDPWD: '/w',
      INIT_CWD: '/w/base',
      npm_package_json: '/w/base/package.json',
      npm_lifecycle_event: 'transcript',
      JUST_HOME: '/opt/just',
    });
    expect(env).toEqual({ PATH: '/usr/bin', JUST_HOME: '/opt/just', TMPDIR: '/tmp/r/tmp' });
  });
});
