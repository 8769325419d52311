// The scratch folder starts empty for every process bench starts: a program that fails when it
// finds the mark its previous process left passes its check run, every timed run and its strace
// run, sandboxed or not (the harness empties it before each process, hyperfine's prepare step
// before each run); and a program's own file, left in scratch, is gone for the next point.
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bench } from '../../src/pipeline/bench.js';
import { FIXTURES, ROOT } from '../helpers/cli.js';
import { removeScratch } from '../helpers/scratch.js';

const dir = mkdtempSync(join(tmpdir(), 'jsio-scratch-emptied-'));
afterAll(() => removeScratch(dir));

/** The tally fixture with one system variant that refuses to run where its previous run left its mark. */
function markers(): string {
  const programs = join(dir, 'programs');
  if (existsSync(programs)) return programs;
  cpSync(join(FIXTURES, 'programs', 'tally'), join(programs, 'tally'), { recursive: true });
  const file = join(programs, 'tally', 'manifest.json');
  const m = JSON.parse(readFileSync(file, 'utf8'));
  m.variants = [
    ...m.variants.filter((v: { id: string }) => v.id === 'c' || v.id === 'dd-null'),
    {
      id: 'leaves-mark',
      description: 'fails when its scratch holds the mark a previous process left, then leaves one',
      command: 'bash -c "test ! -e {scratch}/mark && touch {scratch}/mark && exec wc -c"',
      runtime: 'system',
      output: 'number',
      numberField: 'bytes',
    },
  ];
  writeFileSync(file, JSON.stringify(m));
  return programs;
}

async function run(name: string, env: Record<string, string> = {}) {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const r = await bench({
      root: ROOT,
      programsDir: markers(),
      cacheDir: join(dir, `cache-${name}`),
      outDir: join(dir, `out-${name}`),
      profile: 'smoke',
      filters: { variants: ['leaves-mark'] },
      require: [],
      counts: 'none',
      log: () => {},
    });
    return r.results;
  } finally {
    process.env = saved;
  }
}

describe('scratch emptied between processes', () => {
  for (const [name, env] of [
    ['sandboxed', {}],
    ['unsandboxed', { JSIO_BWRAP: '/bin/false' }],
  ] as const) {
    it(`${name}: every process of both points starts without the previous one's mark`, async () => {
      const results = await run(name, env);
      expect(results.run.conditions?.sandbox ?? '').toMatch(name === 'sandboxed' ? /^bubblewrap$/ : /^none: /);
      const points = results.benchmarks.filter((b) => b.variant === 'leaves-mark');
      expect(points.length).toBe(2); // bs 4096 and 65536: the same scratch folder, one after the other
      for (const b of points) {
        expect(b.status, b.reason).toBe('ok');
        expect(b.metrics['syscalls.total'], `${b.id}: its strace run passed too`).toBeDefined();
      }
    });
  }
});
