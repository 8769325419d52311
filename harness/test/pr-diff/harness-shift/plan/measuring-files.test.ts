// Which files are the harness's measuring code and which of them differ: the pure parts, on fixtures.
import { describe, expect, it } from 'vitest';
import {
  changedFiles,
  changedPins,
  measuringFiles,
  onlySources,
  RUNNER_ENTRIES,
  runtimeReadFiles,
} from '../../../../src/pr-diff/harness-shift/plan/measuring-files.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('runtimeReadFiles', () => {
  it('takes the C tools and the pins, not the shell scripts', () => {
    expect(runtimeReadFiles(['evict.c', 'pair-timer.c', 'setup-runner.sh', 'install-just.sh'])).toEqual([
      'harness/toolchains.json',
      'harness/tools/evict.c',
      'harness/tools/pair-timer.c',
    ]);
  });
});

describe('measuringFiles', () => {
  it("is the union of both sides' graphs and run-time files", () => {
    expect(
      measuringFiles(
        { graph: ['harness/src/run/measure.ts', 'harness/src/lib/old.ts'], tools: ['evict.c'] },
        { graph: ['harness/src/run/measure.ts', 'harness/src/lib/new.ts'], tools: ['evict.c', 'pair-timer.c'] },
      ),
    ).toEqual([
      'harness/src/lib/new.ts',
      'harness/src/lib/old.ts',
      'harness/src/run/measure.ts',
      'harness/toolchains.json',
      'harness/tools/evict.c',
      'harness/tools/pair-timer.c',
    ]);
  });
});

describe('changedFiles', () => {
  const base: Record<string, string> = { a: 'same', b: 'old', gone: 'x' };
  const head: Record<string, string> = { a: 'same', b: 'new', added: 'y' };
  const read = (side: Record<string, string>) => (f: string) => (side[f] === undefined ? undefined : bytes(side[f]!));

  it('lists files whose bytes differ, or that one side lacks', () => {
    expect(changedFiles(['a', 'b', 'gone', 'added', 'neither'], read(base), read(head))).toEqual([
      'b',
      'gone',
      'added',
    ]);
  });

  it('is empty when every byte agrees', () => {
    expect(changedFiles(['a'], read(base), read(head))).toEqual([]);
  });
});

describe('RUNNER_ENTRIES', () => {
  it('names the modules that build, start, time and normalize programs, and no renderer', () => {
    expect(RUNNER_ENTRIES).toContain('harness/src/run/measure.ts');
    expect(RUNNER_ENTRIES).toContain('harness/src/build/build.ts');
    expect(RUNNER_ENTRIES.some((e) => /\/(report|site|store)\//.test(e))).toBe(false);
  });
});

describe('changedPins', () => {
  it('names each package pinned differently or on one side only', () => {
    const base = { 'package zod': '4.6.7 sha512-a', 'package yaml': '2.9.1 sha512-b' };
    const head = { 'package zod': '4.6.8 sha512-c', 'package shell-quote': '1.12.0 sha512-d' };
    expect(changedPins(base, head)).toEqual(['package shell-quote', 'package yaml', 'package zod']);
    expect(changedPins(base, { ...base })).toEqual([]);
  });

  it('fails closed: a side with an unpinned package differs in its lockfile', () => {
    expect(changedPins(undefined, {})).toEqual(['package-lock.json']);
    expect(changedPins({}, undefined)).toEqual(['package-lock.json']);
  });
});

describe('onlySources', () => {
  it('is true for harness TypeScript only: not a tool, the pins or a package', () => {
    expect(onlySources(['harness/src/run/measure.ts', 'harness/src/lib/exec.ts'])).toBe(true);
    expect(onlySources(['harness/src/run/measure.ts', 'harness/tools/evict.c'])).toBe(false);
    expect(onlySources(['harness/toolchains.json'])).toBe(false);
    expect(onlySources(['package zod'])).toBe(false);
  });
});
