// `pairs --plan --trace` sees what a just(js) app build reads, not only what the app's run reads.
// Planted: a static just(js) app whose build config embeds a table from data/ at the checkout's
// root in the binary, by a name the config puts together when the build runs (`just build`
// evaluates the config, hands the embed to the assembler, which reads it through `.incbin`). No
// static rule follows a name made at build time; the trace of the build sees the assembler read
// it. The same program run as a script, and a point with no build at all, read no table: a change
// to the table affects the app-binary point alone. A second app's config tries to write beside the
// program and swallows the refusal: the trace of its build names the path, and its point is broken.
// Needs the real just(js) and its build target: under CI=true a machine without them fails,
// elsewhere the file is skipped saying what is missing.
import { execFileSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiffPlan } from '../../../src/formats/diff-plan-format.js';
import { ROOT, runCli } from '../../helpers/cli.js';
import { justInstalled } from '../../helpers/just.js';
import { plantedManifest } from '../../helpers/planted-manifest.js';
import { removeScratch } from '../../helpers/scratch.js';
import { cloneWorkingTree } from '../../helpers/working-tree.js';

const inCi = Boolean(process.env.CI) && process.env.CI !== 'false';
const just = justInstalled();
const target = process.env.JUST_TARGET;
const MISSING = [
  ...(just ? [] : ['just(js) (no `just` in $JUST_HOME or in a root-owned system folder)']),
  ...(target ? [] : ['the just(js) build target ($JUST_TARGET is unset)']),
];
const HOW_TO_GET_IT = `${MISSING.join(' and ')} not installed: \`npm test\` builds them from ../shared/just where that folder exists, or \`npm run install-just -- [--system] 0.1.13 ~/.cache/jsio-just\` (docs/runners.md)`;
const skip = MISSING.length > 0 && !inCi;
if (skip) process.stderr.write(`traced-app-build.integration: skipped: ${HOW_TO_GET_IT}\n`);

/**
 * The app's build config: it embeds data/table.txt, named from the build folder (where `just
 * build` runs) up to the sandbox's root and down the side's fixed path; no literal holds the name.
 */
const CONFIG = `const up = just.sys.cwd().split('/').filter(Boolean).map(() => '..')
const table = [...up, 'jsio', 'side', 'data', ['tab', 'le'].join('')].join('/') + '.' + 'txt'
module.exports = { main: 'app.js', embeds: [table] }
`;

/** Another app's build config: it tries to write beside the program and swallows the refusal. */
const SCRIBBLING_CONFIG = `try {
  just.fs.writeFile('/jsio/side/programs/appbuild/app-scribble.out', new ArrayBuffer(1))
} catch (e) {}
module.exports = { main: 'app.js' }
`;

/** The table the app embeds: the marker shows the binary holds its bytes. */
const TABLE = 'planted-table-marker\n';

function plantApp(root: string): void {
  const exp = join(root, 'programs', 'appbuild');
  mkdirSync(exp, { recursive: true });
  // A program known to build as a static app (its entry point is the program itself) and to run as a script.
  copyFileSync(join(ROOT, 'programs', 'wc', 'wc-just-sync.js'), join(exp, 'app.js'));
  writeFileSync(join(exp, 'app.config.js'), CONFIG);
  writeFileSync(join(exp, 'scribble.config.js'), SCRIBBLING_CONFIG);
  const profile = { runs: 2, warmup: 0, timeout: 60, constants: { n: 1 } };
  writeFileSync(
    join(exp, 'manifest.json'),
    JSON.stringify(
      plantedManifest(
        'an app build that embeds a file',
        'Does the trace see what a just(js) app build reads?',
        profile,
        {
          input: { pipe: 'dd if=/dev/zero bs={bs} count=1 status=none' },
          variants: [
            {
              id: 'app',
              description: 'the program built into a standalone just(js) binary that embeds the table',
              runtime: 'just',
              source: 'app.js',
              build: { kind: 'just-static', config: 'app.config.js' },
              command: '{bin} {bs}',
              output: 'none',
            },
            {
              id: 'scribble',
              description: 'the program built into a standalone binary by a config that writes where it may not',
              runtime: 'just',
              source: 'app.js',
              build: { kind: 'just-static', config: 'scribble.config.js' },
              command: '{bin} {bs}',
              output: 'none',
            },
            {
              id: 'script',
              description: 'the same program run by just(js) as a script: no build, no table',
              runtime: 'just',
              source: 'app.js',
              command: '{js} {bs}',
              output: 'none',
            },
            { id: 'sh', description: 'no program of its own', runtime: 'system', command: 'cat', output: 'none' },
          ],
        },
      ),
    ),
  );
  mkdirSync(join(root, 'data'), { recursive: true });
  writeFileSync(join(root, 'data', 'table.txt'), TABLE);
}

