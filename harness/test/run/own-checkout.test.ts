// Each side of a PR diff is built and fed from its own checkout: a gcc build runs in its
// experiment's folder, so a relative path in its flags reads that checkout's files whatever the
// harness's own directory; a generated input is cached under its generator's whole identity, so a
// changed helper gives each checkout its own input and an unchanged one shares it.
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAllExperiments } from '../../src/plan/experiments.js';
import { forgetMeasuredInputs } from '../../src/plan/identify-inputs.js';
import { ensureInput } from '../../src/plan/inputs.js';
import { buildOne } from '../../src/run/build.js';
import { ROOT } from '../helpers/cli.js';
import { removeScratch } from '../helpers/scratch.js';

const dir = mkdtempSync(join(tmpdir(), 'jsio-own-checkout-'));
afterAll(() => removeScratch(dir));

describe('a gcc build runs in its own checkout', () => {
  it("resolves -I relative to the experiment's folder of each side", async () => {
    const built: string[] = [];
    for (const side of ['base', 'head']) {
      const exp = join(dir, side, 'programs', 'x');
      mkdirSync(join(exp, 'inc'), { recursive: true });
      writeFileSync(join(exp, 'inc', 'v.h'), `#define V "${side}"\n`);
      writeFileSync(join(exp, 'x.c'), '#include <stdio.h>\n#include "v.h"\nint main(void) { puts(V); return 0; }\n');
      const artifact = join(dir, side, 'out', 'x');
      const r = await buildOne({
        key: 'x/c',
        spec: { kind: 'gcc', flags: ['-O2', '-Iinc'], libs: [] },
        source: join(exp, 'x.c'),
        artifact,
        keyed: false,
        inside: '/jsio/build/x/c',
        cwd: exp,
        tool: { path: 'gcc', version: 'gcc' },
      });
      expect(r.ok, r.ok ? '' : r.reason).toBe(true);
      built.push(execFileSync(artifact, { encoding: 'utf8' }).trim());
    }
    expect(process.cwd()).not.toContain(dir);
    expect(built).toEqual(['base', 'head']);
  });
});

describe("a generated input is keyed by its generator's whole identity", () => {
  const checkout = (name: string, helper: string) => {
    const root = join(dir, name);
    cpSync(join(ROOT, 'programs', 'scan'), join(root, 'programs', 'scan'), { recursive: true });
    for (const f of ['harness/toolchains.json', 'package-lock.json', 'package.json'])
      cpSync(join(ROOT, f), join(root, f));
    writeFileSync(join(root, 'programs/scan/gen-helper.mjs'), helper);
    const gen = join(root, 'programs/scan/generate.mjs');
    writeFileSync(gen, `import './gen-helper.mjs';\n${readFileSync(gen, 'utf8')}`);
    return loadAllExperiments(join(root, 'programs')).find((e) => e.id === 'scan')!;
  };

  it('a changed helper: an input per side; the same generator: one input', async () => {
    forgetMeasuredInputs();
    const cache = join(dir, 'cache');
    const args = { files: '20' };
    const log = () => {};
    const [a, b, c] = [
      checkout('g1', 'export const x = 1;\n'),
      checkout('g2', 'export const x = 1;\n'),
      checkout('g3', 'export const x = 2;\n'),
    ];
    const [ia, ib, ic] = [
      await ensureInput(a, args, cache, log),
      await ensureInput(b, args, cache, log),
      await ensureInput(c, args, cache, log),
    ];
    expect(ia.ok && ib.ok && ic.ok).toBe(true);
    if (!ia.ok || !ib.ok || !ic.ok) return;
    expect(ib.dir).toBe(ia.dir);
    expect(ic.dir).not.toBe(ia.dir);
    appendFileSync(join(dir, 'g2', 'programs/scan/gen-helper.mjs'), '// a comment is a change too\n');
    forgetMeasuredInputs();
    const again = await ensureInput(
      checkout('g4', 'export const x = 1;\n// a comment is a change too\n'),
      args,
      cache,
      log,
    );
    expect(again.ok && again.dir !== ia.dir).toBe(true);
  });
});
