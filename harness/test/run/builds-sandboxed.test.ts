// Builds and generators run in their side's sandbox, writable only in their own output folder:
// an esbuild bundle that reaches a file outside the sandbox cannot resolve it, an input generator
// that writes beside its script fails with EROFS and the path, and a just(js) app built there
// works while one whose build config writes beside its source fails with the path.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSandbox, runpathOf } from '../../src/machine/sandbox/open.js';
import type { JobBuild } from '../../src/model/job.js';
import type { Sandbox } from '../../src/model/sandbox.js';
import { loadAllExperiments, loadExperiment } from '../../src/plan/experiments.js';
import { ensureInput } from '../../src/plan/inputs.js';
import { buildOne } from '../../src/run/build.js';
import { FIXTURES, ROOT } from '../helpers/cli.js';
import { justInstalled } from '../helpers/just.js';
import { removeScratch } from '../helpers/scratch.js';

const dir = mkdtempSync(join(tmpdir(), 'jsio-builds-sandboxed-'));
afterAll(() => removeScratch(dir));
const cache = join(dir, 'cache');
const just = justInstalled();

/** The side's sandbox over this checkout (or `root`), with `programs` as its programs folder. */
function sandboxOf(programs: string, root = ROOT): Sandbox {
  const toolPaths = [process.execPath, ...(just ? [just] : [])];
  const opened = openSandbox({
    root,
    programsDir: programs,
    cacheDir: cache,
    scratchDir: join(cache, 'scratch'),
    ...(process.env.JUST_HOME ? { justHome: process.env.JUST_HOME } : {}),
    ...(process.env.JUST_TARGET ? { justTarget: process.env.JUST_TARGET } : {}),
    toolPaths,
    libraryDirs: toolPaths.flatMap(runpathOf),
  });
  if (!opened.ok) throw new Error(opened.reason);
  return opened.sandbox;
}

/** A folder of programs with one experiment `id` holding `files`. */
function programs(id: string, files: Record<string, string>): string {
  const at = join(dir, `programs-${id}`, id);
  mkdirSync(at, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(at, name), text);
  return join(dir, `programs-${id}`);
}

/** A build made again on every call (unkeyed), in its own entry, shown at /jsio/build/<key>/x. */
const buildOf = (
  key: string,
  b: Omit<JobBuild, 'key' | 'artifact' | 'keyed' | 'inside'>,
  artifact: string,
): JobBuild => ({
  key,
  artifact: join(cache, 'builds', key, 'unkeyed', artifact),
  keyed: false,
  inside: `/jsio/build/${key}/x`,
  ...b,
});

describe('esbuild in the sandbox', () => {
  it("bundles streams' through2 program with the checkout's esbuild", async () => {
    const src = join(ROOT, 'programs', 'streams');
    const b = buildOf(
      'through2',
      { spec: { kind: 'esbuild', platform: 'node' }, source: join(src, 'streams-through2-node.mjs'), cwd: src },
      'bundle.mjs',
    );
    const built = await buildOne(b, sandboxOf(join(ROOT, 'programs')));
    expect(built.ok, built.ok ? '' : built.reason).toBe(true);
    expect(readFileSync(b.artifact, 'utf8')).toContain('__jsioCreateRequire');
  });

  it('cannot reach a file outside the sandbox that the same bundle reaches without one', async () => {
    const outside = join(dir, 'outside.mjs');
    writeFileSync(outside, 'export const planted = 1;\n');
    const progs = programs('reach', { 'entry.mjs': `import { planted } from '${outside}';\nconsole.log(planted);\n` });
    const cwd = join(progs, 'reach');
    const b = buildOf(
      'reach',
      { spec: { kind: 'esbuild', platform: 'node' }, source: join(cwd, 'entry.mjs'), cwd },
      'bundle.mjs',
    );
    expect((await buildOne(b)).ok).toBe(true);
    const built = await buildOne(b, sandboxOf(progs));
    expect(built.ok).toBe(false);
    expect(built.ok ? '' : built.reason).toMatch(/esbuild failed:[\s\S]*Could not resolve[\s\S]*outside\.mjs/);
  });
});

