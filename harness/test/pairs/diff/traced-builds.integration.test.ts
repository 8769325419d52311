// `pairs --plan --trace` sees what a point's build and input generator read, not only its run.
// Planted: a C program whose assembler pulls in data/blob.bin through `.incbin` with the name
// made by a macro (gcc -M lists headers, not what `as` reads; no string literal names the file),
// and an input generator that reads data/seed.txt by a name it computes. Each head changes one
// of those files only: no static rule sees either change, the trace sees both. The generator's
// trace is kept beside its cached input; an input cached without one is made again under trace.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiffPlan } from '../../../src/formats/diff-plan-format.js';
import { runCli } from '../../helpers/cli.js';
import { plantedManifest } from '../../helpers/planted-manifest.js';
import { removeScratch } from '../../helpers/scratch.js';
import { borrowNodeModules, cloneWorkingTree } from '../../helpers/working-tree.js';

let dir: string;
let base: string;
let cache: string;
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' }).trim();

/** The assembler reads ../../data/blob.bin (from the experiment's folder): its name is put together by the preprocessor. */
const PROGRAM = `#include <stdio.h>
#define STR(x) #x
#define BLOB(dir, name) ".incbin \\"" STR(dir) "/" STR(name) "\\""
__asm__(".section .rodata\\n.global planted_blob\\nplanted_blob:\\n" BLOB(../../data, blob.bin) "\\n.byte 0\\n.text\\n");
extern const char planted_blob[];
int main(void) {
  char buf[4096];
  while (fread(buf, 1, sizeof buf, stdin) > 0) {}
  return planted_blob[0] == 'b' ? 0 : 1;
}
`;

/** Writes its input, after reading a seed whose name no literal holds. */
const GENERATOR = `import { readFileSync, writeFileSync } from 'node:fs';
const out = process.argv[process.argv.indexOf('--out') + 1];
const seed = readFileSync(['..', '..', 'data', ['se', 'ed'].join('') + '.txt'].join('/'), 'utf8');
writeFileSync(out + '/in.txt', seed.repeat(4));
console.log(JSON.stringify({ bytes: seed.length * 4 }));
`;

function plantHidden(root: string): void {
  const exp = join(root, 'programs', 'hidden');
  mkdirSync(exp, { recursive: true });
  writeFileSync(join(exp, 'hidden.c'), PROGRAM);
  writeFileSync(join(exp, 'gen.mjs'), GENERATOR);
  const profile = { runs: 2, warmup: 0, timeout: 30, constants: { n: 1 } };
  writeFileSync(
    join(exp, 'manifest.json'),
    JSON.stringify(
      plantedManifest(
        'hidden build and generator reads',
        'Does the trace see what a build and a generator read?',
        profile,
        {
          generate: { script: 'gen.mjs' },
          input: { pipe: 'cat {input_dir}/in.txt' },
          variants: [
            {
              id: 'c',
              description: 'a C program built with a blob its assembler reads',
              runtime: 'native',
              source: 'hidden.c',
              build: { kind: 'gcc', flags: ['-O2'] },
              command: '{bin}',
              output: 'none',
            },
            { id: 'sh', description: 'no build', runtime: 'system', command: 'cat', output: 'none' },
          ],
        },
      ),
    ),
  );
  mkdirSync(join(root, 'data'), { recursive: true });
  writeFileSync(join(root, 'data', 'blob.bin'), 'blob\n');
  writeFileSync(join(root, 'data', 'seed.txt'), 'seed\n');
}

/** A clone of the base with one file under data/ (or `../x` beside it) changed. */
function headChanging(name: string, file: string): string {
  const head = join(dir, name);
  execFileSync('git', ['clone', '-q', base, head]);
  appendFileSync(join(head, 'data', file), '// more\n');
  git(head, 'commit', '-q', '-am', `${file} changed where no static rule looks`);
  return head;
}

let blobHead: string;
let seedHead: string;
let preloadHead: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'jsio-traced-builds-'));
  base = join(dir, 'base');
  cache = join(dir, 'cache');
  cloneWorkingTree(base);
  plantHidden(base);
  // Every `npm run bench` preloads a file outside harness/: no static rule of the harness names it.
  writeFileSync(join(base, 'preload.cjs'), '// preloaded by npm run bench\n');
  const pkg = JSON.parse(readFileSync(join(base, 'package.json'), 'utf8'));
  pkg.scripts.bench = 'node --require ./preload.cjs harness/bootstrap.mjs bench';
  writeFileSync(join(base, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  git(base, 'add', '-A');
  git(base, 'commit', '-q', '-m', 'the hidden experiment');
  blobHead = headChanging('head-blob', 'blob.bin');
  seedHead = headChanging('head-seed', 'seed.txt');
  preloadHead = headChanging('head-preload', '../preload.cjs');
  // The base's own harness plans the preload head (its start-up is the one traced).
  borrowNodeModules(base);
}, 120_000);
afterAll(() => (process.env.JSIO_KEEP_TMP ? undefined : removeScratch(dir)));

