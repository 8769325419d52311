// Where the instructions went, measured for real: a tiny C counter built with gcc in two
// checkouts, the head's with one extra loop over each block in its own function, each run once
// under the real callgrind as a count is run. The breakdown puts the extra instructions in that
// function of the program, with head's sign; nothing else of note moves; callgrind's run is the
// count's run (same command, same answer checked); without Valgrind it says how to install it.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { breakdownInstructions, profileContext } from '../../src/counts/callgrind.js';
import { diffBreakdowns } from '../../src/counts/count-breakdown.js';
import { countInstructions } from '../../src/counts/count-instructions.js';
import { VALGRIND_MISSING } from '../../src/counts/under-valgrind.js';
import type { WorkBreakdown } from '../../src/formats/parts/work-breakdown-fields.js';
import { findTools } from '../../src/machine/tools.js';
import type { Job } from '../../src/model/job.js';
import type { ProcessProfile } from '../../src/model/process-profile.js';
import { loadExperiment } from '../../src/plan/experiments.js';
import { expand } from '../../src/plan/plan.js';
import { buildOne } from '../../src/run/build.js';
import { jobOf } from '../helpers/jobs.js';
import { removeScratch } from '../helpers/scratch.js';

const READS = 64;
const BS = 4096;

const MANIFEST = {
  schema: 1,
  title: 'a counter with a planted extra loop',
  question: 'Does the breakdown find an extra loop where it was planted?',
  placement: 'shared',
  parameters: {
    bs: {
      description: 'read block size',
      unit: 'B',
      values: { smoke: [BS], quick: [BS], standard: [BS], full: [BS] },
    },
  },
  profiles: Object.fromEntries(
    ['smoke', 'quick', 'standard', 'full'].map((p) => [
      p,
      { runs: 1, warmup: 0, timeout: 60, constants: { reads: READS } },
    ]),
  ),
  derive: { count: 'reads', bytes: 'count * bs', min_reads: 'count' },
  input: { pipe: 'dd if=/dev/zero bs={bs} count={count} status=none' },
  reports: {
    bytes: { unit: 'B', direction: 'bigger', metric: false },
    reads: { unit: 'calls', direction: 'smaller' },
  },
  validate: [
    { field: 'bytes', equals: 'bytes' },
    { field: 'reads', atLeast: 'min_reads' },
  ],
  headline: { at: { bs: BS }, metrics: ['wall_time'] },
  variants: [
    {
      id: 'c',
      description: 'a C counter',
      runtime: 'native',
      source: 'tiny-c.c',
      build: { kind: 'gcc', flags: ['-O2', '-Wall'] },
      command: '{bin} {bs}',
    },
  ],
};

/** The counter; `extra` is the planted work: one more pass over every block, in `checksum`. */
const source = (extra: boolean) => `#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void checksum(const unsigned char *buf, long n) {
  unsigned long s = 0;
${extra ? '  for (long i = 0; i < n; i++) s += buf[i] ^ (unsigned long)i;\n' : ''}  sink += s + (unsigned long)n;
}

int main(int argc, char **argv) {
  long bs = argc > 1 ? atol(argv[1]) : 65536;
  unsigned char *buf = malloc(bs);
  long long bytes = 0, reads = 0;
  ssize_t n;
  if (!buf) return 1;
  while ((n = read(0, buf, bs)) > 0) {
    checksum(buf, n);
    bytes += n;
    reads++;
  }
  printf("{\\"bytes\\":%lld,\\"reads\\":%lld}\\n", bytes, reads);
  return n < 0;
}
`;

const dir = mkdtempSync(join(tmpdir(), 'jsio-callgrind-'));
afterAll(() => removeScratch(dir));
const tools = findTools();

/** One side's job: its own checkout of the experiment, built with gcc into its own cache. */
async function sideJob(side: 'base' | 'head'): Promise<Job> {
  const exp = join(dir, side, 'programs', 'tiny');
  mkdirSync(exp, { recursive: true });
  writeFileSync(join(exp, 'manifest.json'), JSON.stringify(MANIFEST));
  writeFileSync(join(exp, 'tiny-c.c'), source(side === 'head'));
  const [point] = expand([loadExperiment(exp)], 'smoke', {});
  const job = jobOf(point!, { cacheDir: join(dir, side, 'cache') });
  const built = await buildOne(job.build!);
  if (!built.ok) throw new Error(built.reason);
  return job;
}

