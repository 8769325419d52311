// A runtime family added through the registry alone (model/runtime-families.ts registerRuntime) runs a
// JavaScript variant through the real pipeline: the manifest accepts it, plan labels its points
// by its key, set-up resolves its binary and version the way the entry says, the job starts
// the script with the entry's invocation, and its points' identity holds the files the entry
// says it reads from the folders it runs in (no other family's). The fake runtime is Node under
// another name, reached through an environment variable, so nothing is installed.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nightlySweeps } from '../../src/cli/commands/releases-nightly.js';
import type { Results } from '../../src/formats/results-format.js';
import { type RuntimeFamily, registerRuntime, releaseKeyFormats } from '../../src/model/runtime-families.js';
import { parseReleaseKey } from '../../src/model/runtime-release.js';
import { bench } from '../../src/pipeline/bench.js';
import { loadAllExperiments, loadExperiment } from '../../src/plan/experiments.js';
import { forgetMeasuredInputs, measuredInputs } from '../../src/plan/identify-inputs.js';
import { expand } from '../../src/plan/plan.js';
import { FIXTURES, ROOT } from '../helpers/cli.js';
import { removeScratch } from '../helpers/scratch.js';

const FAKE: RuntimeFamily = {
  key: 'fakejs',
  name: 'FakeJS',
  source: { kind: 'path', command: 'fakejs', homeEnv: 'JSIO_FAKEJS_HOME', install: 'put fakejs in $JSIO_FAKEJS_HOME' },
  invocation: ['exec'],
  version: { args: ['--version'], parse: (out) => /^fakejs (\S+)/.exec(out)?.[1] },
  // Its own configuration, which names a preload; no packages.
  folderReads: { config: /^fakejs\.toml$/, naming: /^fakejs\.toml$/, packages: false },
};

// Refuses to start a script without the entry's invocation, so a run proves it was used.
const BINARY = `#!/bin/sh
if [ "$1" = --version ]; then echo "fakejs 9.8.7 (node ${process.versions.node})"; exit 0; fi
[ "$1" = exec ] || { echo "fakejs: expected 'exec SCRIPT'" >&2; exit 64; }
shift
exec '${process.execPath}' "$@"
`;

// Counts the bytes on stdin in blocks of argv[2] bytes and reports one JSON line.
const PROGRAM = `const fs = require('node:fs');
const buf = Buffer.alloc(Number(process.argv[2]));
let bytes = 0;
let reads = 0;
for (;;) {
  const n = fs.readSync(0, buf, 0, buf.length, null);
  if (n === 0) break;
  bytes += n;
  reads++;
}
console.log(JSON.stringify({ bytes, reads }));
`;

/** The tally fixture with one JavaScript variant under the fake family (and its pipe ceiling). */
function fakeExperiment(programs: string, runtime: string): void {
  const dir = join(programs, 'tally');
  mkdirSync(dir, { recursive: true });
  const m = JSON.parse(readFileSync(join(FIXTURES, 'programs', 'tally', 'manifest.json'), 'utf8'));
  m.variants = [
    {
      id: 'count',
      description: 'counts under the fake runtime',
      runtime,
      source: 'tally-fakejs.js',
      command: '{js} {bs}',
    },
    ...m.variants.filter((v: { id: string }) => v.id === 'dd-null'),
  ];
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
  writeFileSync(join(dir, 'tally-fakejs.js'), PROGRAM);
}

/**
 * A scratch folder holding the fake runtime's binary (found through `homeEnv`) and the tally
 * experiment with one variant under it; returns the scratch folder and the programs folder.
 */
function fakeRuntimeScratch(prefix: string, family: RuntimeFamily, binary: string) {
  const scratch = mkdtempSync(join(tmpdir(), prefix));
  const home = join(scratch, 'home');
  mkdirSync(home);
  writeFileSync(join(home, family.key), binary);
  chmodSync(join(home, family.key), 0o755);
  const source = family.source as { homeEnv: string };
  process.env[source.homeEnv] = home;
  const programs = join(scratch, 'programs');
  fakeExperiment(programs, family.key);
  return { scratch, programs };
}

