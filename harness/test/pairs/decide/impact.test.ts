// Impact from content: a change is planted in one kind of input at a time in a copy of this
// repository (a program, a file a program imports, a C header it includes, a generator, a manifest
// entry and constant, a runtime pin, a package, a site file, a doc, a harness file) and exactly the
// points whose process runs or reads it become affected — by following the real imports (esbuild)
// and includes (gcc -MM), not a hand-kept list.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  affectedBecause,
  changedParts,
  drawControl,
  type PointIdentity,
  planImpact,
} from '../../../src/pairs/decide/impact.js';
import { loadAllExperiments } from '../../../src/plan/experiments.js';
import { measuredInputs } from '../../../src/plan/identify-inputs.js';
import { expand, type Point } from '../../../src/plan/plan.js';
import { ROOT } from '../../helpers/cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'jsio-impact-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let copies = 0;
/** A checkout holding what a point's identity can read: programs, pins, lockfile, and a doc, a site file and a harness file. */
function checkout(edit: (root: string) => void = () => {}): string {
  const root = join(scratch, `c${copies++}`);
  cpSync(join(ROOT, 'programs'), join(root, 'programs'), { recursive: true });
  cpSync(join(ROOT, 'harness', 'toolchains.json'), join(root, 'harness', 'toolchains.json'));
  cpSync(join(ROOT, 'package-lock.json'), join(root, 'package-lock.json'));
  cpSync(join(ROOT, 'README.md'), join(root, 'README.md'));
  cpSync(join(ROOT, 'gh-pages', 'src', 'main.ts'), join(root, 'gh-pages', 'src', 'main.ts'));
  cpSync(join(ROOT, 'harness', 'src', 'run'), join(root, 'harness', 'src', 'run'), { recursive: true });
  // A C program with a local header on both sides, so a header change can be planted.
  const c = join(root, 'programs', 'wc', 'wc-c.c');
  writeFileSync(join(root, 'programs', 'wc', 'wc-c.h'), '#define WC_HEADER 1\n');
  writeFileSync(c, `#include "wc-c.h"\n${readFileSync(c, 'utf8')}`);
  edit(root);
  return root;
}

const append = (file: string, text: string) => writeFileSync(file, `${readFileSync(file, 'utf8')}${text}`);
const editJson = (file: string, f: (j: any) => void) => {
  const j = JSON.parse(readFileSync(file, 'utf8'));
  f(j);
  writeFileSync(file, JSON.stringify(j, null, 2));
};

function identities(root: string): PointIdentity[] {
  const points: Point[] = expand(loadAllExperiments(join(root, 'programs')), 'smoke', {});
  return points.map((p) => ({ id: p.id, experiment: p.experiment.id, identity: measuredInputs(p, root) }));
}

let base: PointIdentity[];
let all: string[];
beforeAll(() => {
  base = identities(checkout());
  all = base.map((p) => p.id);
});

/** The ids a planted change affects (no control drawn). */
function affectedBy(edit: (root: string) => void): string[] {
  const plan = planImpact(base, identities(checkout(edit)), 0, 1);
  return [...plan.affected.keys()].sort();
}

const ids = (pred: (id: string) => boolean) => all.filter(pred).sort();
const variantIs =
  (experiment: string, ...variants: string[]) =>
  (id: string) =>
    variants.some((v) => id.startsWith(`${experiment}/${v}/`) || id === `${experiment}/${v}`);

