// bench measures every process in its checkout's sandbox: a program that writes into its own
// folder fails with the path and EROFS, one that writes its scratch is measured, and the run
// records that it was sandboxed; where bubblewrap cannot start, the same run measures without
// one and says so in its log and its results.
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bench } from '../../src/pipeline/bench.js';
import { FIXTURES, ROOT } from '../helpers/cli.js';
import { removeScratch } from '../helpers/scratch.js';

const scratch = mkdtempSync(join(tmpdir(), 'jsio-bench-sandbox-'));
afterAll(() => removeScratch(scratch));

/** The tally fixture with its C counter and two system variants that write: into its folder, into its scratch. */
function writers(): string {
  const programs = join(scratch, 'programs');
  if (existsSync(programs)) return programs;
  cpSync(join(FIXTURES, 'programs', 'tally'), join(programs, 'tally'), { recursive: true });
  const file = join(programs, 'tally', 'manifest.json');
  const m = JSON.parse(readFileSync(file, 'utf8'));
  const wc = { runtime: 'system', output: 'number', numberField: 'bytes' };
  m.variants = [
    ...m.variants.filter((v: { id: string }) => v.id === 'c' || v.id === 'dd-null'),
    // A build that writes beside its source (gcc's temporaries go to the folder it runs in).
    {
      ...m.variants.find((v: { id: string }) => v.id === 'c'),
      id: 'build-writes-tree',
      build: { kind: 'gcc', flags: ['-O2', '-save-temps=cwd'] },
    },
    {
      id: 'writes-tree',
      description: 'copies its input into its own folder',
      command: 'tee {dir}/planted.txt | wc -c',
      ...wc,
    },
    {
      id: 'writes-scratch',
      description: 'copies its input into its scratch',
      command: 'tee {scratch}/copy | wc -c',
      ...wc,
    },
  ];
  writeFileSync(file, JSON.stringify(m));
  return programs;
}

async function run(name: string, env: Record<string, string> = {}, require: string[] = []) {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  const log: string[] = [];
  try {
    const r = await bench({
      root: ROOT,
      programsDir: writers(),
      cacheDir: join(scratch, `cache-${name}`),
      outDir: join(scratch, `out-${name}`),
      profile: 'smoke',
      filters: { params: { bs: [4096] } },
      require,
      counts: 'none',
      log: (m) => log.push(m),
    });
    return { results: r.results, log: log.join('\n') };
  } finally {
    process.env = saved;
  }
}

describe('bench in a sandbox', () => {
  it('fails the program that writes into its tree with the path, measures the one that writes its scratch', async () => {
    const { results } = await run('sandboxed');
    expect(results.run.conditions?.sandbox).toBe('bubblewrap');
    const by = Object.fromEntries(results.benchmarks.map((b) => [b.variant, b]));
    expect(by.c?.status).toBe('ok');
    expect(by['writes-scratch']?.status, by['writes-scratch']?.reason).toBe('ok');
    expect(by['writes-tree']?.status).toBe('failed');
    expect(by['writes-tree']?.reason).toContain('/jsio/programs/tally/planted.txt: Read-only file system');
    expect(existsSync(join(scratch, 'programs', 'tally', 'planted.txt'))).toBe(false);
    // A build runs in the sandbox too, and writes only its own output folder.
    expect(by['build-writes-tree']?.status).toBe('failed');
    expect(by['build-writes-tree']?.reason).toMatch(/build failed: gcc failed:[\s\S]*Read-only file system/);
  });

  it('measures without one where bubblewrap cannot start, and says so', async () => {
    const { results, log } = await run('unsandboxed', { JSIO_BWRAP: '/bin/false' });
    expect(results.run.conditions?.sandbox).toMatch(/^none: the sandbox \(\/bin\/false\) cannot start here/);
    expect(log).toMatch(/warning: measuring without a sandbox: the sandbox \(\/bin\/false\) cannot start here/);
    expect(log).toMatch(/measured without a sandbox/);
    // Nothing stops the write then: the sandbox is what refused it.
    expect(results.benchmarks.find((b) => b.variant === 'writes-tree')?.status).toBe('ok');
  });

  it("refuses to measure without one under --require sandbox (main's trend runs)", async () => {
    await expect(run('required', { JSIO_BWRAP: '/bin/false' }, ['sandbox'])).rejects.toThrow(
      /no sandbox for \S+: the sandbox \(\/bin\/false\) cannot start here/,
    );
  });
});
