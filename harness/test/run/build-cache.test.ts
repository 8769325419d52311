// Builds live in the harness's cache outside every checkout, keyed by what determines them (what
// the build reads, the builder's version, where it sees its folder): two clones with the same
// program share one entry, built once; a changed source makes a new entry and leaves the old one;
// two builds of one entry end with one complete entry; a build writes only its staging folder
// (a gcc that writes beside its source fails with the path, and leaves no entry). Real gcc, bwrap.
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSandbox } from '../../src/machine/sandbox/open.js';
import { systemTool } from '../../src/machine/tools.js';
import type { Job } from '../../src/model/job.js';
import type { Sandbox } from '../../src/model/sandbox.js';
import { recipeOf } from '../../src/plan/build-recipe.js';
import { loadAllExperiments } from '../../src/plan/experiments.js';
import { forgetMeasuredInputs } from '../../src/plan/identify-inputs.js';
import { planJobs } from '../../src/plan/jobs.js';
import { expand } from '../../src/plan/plan.js';
import { buildAll, buildOne } from '../../src/run/build.js';
import { settle } from '../../src/run/build-entry.js';
import { programCheckout } from '../helpers/program-checkout.js';
import { removeScratch } from '../helpers/scratch.js';

const dir = mkdtempSync(join(tmpdir(), 'jsio-build-cache-'));
const strace = systemTool('strace');
const clones = {
  a: programCheckout('build-cache-a'),
  b: programCheckout('build-cache-b'),
  ...(strace
    ? {
        hiddenA: hiddenReadClone('build-cache-ha', 'blob\n'),
        hiddenB: hiddenReadClone('build-cache-hb', 'other blob\n'),
        hiddenC: hiddenReadClone('build-cache-hc', 'blob\n'),
      }
    : {}),
};
afterAll(() => {
  removeScratch(dir);
  for (const c of Object.values(clones)) removeScratch(c);
});
const cache = join(dir, 'cache');
const builds = join(cache, 'builds');
const gcc = systemTool('gcc')!;
const gccVersion = execFileSync(gcc, ['-dumpfullversion'], { encoding: 'utf8' }).trim();

function sandboxOf(root: string): Sandbox {
  const opened = openSandbox({ root, cacheDir: cache, scratchDir: join(cache, 'scratch'), toolPaths: [gcc] });
  if (!opened.ok) throw new Error(opened.reason);
  return opened.sandbox;
}

/** wc's C point planned from `root`, its own folder of the cache `own` (the view), in its sandbox. */
function wcJob(root: string, own: string): Job {
  forgetMeasuredInputs();
  const exps = loadAllExperiments(join(root, 'programs')).filter((e) => e.id === 'wc');
  const [point] = expand(exps, 'smoke', { variants: ['c'], params: { bs: [4096] } });
  return planJobs([point!], {
    runtimes: new Map([['gcc', { ok: true, path: gcc, version: gccVersion }]]),
    inputs: new Map(),
    cacheDir: own,
    buildsDir: builds,
    require: [],
    sandbox: sandboxOf(root),
  })[0]!;
}

const entries = (e: string, v: string) => readdirSync(join(builds, e, v)).sort();
const identity = (file: string) => {
  const s = statSync(file);
  return `${s.ino}:${s.mtimeMs}`;
};

/** A clone whose wc C program's assembler reads data/blob.bin by a name a macro makes (no static rule sees it). */
function hiddenReadClone(name: string, blob: string): string {
  const root = programCheckout(name);
  appendFileSync(
    join(root, 'programs', 'wc', 'wc-c.c'),
    '#define STR(x) #x\n#define BLOB(d, n) ".incbin \\"" STR(d) "/" STR(n) "\\""\n' +
      '__asm__(".section .rodata\\nplanted_blob:\\n" BLOB(../../data, blob.bin) "\\n.text\\n");\n',
  );
  mkdirSync(join(root, 'data'));
  writeFileSync(join(root, 'data', 'blob.bin'), blob);
  return root;
}

