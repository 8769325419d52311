// The measuring tools are looked for in the system's root-owned folders, never on the PATH the
// harness was started with, which a checkout can extend (a root .npmrc's script-shell put a
// folder of the checkout first on it, where a fake dd re-chunked wc's input pipe). Fakes of every
// tool first on PATH, each leaving a mark when run: none is found nor run (gcc and just(js)
// included), and a sandboxed bench pipes its input through the system's dd and builds its C
// program with the system's gcc.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveRuntime } from '../../src/machine/toolchains.js';
import { findTools } from '../../src/machine/tools.js';
import { bench } from '../../src/pipeline/bench.js';
import { FIXTURES, ROOT } from '../helpers/cli.js';
import { removeScratch } from '../helpers/scratch.js';

const dir = mkdtempSync(join(tmpdir(), 'jsio-tools-system-'));
afterAll(() => removeScratch(dir));
const bin = join(dir, 'checkout-bin');
const mark = join(dir, 'fake-ran');

/** The fakes: each appends its name to the mark file and exits 0. */
function plantFakes(): void {
  if (existsSync(bin)) return;
  mkdirSync(bin);
  for (const name of ['hyperfine', 'strace', 'valgrind', 'taskset', 'setarch', 'true', 'dd', 'gcc', 'just']) {
    writeFileSync(join(bin, name), `#!/bin/sh\necho ${name} >> ${mark}\necho "hyperfine 9.9.9"\n`);
    chmodSync(join(bin, name), 0o755);
  }
}

/** Runs `f` with the fakes first on PATH. */
async function withFakesOnPath<T>(f: () => T | Promise<T>): Promise<T> {
  plantFakes();
  const saved = process.env.PATH;
  process.env.PATH = `${bin}:${saved}`;
  try {
    return await f();
  } finally {
    process.env.PATH = saved;
  }
}

describe('measuring tools from the system, not from PATH', () => {
  it('finds none of the fakes first on PATH, and runs none', async () => {
    const tools = await withFakesOnPath(() => findTools());
    expect(tools.hyperfine).toBeDefined();
    for (const [name, path] of Object.entries(tools)) expect(path, name).not.toContain(bin);
    expect(existsSync(mark)).toBe(false);
  });

  it('resolves gcc and just(js) from root-owned folders (or $JUST_HOME), never the fakes first on PATH', async () => {
    const saved = process.env.JUST_HOME;
    delete process.env.JUST_HOME;
    try {
      const [gcc, just] = await withFakesOnPath(() =>
        Promise.all(['gcc', 'just'].map((n) => resolveRuntime(n, {}, join(dir, 'runtimes'), () => {}))),
      );
      expect(gcc!.ok && gcc!.path).toMatch(/^\/(usr\/)?(local\/)?s?bin\/gcc$/);
      // This machine has no just(js) in a system folder: not found, rather than the fake.
      if (just!.ok) expect(just!.path).not.toContain(bin);
      else
        expect(just!.reason).toBe(
          'just(js) is not installed (no `just` in $JUST_HOME or in a root-owned system folder)',
        );
    } finally {
      if (saved !== undefined) process.env.JUST_HOME = saved;
    }
    expect(existsSync(mark) ? readFileSync(mark, 'utf8') : '').toBe('');
  });

  it("pipes a sandboxed bench's input through the system's dd and builds with the system's gcc, not the fakes", async () => {
    const results = await withFakesOnPath(
      async () =>
        (
          await bench({
            root: ROOT,
            programsDir: join(FIXTURES, 'programs'),
            cacheDir: join(dir, 'cache'),
            outDir: join(dir, 'out'),
            profile: 'smoke',
            filters: { variants: ['c'], params: { bs: [4096] } },
            require: ['sandbox'],
            counts: 'none',
            log: () => {},
          })
        ).results,
    );
    const c = results.benchmarks[0]!;
    expect(c.status, c.reason).toBe('ok');
    expect(existsSync(mark) ? readFileSync(mark, 'utf8') : '').toBe('');
  });
});