const plan = (head: string, ...flags: string[]) => {
  const r = runCli(
    [
      'pairs',
      '--base',
      base,
      '--head',
      head,
      '--plan',
      '--json',
      ...flags,
      '--profile',
      'quick',
      '--experiments',
      'hidden',
    ],
    { JSIO_CACHE: cache },
  );
  return { ...r, plan: r.status === 0 ? DiffPlan.parse(JSON.parse(r.stdout)) : undefined };
};
const reasonsOf = (p: DiffPlan | undefined, variant: string) =>
  p?.affected.find((a) => a.benchmark.startsWith(`hidden/${variant}/`))?.reasons ?? [];

describe('pairs --plan --trace: builds and generators', () => {
  let blob: ReturnType<typeof plan>;
  let seed: ReturnType<typeof plan>;
  beforeAll(() => {
    blob = plan(blobHead, '--trace');
    seed = plan(seedHead, '--trace');
  }, 600_000);

  it('without the trace, no static rule sees either change', () => {
    for (const head of [blobHead, seedHead]) {
      const r = plan(head);
      expect(r.status, r.stderr).toBe(0);
      expect(r.plan!.affected).toEqual([]);
    }
  });

  it("a file only the build's assembler read: the built point is affected, the other not", () => {
    expect(blob.status, blob.stderr).toBe(0);
    expect(reasonsOf(blob.plan, 'c')).toContain('seen only by tracing: data/blob.bin');
    expect(reasonsOf(blob.plan, 'sh')).toEqual([]);
    const seen = blob.plan!.traced!.seenOnlyByTracing.find((s) => s.path === 'data/blob.bin');
    expect(seen).toEqual({ path: 'data/blob.bin', points: 1, experiments: ['hidden'] });
    expect(blob.plan!.traced!.notFullyTraced).toEqual([]);
  });

  it('a file only the input generator read: every point of its experiment is affected', () => {
    expect(seed.status, seed.stderr).toBe(0);
    for (const variant of ['c', 'sh'])
      expect(reasonsOf(seed.plan, variant)).toContain('seen only by tracing: data/seed.txt');
    expect(reasonsOf(seed.plan, 'c')).not.toContain('seen only by tracing: data/blob.bin');
  });

  it('the generator ran once under trace, and its trace is kept beside the input it made', () => {
    // The first plan generated the input; the second took it from the cache, with its trace.
    expect(blob.stderr).toMatch(/generating hidden input \(.*\), traced/);
    expect(seed.stderr).not.toMatch(/generating hidden input/);
    const inputs = join(cache, 'inputs', 'hidden');
    const [key] = readdirSync(inputs).filter((n) => !n.includes('.tmp-'));
    expect(existsSync(join(inputs, key!, '.trace.json'))).toBe(true);
  });

  it("a file only the harness's own start-up loads is a harness change; the points' data files are not", () => {
    const args = ['pairs', '--base', base, '--head', preloadHead, '--plan', '--json', '--trace', '--profile', 'quick'];
    const r = spawnSync(
      process.execPath,
      [join(base, 'harness', 'bootstrap.mjs'), ...args, '--experiments', 'hidden'],
      {
        cwd: base,
        encoding: 'utf8',
        env: { ...process.env, CI: '1', JSIO_CACHE: cache },
        timeout: 600_000,
      },
    );
    expect(r.status, r.stderr).toBe(0);
    const p = DiffPlan.parse(JSON.parse(r.stdout));
    expect(p.harnessChange.changed).toBe(true);
    expect(p.harnessChange.files).toEqual(['seen only by tracing: preload.cjs']);
    expect(p.harnessChange.why).toContain("1 file(s) the harness's traced start-up loaded differ");
    expect(r.stderr).toMatch(/^trace of the harness: \d+ path\(s\) in/m);
    for (const q of [blob.plan!, seed.plan!]) expect(q.harnessChange).toMatchObject({ changed: false, files: [] });
  });

  it('an input cached without a trace is made again under one, and the trace still sees the read', () => {
    const inputs = join(cache, 'inputs', 'hidden');
    for (const key of readdirSync(inputs)) rmSync(join(inputs, key, '.trace.json'), { force: true });
    const again = plan(seedHead, '--trace');
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toContain('its cached copy has no trace, made again under one');
    expect(reasonsOf(again.plan, 'sh')).toContain('seen only by tracing: data/seed.txt');
  });
});