describe('a runtime family registered at run time', () => {
  let scratch: string;
  let programs: string;
  let unregister: () => void;
  let results: Results;

  beforeAll(async () => {
    ({ scratch, programs } = fakeRuntimeScratch('jsio-fake-runtime-', FAKE, BINARY));
    unregister = registerRuntime(FAKE);
    const log: string[] = [];
    ({ results } = await bench({
      root: ROOT,
      programsDir: programs,
      cacheDir: join(scratch, 'cache'),
      outDir: join(scratch, 'out'),
      profile: 'smoke',
      filters: { variants: ['count'], params: { bs: [4096], runtime: ['fakejs'] } },
      require: ['fakejs'],
      log: (m) => log.push(m),
    }));
  });

  afterAll(() => {
    unregister?.();
    delete process.env.JSIO_FAKEJS_HOME;
    removeScratch(scratch);
  });

  it('runs the variant under it, labelled by its key, with a validated answer', () => {
    expect(results.benchmarks.map((b) => [b.id, b.status, b.reason])).toEqual([
      ['tally/count/bs=4096,runtime=fakejs', 'ok', undefined],
    ]);
    const [b] = results.benchmarks;
    expect(b?.params.runtime).toBe('fakejs');
    expect(b?.validation?.ok).toBe(true);
    expect(b?.metrics.reads?.value).toBeGreaterThan(0);
  });

  it("starts the script with the entry's invocation and records the version its probe reads", () => {
    expect(results.benchmarks[0]?.command).toMatch(/\/home\/fakejs exec \S*\/tally-fakejs\.js 4096$/);
    expect(results.run.toolchains.fakejs).toBe('9.8.7');
  });

  it("its identity holds the files its entry says it reads on the way up, and no other family's", () => {
    const parts = () => {
      forgetMeasuredInputs();
      const [point] = expand(loadAllExperiments(programs), 'smoke', { variants: ['count'] });
      const inputs = point && measuredInputs(point, scratch);
      if (!inputs?.ok) throw new Error(`no identity: ${JSON.stringify(inputs)}`);
      return Object.keys(inputs.parts).filter((k) => /^(file|package\.json)/.test(k));
    };
    const before = parts();
    writeFileSync(join(programs, 'fakejs.toml'), 'preload = "./tally/preloaded.js"\n');
    writeFileSync(join(programs, 'tally', 'preloaded.js'), '');
    writeFileSync(join(programs, 'bunfig.toml'), 'smol = true\n');
    writeFileSync(join(programs, 'deno.json'), '{}\n');
    writeFileSync(join(programs, 'package.json'), '{"type": "module"}\n');
    const added = parts().filter((k) => !before.includes(k));
    expect(added.sort()).toEqual(['file programs/fakejs.toml', 'file programs/tally/preloaded.js']);
    // Without the entry saying, it reads whatever any family reads (failing closed).
    const { folderReads, ...unsaid } = FAKE;
    unregister();
    unregister = registerRuntime(unsaid);
    try {
      expect(parts().filter((k) => !before.includes(k))).toEqual(
        expect.arrayContaining([
          'file programs/bunfig.toml',
          'file programs/deno.json',
          'package.json fields programs/package.json',
        ]),
      );
      expect(parts()).not.toContain('file programs/fakejs.toml');
    } finally {
      unregister();
      unregister = registerRuntime(FAKE);
    }
  });

  it('is known only while registered, and no family is registered twice', () => {
    expect(() => registerRuntime({ ...FAKE })).toThrow(/"fakejs" is already defined/);
    unregister();
    expect(() => loadExperiment(join(programs, 'tally'))).toThrow(/variants\.0\.runtime: Invalid input/);
    unregister = registerRuntime(FAKE);
    expect(loadExperiment(join(programs, 'tally')).manifest.variants[0]?.runtime).toBe('fakejs');
  });
});