describe('input generators in the sandbox', () => {
  /** The tally fixture, copied into a programs folder of its own, with a generator running `body`. */
  function withGenerator(name: string, body: string): string {
    const progs = join(dir, `programs-${name}`);
    cpSync(join(FIXTURES, 'programs', 'tally'), join(progs, 'tally'), { recursive: true });
    const file = join(progs, 'tally', 'manifest.json');
    writeFileSync(
      file,
      JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), generate: { script: 'generate.mjs' } }),
    );
    writeFileSync(
      join(progs, 'tally', 'generate.mjs'),
      `import { writeFileSync } from 'node:fs';\nconst out = process.argv[process.argv.indexOf('--out') + 1];\n${body}\nconsole.log(JSON.stringify({ bytes: 2 }));\n`,
    );
    return progs;
  }

  it('writes its own output folder in the cache', async () => {
    const progs = withGenerator('gen-ok', "writeFileSync(`${out}/input.txt`, 'ok');");
    const r = await ensureInput(loadExperiment(join(progs, 'tally')), {}, cache, () => {}, sandboxOf(progs));
    expect(r.ok, r.ok ? '' : r.reason).toBe(true);
    expect(r.ok && readFileSync(join(r.dir, 'input.txt'), 'utf8')).toBe('ok');
  });

  // The paired diff reaches each side through a link: the generator's real path is translated too.
  it("runs every experiment's generator, its checkout reached through a link", async () => {
    const link = join(dir, 'side');
    symlinkSync(ROOT, link, 'dir');
    const small: Record<string, string> = { bytes: '65536', files: '20', lines: '200', copies: '3', seed: '1' };
    const experiments = loadAllExperiments(join(link, 'programs')).filter((e) => e.manifest.generate);
    expect(experiments.length).toBeGreaterThan(3);
    const sandbox = sandboxOf(join(link, 'programs'), link);
    for (const exp of experiments) {
      const args = Object.fromEntries(Object.keys(exp.manifest.generate?.args ?? {}).map((k) => [k, small[k] ?? '1']));
      const r = await ensureInput(exp, args, join(dir, 'cache-link'), () => {}, sandbox);
      expect(r.ok ? '' : r.reason, exp.id).toBe('');
    }
  });

  it('fails with EROFS and the path when it writes beside its script', async () => {
    const progs = withGenerator('gen-planted', "writeFileSync(new URL('planted.txt', import.meta.url), 'x');");
    const r = await ensureInput(loadExperiment(join(progs, 'tally')), {}, cache, () => {}, sandboxOf(progs));
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.reason).toMatch(
      /input generator generate\.mjs exited .*EROFS.*\/jsio\/programs\/tally\/planted\.txt/,
    );
    expect(existsSync(join(progs, 'tally', 'planted.txt'))).toBe(false);
  });
});

// Skipped where just(js) or its build target is missing, saying so, except under CI, where that fails.
const justMissing = !just || !process.env.JUST_TARGET;
const inCi = Boolean(process.env.CI) && process.env.CI !== 'false';
if (justMissing && !inCi) console.warn('just build in the sandbox: skipped, no just(js) or no $JUST_TARGET');

describe.skipIf(justMissing && !inCi)('just build in the sandbox', () => {
  beforeAll(() => {
    if (justMissing) throw new Error('just(js) and its build target ($JUST_HOME, $JUST_TARGET) are required under CI');
  });
  const wc = join(ROOT, 'programs', 'wc');
  const app = (key: string, config: string): JobBuild =>
    buildOf(
      key,
      {
        spec: { kind: 'just-static', config: 'unused' },
        source: join(wc, 'wc-just-sync.js'),
        cwd: wc,
        config,
        tool: { path: just!, version: '0.1.13' },
      },
      'wc-just-sync',
    );

  it('builds a standalone app with a private copy of the build target', async () => {
    const b = app('just-ok', join(wc, 'wc-just-static.config.js'));
    const built = await buildOne(b, sandboxOf(join(ROOT, 'programs')));
    expect(built.ok, built.ok ? '' : built.reason).toBe(true);
    expect(existsSync(b.artifact)).toBe(true);
    // The copy of the target is not left in the cache.
    expect(existsSync(join(cache, 'builds', 'just-ok', 'unkeyed', '.just-target'))).toBe(false);
  }, 300_000);

  it('fails with the path when its build config writes beside the source', async () => {
    const progs = join(dir, 'programs-just');
    cpSync(wc, join(progs, 'wc'), { recursive: true });
    const config = join(progs, 'wc', 'planted.config.js');
    writeFileSync(
      config,
      "just.fs.writeFile('/jsio/programs/wc/planted.txt', new ArrayBuffer(1));\nmodule.exports = { main: 'wc-just-sync.js' }\n",
    );
    const built = await buildOne(app('just-planted', config), sandboxOf(progs));
    expect(built.ok).toBe(false);
    expect(built.ok ? '' : built.reason).toMatch(
      /just build produced no binary:\nError: Error Opening File \/jsio\/programs\/wc\/planted\.txt: 30/,
    );
    expect(existsSync(join(progs, 'wc', 'planted.txt'))).toBe(false);
  }, 300_000);
});