let dir: string;
let base: string;
let head: string;
let cache: string;
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' }).trim();

const plan = (...flags: string[]) => {
  const args = ['pairs', '--base', base, '--head', head, '--plan', '--json', ...flags];
  const r = runCli([...args, '--profile', 'quick', '--experiments', 'appbuild'], { JSIO_CACHE: cache });
  return { ...r, plan: r.status === 0 ? DiffPlan.parse(JSON.parse(r.stdout)) : undefined };
};
const reasonsOf = (p: DiffPlan | undefined, variant: string) =>
  p?.affected.find((a) => a.benchmark.startsWith(`appbuild/${variant}/`))?.reasons ?? [];

describe.skipIf(skip)('pairs --plan --trace: a just(js) app build', () => {
  let traced: ReturnType<typeof plan>;
  beforeAll(() => {
    if (MISSING.length) return;
    dir = mkdtempSync(join(tmpdir(), 'jsio-traced-app-'));
    base = join(dir, 'base');
    head = join(dir, 'head');
    cache = join(dir, 'cache');
    cloneWorkingTree(base);
    plantApp(base);
    git(base, 'add', '-A');
    git(base, 'commit', '-q', '-m', 'an app that embeds a table');
    execFileSync('git', ['clone', '-q', base, head]);
    appendFileSync(join(head, 'data', 'table.txt'), 'one more row\n');
    git(head, 'commit', '-q', '-am', 'the table changed where no static rule looks');
    traced = plan('--trace');
  }, 900_000);
  afterAll(() => (process.env.JSIO_KEEP_TMP ? undefined : removeScratch(dir)));

  it('has just(js) and its build target to build with', () => {
    expect(MISSING, HOW_TO_GET_IT).toEqual([]);
  });

  it('without the trace, no static rule sees the change', () => {
    const r = plan();
    expect(r.status, r.stderr).toBe(0);
    expect(r.plan!.affected).toEqual([]);
  });

  it('the app build ran under the trace, and its binary holds the table', () => {
    expect(traced.status, traced.stderr).toBe(0);
    expect(traced.stderr).toMatch(/building appbuild\/app \(just-static, traced\)/);
    const binary = execFileSync('find', [cache, '-path', '*/build/appbuild/app/app', '-type', 'f'], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .filter(Boolean);
    expect(binary).toHaveLength(1);
    expect(readFileSync(binary[0]!).includes(TABLE)).toBe(true);
  });

  it('a file only the app build read: exactly the app-binary point is affected, seen only by tracing', () => {
    expect(traced.status, traced.stderr).toBe(0);
    const p = traced.plan!;
    expect(p.affected.map((a) => a.benchmark)).toEqual(['appbuild/app/bs=4096,runtime=just']);
    expect(reasonsOf(p, 'app')).toContain('seen only by tracing: data/table.txt');
    expect(p.traced!.seenOnlyByTracing.find((s) => s.path === 'data/table.txt')).toEqual({
      path: 'data/table.txt',
      points: 1,
      experiments: ['appbuild'],
    });
    expect(p.traced!.notFullyTraced).toEqual([]);
  });

  it('an app build that wrote outside its folder breaks its point, with the path, though the build went on', () => {
    expect(traced.status, traced.stderr).toBe(0);
    expect(traced.plan!.traced!.refusedWrites).toEqual([
      { benchmark: 'appbuild/scribble/bs=4096,runtime=just', paths: ['programs/appbuild/app-scribble.out'] },
    ]);
    expect(existsSync(join(base, 'programs', 'appbuild', 'app-scribble.out'))).toBe(false);
  });
});