describe('builds keyed by content, outside the checkouts', () => {
  let first: string;

  it('the same program in two clones: one entry, built once, shown in each clone’s own folder', async () => {
    const a = wcJob(clones.a, join(dir, 'own-a'));
    const b = wcJob(clones.b, join(dir, 'own-b'));
    expect(a.build!.keyed).toBe(true);
    expect(b.build!.artifact).toBe(a.build!.artifact);
    expect(a.build!.artifact.startsWith(`${builds}/wc/c/b1-`)).toBe(true);
    const [ra] = (await buildAll([a], () => {})).values();
    expect(ra?.ok, ra?.ok ? '' : ra?.reason).toBe(true);
    first = identity(a.build!.artifact);
    const [rb] = (await buildAll([b], () => {})).values();
    expect(rb?.ok, rb?.ok ? '' : rb?.reason).toBe(true);
    // Not built again: the same file, untouched; no staging folder left.
    expect(identity(b.build!.artifact)).toBe(first);
    expect(entries('wc', 'c')).toHaveLength(1);
    // Each clone's view (where bench.yml uploads from) holds the entry's file itself.
    expect(statSync(join(dir, 'own-b', 'build', 'wc', 'c', 'c')).ino).toBe(statSync(b.build!.artifact).ino);
    // The job's sandbox shows the entry at the fixed path both sides share.
    expect(b.sandbox!.roots).toContainEqual({ host: join(b.build!.artifact, '..'), inside: '/jsio/build/wc/c' });
    expect(execFileSync(b.build!.artifact, ['4096'], { input: 'one two\nthree\n', encoding: 'utf8' })).toContain(
      '"bytes":14',
    );
  });

  it("the key covers the harness's own recipe: the builder's command line, paths as placeholders", () => {
    const spec = { kind: 'gcc' as const, flags: ['-O3', '-Wall'], libs: ['-lm'] };
    expect(recipeOf(spec, 'c')).toBe(JSON.stringify(['<gcc>', '-O3', '-Wall', '-o', '<out>/c', '<source>', '-lm']));
    const node = recipeOf({ kind: 'esbuild', platform: 'node' }, 'x.mjs');
    expect(node).toContain('--banner:js=');
    expect(node).not.toBe(recipeOf({ kind: 'esbuild', platform: 'neutral' }, 'x.mjs'));
  });

  it('a changed source: a new entry, the old one left as it was', async () => {
    appendFileSync(join(clones.b, 'programs', 'wc', 'wc-c.c'), '/* a comment is a change too */\n');
    const a = wcJob(clones.a, join(dir, 'own-a'));
    const b = wcJob(clones.b, join(dir, 'own-b'));
    expect(b.build!.artifact).not.toBe(a.build!.artifact);
    const [rb] = (await buildAll([b], () => {})).values();
    expect(rb?.ok, rb?.ok ? '' : rb?.reason).toBe(true);
    expect(entries('wc', 'c')).toHaveLength(2);
    expect(identity(a.build!.artifact)).toBe(first);
  });

  it('two builds of one entry at once end with one complete entry', async () => {
    const job = wcJob(clones.a, join(dir, 'own-a'));
    const fresh = { ...job.build!, artifact: join(dir, 'race', 'wc', 'c', 'b1-race', 'c') };
    const [x, y] = await Promise.all([buildOne(fresh, job.sandbox), buildOne(fresh, job.sandbox)]);
    expect(x.ok && y.ok).toBe(true);
    expect(readdirSync(join(dir, 'race', 'wc', 'c'))).toEqual(['b1-race']);
    // Another process that filled it first: this one's build is dropped and the entry's used.
    const staging = join(dir, 'race', 'wc', 'c', 'b1-race.tmp-1');
    mkdirSync(staging);
    writeFileSync(join(staging, 'c'), 'not the entry');
    const info = { kind: 'gcc', compiler: 'x', flags: [], artifact: 'c', bytes: 13, seconds: 0 };
    const kept = settle(join(dir, 'race', 'wc', 'c', 'b1-race'), staging, { info }, true);
    expect(kept.info.compiler).toBe(gccVersion);
    expect(statSync(fresh.artifact).size).not.toBe(13);
    expect(existsSync(staging)).toBe(true);
  });

  it('a build that writes outside its own folder fails with the path and leaves no entry', async () => {
    const job = wcJob(clones.a, join(dir, 'own-a'));
    // A host path of the checkout: the sandbox shows it translated, read-only.
    const target = join(clones.a, 'programs', 'wc', 'planted.d');
    const spec = { kind: 'gcc' as const, flags: ['-O2', '-MD', '-MF', target], libs: [] };
    const planted = { ...job.build!, spec, artifact: join(dir, 'planted', 'wc', 'c', 'b1-planted', 'c') };
    const r = await buildOne(planted, job.sandbox);
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.reason).toMatch(
      /gcc failed:[\s\S]*\/jsio\/side\/programs\/wc\/planted\.d: Read-only file system/,
    );
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(join(dir, 'planted', 'wc', 'c'))).toEqual([]);
  });

  it.skipIf(!strace)(
    'a file only the trace saw the build read, changed in a clone: that clone gets an entry of its own',
    async () => {
      const [a, b, c] = [clones.hiddenA!, clones.hiddenB!, clones.hiddenC!].map((root, i) =>
        wcJob(root, join(dir, `own-h${i}`)),
      ) as [Job, Job, Job];
      // The static rules see the same build in all three.
      expect(new Set([a, b, c].map((j) => j.build!.artifact)).size).toBe(1);
      const [made] = (await buildAll([a], () => {}, strace)).values();
      expect(made?.ok, made?.ok ? '' : made?.reason).toBe(true);
      expect(made?.ok && made.trace?.paths).toContain('data/blob.bin');
      // Planned again after the traced build: the clone whose blob differs builds its own.
      const [b2, c2] = [clones.hiddenB!, clones.hiddenC!].map((root, i) => wcJob(root, join(dir, `own-h${i + 1}`)));
      expect(c2!.build!.artifact).toBe(a.build!.artifact);
      expect(b2!.build!.artifact).not.toBe(a.build!.artifact);
      expect(b2!.build!.artifact).toMatch(/\/b1-[0-9a-f]+-r[0-9a-f]+\/c$/);
      const [rb] = (await buildAll([b2!], () => {})).values();
      expect(rb?.ok, rb?.ok ? '' : rb?.reason).toBe(true);
      const blobOf = (f: string) => readFileSync(f, 'latin1').includes('other blob');
      expect([blobOf(a.build!.artifact), blobOf(b2!.build!.artifact)]).toEqual([false, true]);
    },
  );
});
