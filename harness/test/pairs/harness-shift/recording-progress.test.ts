// A recording's progress: the recorded bench's own `[N/M] …` lines, picked out of its stderr as
// the chunks come, and printed at most every so often per side.
import { describe, expect, it } from 'vitest';
import { progressPrinter } from '../../../src/cli/commands/transcript.js';
import { progressLines } from '../../../src/pairs/harness-shift/transcript-record.js';

describe("a recording's progress", () => {
  it('takes only the progress lines, whole, however the stream is cut', () => {
    const seen: string[] = [];
    const feed = progressLines((l) => seen.push(l));
    feed('warning: the machine is busy\n[1/413] records › c › op=read');
    feed(' record=16 · ETA 3m\r[2/413] records');
    feed(' › c › op=write · ETA 3m\nbuilding wc/c (gcc)\n[3/41');
    expect(seen).toEqual([
      '[1/413] records › c › op=read record=16 · ETA 3m',
      '[2/413] records › c › op=write · ETA 3m',
    ]);
    feed('3] wc › c › bs=256\n');
    expect(seen.at(-1)).toBe('[3/413] wc › c › bs=256');
    // The recorded bench is the pull request's code: nothing else it prints reaches the job log, where
    // a line starting `::` would be a workflow command; a long line is cut.
    feed(`::add-mask::x\n##[group]y\n[4/413]${'z'.repeat(10_000)}\n[5/413] ${'z'.repeat(10_000)}\n`);
    expect(seen.slice(3).map((l) => l.length)).toEqual([300]);
  });

  it("prints each side's first line, then at most one per interval and side", () => {
    const out: string[] = [];
    let t = 0;
    const say = progressPrinter(
      (s) => out.push(s),
      30_000,
      () => t,
    );
    say('base', '[1/9] a');
    say('head', '[1/9] a');
    t = 10_000;
    say('base', '[2/9] b');
    t = 30_000;
    say('base', '[5/9] e');
    expect(out).toEqual(['recording (base): [1/9] a\n', 'recording (head): [1/9] a\n', 'recording (base): [5/9] e\n']);
  });
});