async function profilesOf(job: Job): Promise<ProcessProfile[]> {
  const b = await breakdownInstructions(job, tools);
  if (!b.ok) throw new Error(b.reason);
  return b.processes;
}

describe.skipIf(!tools.valgrind)('a planted extra loop, under the real callgrind', () => {
  let jobs: Record<'base' | 'head', Job>;
  let base: ProcessProfile[];
  let head: ProcessProfile[];
  let diff: WorkBreakdown;
  /** The built program's file name: its object in the breakdown. */
  const program = () => basename(jobs.base.build!.artifact);
  beforeAll(async () => {
    jobs = { base: await sideJob('base'), head: await sideJob('head') };
    base = await profilesOf(jobs.base);
    head = await profilesOf(jobs.head);
    diff = diffBreakdowns(base, head);
  });

  it('one process per side, its executable the program, no JIT in a C program', () => {
    expect(profileContext(jobs.base)).toEqual({ executable: 'program', jit: false });
    expect(base.length).toBe(1);
    const roles = new Set(base[0]!.functions.map((f) => f.role));
    expect(roles.has('program')).toBe(true);
    expect(roles.has('libc')).toBe(true);
    expect(roles.has('jit')).toBe(false);
    expect(base[0]!.functions.find((f) => f.function === 'main')?.object).toBe(program());
  });

  it('the extra loop shows up in checksum, in the program, with a plus sign, at least a few instructions per byte', () => {
    const top = diff.functions[0]!;
    expect(top).toMatchObject({ function: 'checksum', object: program(), role: 'program' });
    expect(top.change).toBeGreaterThan(READS * BS * 3);
    // Found on both sides, whatever gcc named its copy of the function in each build.
    expect(top.base).toBeGreaterThan(0);
    expect(diff.objects[0]).toMatchObject({ object: program(), role: 'program' });
    expect(diff.change).toBeGreaterThan(0);
    // Almost all of the change is the planted function's: the rest (the loader, libc) barely moves.
    expect(top.change / diff.change).toBeGreaterThan(0.99);
  });

  it('read the other way, the same change with a minus sign', () => {
    const back = diffBreakdowns(head, base);
    expect(back.functions[0]).toMatchObject({ function: 'checksum', change: -diff.functions[0]!.change });
    expect(back.change).toBe(-diff.change);
  });

  it('rows and folded rest add up to the totals on each side', () => {
    for (const [rows, rest] of [
      [diff.objects, diff.otherObjects],
      [diff.functions, diff.otherFunctions],
    ] as const) {
      expect(rows.reduce((s, r) => s + r.base, rest.base)).toBe(diff.base);
      expect(rows.reduce((s, r) => s + r.head, rest.head)).toBe(diff.head);
    }
  });

  it("callgrind's totals are the cachegrind count's within a start-up constant, the same for both sides", async () => {
    const counts = { base: await countInstructions(jobs.base, tools), head: await countInstructions(jobs.head, tools) };
    if (!counts.base.ok || !counts.head.ok) throw new Error('count failed');
    const gap = (side: 'base' | 'head', p: ProcessProfile[]) =>
      counts[side].ok && counts[side].instructions - p[0]!.instructions;
    // The same change, exactly: the instructions the two tools see differently are before main.
    expect(gap('base', base)).toBe(gap('head', head));
    expect(Math.abs(gap('base', base) as number)).toBeLessThan(5_000);
  });

  it('a wrong answer under callgrind is refused, as a count refuses it', async () => {
    // The checks expect one byte: the program counts every byte it was sent.
    const wrong: Job = { ...jobs.base, scope: { ...jobs.base.scope, bytes: 1 } };
    const b = await breakdownInstructions(wrong, tools);
    expect(b.ok).toBe(false);
    expect(!b.ok && b.reason).toMatch(/^instruction breakdown unavailable: wrong result under valgrind/);
  });
});

describe('without valgrind', () => {
  it('says how to install it and runs nothing', async () => {
    const job = { counting: { command: {} } } as unknown as Job;
    expect(await breakdownInstructions(job, {})).toEqual({ ok: false, reason: VALGRIND_MISSING, seconds: 0 });
  });
});
