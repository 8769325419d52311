// A point whose traced processes tried to write outside their scratch folder is broken, with the
// path, even when the program swallows the refusal. Planted, each writing beside its own source
// and carrying on as if nothing happened: a C program (fopen for a note, mkdir for a folder, both
// results ignored), a Node program (writeFileSync in a try without a catch body) and an input
// generator (the same, before it writes its input). The sandbox refuses every one of those writes
// (read-only file system) and each program exits 0; only the trace pass of `bench
// --trace-profiles` sees them. A point that writes nowhere stays ok.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Results } from '../../src/formats/results-format.js';
import { TraceStoreFile } from '../../src/formats/trace-store-format.js';
import { type CliResult, runCli } from '../helpers/cli.js';
import { plantedManifest } from '../helpers/planted-manifest.js';
import { removeScratch } from '../helpers/scratch.js';

const C_PROGRAM = `#include <stdio.h>
#include <sys/stat.h>
int main(void) {
  char buf[4096];
  while (fread(buf, 1, sizeof buf, stdin) > 0) {}
  FILE *f = fopen("scrawl-c.out", "w");
  if (f) fclose(f);
  (void)mkdir("scrawl-c.d", 0755);
  return 0;
}
`;

const NODE_PROGRAM = `import { readFileSync, writeFileSync } from 'node:fs';
readFileSync(0);
try {
  writeFileSync(new URL('scrawl-node.out', import.meta.url), 'x');
} catch {}
`;

const GENERATOR = `import { writeFileSync } from 'node:fs';
const out = process.argv[process.argv.indexOf('--out') + 1];
try {
  writeFileSync(new URL('gen-note.txt', import.meta.url), 'made');
} catch {}
writeFileSync(out + '/in.txt', 'x'.repeat(4096));
console.log(JSON.stringify({ bytes: 4096 }));
`;

const profile = { runs: 2, warmup: 0, timeout: 30, constants: { n: 1 } };
const manifest = (extra: Record<string, unknown>) =>
  plantedManifest(
    'writes outside the scratch folder',
    'Is a point that writes where it may not broken?',
    profile,
    extra,
  );

function plant(programs: string): void {
  const scrawl = join(programs, 'scrawl');
  mkdirSync(scrawl, { recursive: true });
  writeFileSync(join(scrawl, 'scrawl.c'), C_PROGRAM);
  writeFileSync(join(scrawl, 'scrawl-node.mjs'), NODE_PROGRAM);
  writeFileSync(
    join(scrawl, 'manifest.json'),
    JSON.stringify(
      manifest({
        input: { pipe: 'dd if=/dev/zero bs={bs} count=1 status=none' },
        variants: [
          {
            id: 'c',
            description: 'a C program that writes beside itself and ignores the refusal',
            runtime: 'native',
            source: 'scrawl.c',
            build: { kind: 'gcc', flags: ['-O2'] },
            command: '{bin}',
            output: 'none',
          },
          {
            id: 'node',
            description: 'a Node program that writes beside itself and swallows the error',
            runtime: 'system',
            command: 'node scrawl-node.mjs',
            output: 'none',
          },
          { id: 'clean', description: 'writes nowhere', runtime: 'system', command: 'cat', output: 'none' },
        ],
      }),
    ),
  );
  const gen = join(programs, 'scrawlgen');
  mkdirSync(gen, { recursive: true });
  writeFileSync(join(gen, 'gen.mjs'), GENERATOR);
  writeFileSync(
    join(gen, 'manifest.json'),
    JSON.stringify(
      manifest({
        generate: { script: 'gen.mjs' },
        input: { pipe: 'cat {input_dir}/in.txt' },
        variants: [{ id: 'sh', description: 'reads the input', runtime: 'system', command: 'cat', output: 'none' }],
      }),
    ),
  );
}

let dir: string;
let programs: string;
let bench: CliResult;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'jsio-refused-writes-'));
  programs = join(dir, 'programs');
  plant(programs);
  bench = runCli(
    [
      'bench',
      '--programs',
      programs,
      '--profile',
      'quick',
      '--experiments',
      'scrawl,scrawlgen',
      '--runs',
      '2',
      '--counts',
      'none',
      '--trace-profiles',
      'quick',
      '--no-store',
      '--out',
      join(dir, 'out'),
    ],
    { JSIO_CACHE: join(dir, 'cache') },
  );
}, 600_000);
afterAll(() => (process.env.JSIO_KEEP_TMP ? undefined : removeScratch(dir)));

describe('bench --trace-profiles: writes outside the scratch folder', () => {
  const results = () => Results.parse(JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8')));
  const byVariant = (experiment: string, variant: string) =>
    results().benchmarks.find((b) => b.experiment === experiment && b.variant === variant)!;

  it('the run fails: the scrawling points are broken, the clean one is not', () => {
    expect(bench.status, bench.stderr.slice(-3000)).toBe(1);
    const status = Object.fromEntries(results().benchmarks.map((b) => [`${b.experiment}/${b.variant}`, b.status]));
    expect(status).toEqual({
      'scrawl/c': 'failed',
      'scrawl/node': 'failed',
      'scrawl/clean': 'ok',
      'scrawlgen/sh': 'failed',
    });
  });

  it("names each path, the C program's, the Node program's and the generator's, though every one exited 0", () => {
    const c = byVariant('scrawl', 'c').reason ?? '';
    expect(c).toContain('broken: its processes tried to write outside their scratch folder');
    expect(c).toContain('programs/scrawl/scrawl-c.out');
    expect(c).toContain('programs/scrawl/scrawl-c.d');
    expect(byVariant('scrawl', 'node').reason).toContain('programs/scrawl/scrawl-node.out');
    expect(byVariant('scrawlgen', 'sh').reason).toContain('programs/scrawlgen/gen-note.txt');
  });

  it("the run's traces.json keeps the refused writes per point, and nothing was written", () => {
    const traces = TraceStoreFile.parse(JSON.parse(readFileSync(join(dir, 'out', 'traces.json'), 'utf8')));
    const refused = Object.fromEntries(
      Object.entries(traces.profiles.quick!).map(([id, t]) => [id.split('/').slice(0, 2).join('/'), t.refusedWrites]),
    );
    expect(refused).toEqual({
      'scrawl/c': ['programs/scrawl/scrawl-c.d', 'programs/scrawl/scrawl-c.out'],
      'scrawl/node': ['programs/scrawl/scrawl-node.out'],
      'scrawl/clean': [],
      'scrawlgen/sh': ['programs/scrawlgen/gen-note.txt'],
    });
    for (const f of ['scrawl/scrawl-c.out', 'scrawl/scrawl-c.d', 'scrawl/scrawl-node.out', 'scrawlgen/gen-note.txt'])
      expect(existsSync(join(programs, f)), f).toBe(false);
  });
});
