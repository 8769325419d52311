// Exact work decides at once: a PR that adds a few instructions per read to wc's C program (four
// volatile additions: far below what the paired timing can see on a shared VM) is called "work
// changed" from the counts, in comparison.json, the comment's first line and its own block, and
// the merge rule `work>N%` can fail on it; a comment-only change to the same program and to a
// Node program is "same work". Real gcc, node, valgrind, `npm run pairs` and `pr-comment` as the
// workflows run them; no timing assertion.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PairsComparison } from '../../src/formats/pairs-format.js';
import { commentOnDiff, runCli, runPairs } from '../helpers/cli.js';
import { editProgram, programCheckout } from '../helpers/program-checkout.js';

const checkout = programCheckout;
const edit = editProgram;

function diff(base: string, head: string, select: string[]) {
  const out = mkdtempSync(join(tmpdir(), 'jsio-work-out-'));
  // The counts decide here; the pairs after them only need to run (nothing here reads a timing).
  const pairs = runPairs({ base, head, out, budget: '0.2', seed: 5 }, [
    ...['--control', '0', '--noise-store', join(out, 'none'), '--profile', 'smoke', ...select],
  ]);
  expect(pairs.status, pairs.stderr).toBe(0);
  const comment = commentOnDiff(out, 3, { base, head, flags: ['--control', '0', '--profile', 'smoke', ...select] });
  expect(comment.status, comment.stderr).toBe(0);
  const file = join(out, 'comparison.json');
  const rule = (r: string) => runCli(['workflow', 'pr-outcome', '--comparison', file, '--fail-on', r]);
  return { c: PairsComparison.parse(JSON.parse(readFileSync(file, 'utf8'))), md: comment.stdout, rule };
}

describe('work changed, decided by exact counts', () => {
  let planted: ReturnType<typeof diff>;
  let comment: ReturnType<typeof diff>;
  // Two whole diffs with counts: minutes on a loaded 2-core machine, more than the default hook bound.
  beforeAll(() => {
    const base = checkout('base');
    const more = checkout('more');
    edit(more, 'wc/wc-c.c', (s) =>
      s.replace(
        'reads++;',
        'reads++;\n      { static volatile unsigned long sink; sink += 1; sink += 2; sink += 3; sink += 4; }',
      ),
    );
    planted = diff(base, more, ['--experiments', 'wc', '--variants', 'c', '--param', 'bs=65536']);
    const same = checkout('same');
    edit(same, 'wc/wc-c.c', (s) => `${s}/* a comment only */\n`);
    edit(same, 'wc/wc-readsync.js', (s) => `${s}// a comment only\n`);
    comment = diff(base, same, [
      ...['--experiments', 'wc', '--variants', 'c,readsync', '--param', 'bs=65536', '--param', 'runtime=node22'],
    ]);
  }, 900_000);

  it('four additions per read: work changed, exact, whatever the timing said', () => {
    const p = planted.c.points.find((x) => x.variant === 'c')!;
    expect(p.work).toMatchObject({ status: 'counted', metric: 'instructions_per_op', per: 'read', verdict: 'changed' });
    if (p.work?.status !== 'counted') return;
    // Four volatile read-add-writes per read: about a dozen instructions on seventeen.
    expect(p.work.change).toBeGreaterThan(0.3);
    expect(p.work.spread).toBe(0);
    expect(planted.c.counts).toMatchObject({ trusted: true, counted: 1, notCounted: 0 });
    expect(planted.md).toMatch(/^## Performance: .*; more work on 1 point \(counted exactly\)$/m);
    expect(planted.md).toMatch(/\*\*Work changed\*\* on 1 point/);
    expect(planted.md).toMatch(/work changed: instructions per read [\d.,]+ → [\d.,]+ \(\+\d+\.\d %\), exact/);
    expect(planted.md).not.toMatch(/^No regression found\.$/m);
  });

  it("where the added instructions went: the program's main, from callgrind, folded in the comment", () => {
    const p = planted.c.points.find((x) => x.variant === 'c')!;
    const b = p.work?.status === 'counted' ? p.work.breakdown : undefined;
    expect(b && !('unavailable' in b)).toBe(true);
    if (!b || 'unavailable' in b) return;
    expect(b.change).toBeGreaterThan(0);
    const program = b.objects.find((o) => o.role === 'program');
    expect(program?.change).toBeGreaterThan(0);
    expect(b.functions.some((f) => f.function === 'main' && f.role === 'program' && f.change > 0)).toBe(true);
    expect(planted.md).toMatch(/<details>/);
  });

  it('the merge rule names work changes when asked, and only then', () => {
    expect(planted.rule('broken').status).toBe(0);
    const fails = planted.rule('broken,work>10%');
    expect(fails.status).toBe(1);
    expect(fails.stderr).toMatch(/1 point whose counted work grew by more than \+10\.0%/);
    expect(planted.rule('work>90%').status).toBe(0);
  });

  it('a comment-only change: same work for C (exactly) and for Node 22 (within the tolerance)', () => {
    const c = comment.c.points.find((x) => x.variant === 'c')!;
    const node = comment.c.points.find((x) => x.variant === 'readsync')!;
    expect(c.work).toMatchObject({ status: 'counted', verdict: 'same', change: 0 });
    expect(node.work).toMatchObject({ status: 'counted', verdict: 'same', role: 'decides' });
    expect(comment.md).not.toMatch(/Work changed/);
    expect(comment.md).toMatch(/same work: instructions per read/);
  });
});
