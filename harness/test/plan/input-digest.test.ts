// A generated input's content digest: the same bytes give the same digest whatever the
// generator's text, it is kept beside the facts (never among them, so the trend store's workload
// hash does not move), and an input cached before digests existed gets one on its first read.
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExperiment } from '../../src/plan/experiments.js';
import { DIGEST_FILE, digestTree, inputDigest } from '../../src/plan/input-digest.js';
import { ensureInput } from '../../src/plan/inputs.js';
import { expand } from '../../src/plan/plan.js';
import { ROOT } from '../helpers/cli.js';
import { jobOf } from '../helpers/jobs.js';

/** A copy of the scan experiment, its generator's text changed by `edit`. */
function scanCopy(edit: (s: string) => string = (s) => s) {
  const dir = join(mkdtempSync(join(tmpdir(), 'jsio-digest-')), 'scan');
  cpSync(join(ROOT, 'programs', 'scan'), dir, { recursive: true });
  const gen = join(dir, 'generate.mjs');
  writeFileSync(gen, edit(readFileSync(gen, 'utf8')));
  return loadExperiment(dir);
}

async function generated(exp: ReturnType<typeof scanCopy>, files: string, cache: string) {
  const out = await ensureInput(exp, { files }, cache, () => {});
  if (!out.ok) throw new Error(out.reason);
  return out;
}

describe('generated input digest', () => {
  it('a generator changed only in a comment writes the same bytes: another cache folder, the same digest', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'jsio-digest-cache-'));
    const a = await generated(scanCopy(), '20', cache);
    const b = await generated(
      scanCopy((s) => `// a comment the generator does not print\n${s}`),
      '20',
      cache,
    );
    expect(a.dir).not.toBe(b.dir);
    expect(a.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(b.digest).toBe(a.digest);
    // Kept beside the facts, not among them.
    expect(readFileSync(join(a.dir, DIGEST_FILE), 'utf8').trim()).toBe(a.digest);
    expect(Object.keys(a.facts)).not.toContain('digest');
    // Other bytes, another digest.
    const c = await generated(scanCopy(), '21', cache);
    expect(c.digest).not.toBe(a.digest);
  });

  it('an input cached before digests were kept gets one on its first read, stored for the next', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'jsio-digest-old-'));
    const exp = scanCopy();
    const first = await generated(exp, '20', cache);
    // As an older harness left it: the input and its facts, no digest. A fresh cache directory
    // with the same layout (ensureInput remembers the folders it made in this process).
    const old = mkdtempSync(join(tmpdir(), 'jsio-digest-copy-'));
    mkdirSync(join(old, 'inputs'), { recursive: true });
    cpSync(join(cache, 'inputs'), join(old, 'inputs'), { recursive: true });
    const copy = first.dir.replace(cache, old);
    rmSync(join(copy, DIGEST_FILE));
    const again = await generated(exp, '20', old);
    expect(again.dir).toBe(copy);
    expect(again.digest).toBe(first.digest);
    expect(existsSync(join(copy, DIGEST_FILE))).toBe(true);
    expect(inputDigest(copy)).toBe(first.digest);
  });

  it('the digest covers every file the generator wrote, and none of the harness files beside them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-digest-tree-'));
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'lib', 'a.js'), 'x');
    const before = digestTree(dir);
    writeFileSync(join(dir, '.facts.json'), '{"files":1}');
    writeFileSync(join(dir, DIGEST_FILE), before);
    expect(digestTree(dir)).toBe(before);
    appendFileSync(join(dir, 'lib', 'a.js'), 'y');
    expect(digestTree(dir)).not.toBe(before);
    // A file's bytes moved into its name is another tree.
    const other = mkdtempSync(join(tmpdir(), 'jsio-digest-tree-'));
    mkdirSync(join(other, 'lib'));
    writeFileSync(join(other, 'lib', 'a.jsx'), 'y');
    expect(digestTree(other)).not.toBe(digestTree(dir));
  });

  it("the digest rides on the job, and leaves the job's workload hash (the store's series key) alone", () => {
    const exp = scanCopy();
    const point = expand([exp], 'smoke', { variants: ['c-blocking'], params: { files: [100], cache: ['warm'] } })[0]!;
    const facts = { files: 100, imports: 1, constants: 2, functions: 3, bytes: 4, sha256: 'x' };
    const without = jobOf(point, { input: { ok: true, dir: '/in', facts } });
    const withDigest = jobOf(point, { input: { ok: true, dir: '/in', facts, digest: 'a'.repeat(64) } });
    expect(without.inputDigest).toBeUndefined();
    expect(withDigest.inputDigest).toBe('a'.repeat(64));
    expect(withDigest.workload).toBe(without.workload);
  });
});