describe('measured-input identity: which points a planted change affects', () => {
  it('an identical checkout affects nothing, and every identity is known', () => {
    expect(base.every((p) => p.identity.ok)).toBe(true);
    expect(affectedBy(() => {})).toEqual([]);
  });

  it('a program: only its own points', () => {
    const got = affectedBy((r) => append(join(r, 'programs', 'wc', 'wc-node-stream.js'), '\n// edited\n'));
    expect(got).toEqual(ids(variantIs('wc', 'node-stream')));
    expect(got.length).toBeGreaterThan(0);
  });

  it('a file a program imports: the programs that import it, found by following the imports', () => {
    const got = affectedBy((r) => append(join(r, 'programs', 'scan', 'scan-common.js'), '\n// edited\n'));
    expect(got).toEqual(ids(variantIs('scan', 'node-sync', 'node-async', 'node-eventloop')));
    expect(got.length).toBeGreaterThan(0);
  });

  it('a C header a program includes (gcc -MM): the C program, and the static just(js) app is untouched', () => {
    expect(affectedBy((r) => writeFileSync(join(r, 'programs', 'wc', 'wc-c.h'), '#define WC_HEADER 2\n'))).toEqual(
      ids(variantIs('wc', 'c')),
    );
  });

  it('an input generator: every point of its experiment (measured, its workload judged by the bytes it generates)', () => {
    const got = affectedBy((r) => append(join(r, 'programs', 'streams', 'generate.mjs'), '\n// edited\n'));
    expect(got).toEqual(ids((id) => id.startsWith('streams/')));
  });

  it("a manifest entry: a variant's flags affect its points; a constant affects its experiment; presentation nothing", () => {
    const wcManifest = (r: string) => join(r, 'programs', 'wc', 'manifest.json');
    expect(
      affectedBy((r) =>
        editJson(wcManifest(r), (m) => {
          m.variants.find((v: { id: string }) => v.id === 'c').build.flags = ['-O2', '-Wall'];
        }),
      ),
    ).toEqual(ids(variantIs('wc', 'c')));
    expect(affectedBy((r) => editJson(wcManifest(r), (m) => (m.profiles.smoke.constants.max_reads += 1)))).toEqual(
      ids((id) => id.startsWith('wc/')),
    );
    expect(
      affectedBy((r) =>
        editJson(wcManifest(r), (m) => {
          m.question = 'Another wording';
          m.variants[0].description = 'reworded';
          m.profiles.smoke.runs += 2;
        }),
      ),
    ).toEqual([]);
  });

  it('a runtime pin: exactly the points run under that runtime', () => {
    const got = affectedBy((r) => editJson(join(r, 'harness', 'toolchains.json'), (p) => (p.bun = '1.0.0')));
    expect(got).toEqual(ids((id) => /[,/]runtime=bun(,|$)/.test(id)));
    expect(got.length).toBeGreaterThan(0);
  });

  it('a package a program imports (its lockfile pin): the program that imports it', () => {
    const got = affectedBy((r) =>
      editJson(join(r, 'package-lock.json'), (l) => (l.packages['node_modules/through2'].version = '9.9.9')),
    );
    // The bundled variant too: esbuild bundles the same package into it.
    expect(got).toEqual(ids(variantIs('streams', 'through2', 'through2-bundle')));
  });

  it("a site file, a doc or a harness file: nothing (the harness is the head's on both sides)", () => {
    expect(
      affectedBy((r) => {
        append(join(r, 'gh-pages', 'src', 'main.ts'), '\n// edited\n');
        append(join(r, 'README.md'), '\nedited\n');
        append(join(r, 'harness', 'src', 'run', 'runner.ts'), '\n// edited\n');
      }),
    ).toEqual([]);
  });

  it('an identity that cannot be proven is affected, with the reason', () => {
    const head = identities(
      checkout((r) => {
        const f = join(r, 'programs', 'scan', 'scan-node-sync.js');
        writeFileSync(f, readFileSync(f, 'utf8').replace("'./scan-common.js'", "'./missing-helper.js'"));
      }),
    );
    const plan = planImpact(base, head, 0, 1);
    const why = [...plan.affected].filter(([id]) => variantIs('scan', 'node-sync')(id));
    expect(why.length).toBeGreaterThan(0);
    for (const [, reasons] of why)
      expect(reasons.join('; ')).toMatch(/cannot be identified on the head: .*missing-helper\.js/);
  });
});

describe('impact: pure parts', () => {
  it('names what changed, a runtime pin with both versions', () => {
    expect(
      changedParts(
        { 'file programs/a.c': '1', 'runtime bun': '1.0.0', 'file programs/old.h': 'x' },
        { 'file programs/a.c': '2', 'runtime bun': '1.1.0', 'file programs/new.h': 'y' },
      ),
    ).toEqual([
      'programs/a.c',
      'programs/new.h (new)',
      'programs/old.h (no longer used)',
      'runtime bun: 1.0.0 → 1.1.0',
    ]);
    const id = (digest: string, parts: Record<string, string>) => ({ ok: true as const, digest, parts });
    expect(affectedBecause(id('a', { x: '1' }), id('a', { x: '1' }))).toBeUndefined();
    expect(affectedBecause({ ok: false, reason: 'r' }, id('a', {}))).toMatch(/on the base: r/);
  });

  it('draws the control spread over experiments, the same for the same seed', () => {
    const cands = ['a', 'b', 'c'].flatMap((e) =>
      Array.from({ length: 10 }, (_, i) => ({ id: `${e}/${i}`, experiment: e })),
    );
    const one = drawControl(cands, 6, 42);
    expect(one).toHaveLength(6);
    expect(new Set(one).size).toBe(6);
    for (const e of ['a', 'b', 'c']) expect(one.filter((id) => id.startsWith(`${e}/`))).toHaveLength(2);
    expect(drawControl(cands, 6, 42)).toEqual(one);
    expect(drawControl(cands, 6, 43)).not.toEqual(one);
    expect(drawControl(cands.slice(0, 2), 6, 1)).toHaveLength(2);
  });

  it('plans: affected and control measured, the rest listed as not affected with the reason', () => {
    const id = (digest: string) => ({ ok: true as const, digest, parts: { p: digest } });
    const pts = (d: (i: number) => string) =>
      Array.from({ length: 10 }, (_, i) => ({ id: `e/${i}`, experiment: 'e', identity: id(d(i)) }));
    const plan = planImpact(
      pts(() => 'same'),
      pts((i) => (i === 3 ? 'other' : 'same')),
      2,
      7,
    );
    expect([...plan.affected.keys()]).toEqual(['e/3']);
    expect([...plan.measure.values()].filter((v) => v === 'control')).toHaveLength(2);
    expect(plan.notAffected).toHaveLength(7);
    expect(plan.notAffected[0]!.reason).toMatch(/byte-identical/);
  });
});