// A release whose runtime refuses V8's profiler flags (a Deno before it took --cpu-prof) is
// profiled with perf where the machine permits it, and the outcome says why it was not V8's.
describe("a runtime that refuses V8's --cpu-prof", () => {
  const REFUSING: RuntimeFamily = {
    key: 'fakev8',
    name: 'FakeV8',
    source: {
      kind: 'path',
      command: 'fakev8',
      homeEnv: 'JSIO_FAKEV8_HOME',
      install: 'put fakev8 in $JSIO_FAKEV8_HOME',
    },
    invocation: ['exec'],
    version: { args: ['--version'], parse: (out) => /^fakev8 (\S+)/.exec(out)?.[1] },
    profiler: 'v8-cpu-prof',
    profilerAfter: 1,
  };
  const binary = `#!/bin/sh
if [ "$1" = --version ]; then echo "fakev8 1.0.0"; exit 0; fi
[ "$1" = exec ] || exit 64
shift
case "$1" in --cpu-prof*) echo "error: unknown flag $1" >&2; exit 9;; esac
exec '${process.execPath}' "$@"
`;
  let scratch: string;
  let unregister: (() => void) | undefined;

  afterAll(() => {
    unregister?.();
    delete process.env.JSIO_FAKEV8_HOME;
    if (scratch) removeScratch(scratch);
  });

  it('profiles it with perf instead, saying why, and leaves the timed runs as they are', async () => {
    const made = fakeRuntimeScratch('jsio-fake-v8-', REFUSING, binary);
    scratch = made.scratch;
    const { programs } = made;
    unregister = registerRuntime(REFUSING);
    const out = await bench({
      root: ROOT,
      programsDir: programs,
      cacheDir: join(scratch, 'cache'),
      outDir: join(scratch, 'out'),
      profile: 'smoke',
      filters: { variants: ['count'], params: { bs: [4096], runtime: ['fakev8'] } },
      require: ['fakev8'],
      profileCpu: true,
      log: () => undefined,
    });
    expect(out.results.benchmarks.map((b) => b.status)).toEqual(['ok']);
    const result = out.profiles[0]?.result;
    const data = join(scratch, 'probe.data');
    const perf = spawnSync('perf', ['record', '-q', '-e', 'cpu-clock', '-o', data, '--', 'true']);
    if (perf.status === 0 && existsSync(data)) {
      expect(result).toMatchObject({
        tool: 'perf',
        files: [expect.stringMatching(/perf\.txt$/)],
        note: expect.stringMatching(/^V8's --cpu-prof: profiled run exited with status 9/),
      });
    } else {
      // perf missing or not permitted on this machine: both tries are named.
      expect(result).toMatchObject({ reason: expect.stringMatching(/exited with status 9; perf instead: /) });
    }
  });
});

// A family on the release axis added through the registry alone: releases of it are runtime keys,
// `--param runtime=` names them, and the nightly sweeps it on its default lines (or the lines
// `--lines` names of it), new releases and back-fill alike.
describe('a family on the release axis registered at run time', () => {
  const RELEASED: RuntimeFamily = {
    key: 'fakerel',
    name: 'FakeRel',
    source: { kind: 'npm', pkg: '@fake/rel-linux-x64', bin: 'package/bin/fakerel' },
    pin: 'single',
    invocation: [],
    version: { args: ['--version'], parse: (out) => out.trim() },
    releases: { line: 'whole', canaries: false, defaults: { since: '3.0.0', backfill: 'minor' } },
  };
  let unregister: (() => void) | undefined;
  afterAll(() => unregister?.());

  it('its releases are runtimes, and the nightly measures its new ones and back-fills it', () => {
    unregister = registerRuntime(RELEASED);
    expect(parseReleaseKey('fakerel@3.1.4')).toEqual({ family: 'fakerel', version: '3.1.4', key: 'fakerel@3.1.4' });
    expect(releaseKeyFormats()).toContain('fakerel@X.Y.Z');
    const mine = (lines?: string[]) => nightlySweeps('2026-01-01', 5, lines).filter((s) => s.runtime === 'fakerel');
    expect(mine()).toEqual([
      { runtime: 'fakerel', since: '3.0.0', after: '2026-01-01' },
      { runtime: 'fakerel', since: '3.0.0', every: 'minor', limit: 5 },
    ]);
    // Lines named of another family leave its own as they are; its own line is taken.
    expect(mine(['node22'])).toEqual(mine());
    expect(mine(['node22', 'fakerel']).map((s) => s.line)).toEqual(['fakerel', 'fakerel']);
    unregister();
    unregister = undefined;
    expect(parseReleaseKey('fakerel@3.1.4')).toBeUndefined();
    expect(() => nightlySweeps('2026-01-01', 5, ['fakerel'])).toThrow(/--lines fakerel: not a release line/);
  });
});
