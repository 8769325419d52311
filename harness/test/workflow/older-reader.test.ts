// A pull request that introduces a comparison.json schema still gets its comment: pr-comment.yml
// validates and renders the artifact with the DEFAULT BRANCH's harness. Here those readers are the
// real ones from git history: the last harness that read paired schema 2 at most, and the last that
// read 3 (the last before `kind`). Each refuses the document `pairs` writes now, and reads and
// renders what `pairs` writes for it, chosen by the declaration workflow/reader-schema.ts finds in
// its source. The other way round, today's readers read the files those harnesses wrote: paired
// schemas 2 and 3, and the quick look before kinds. Skipped, with a message, in a clone without
// that history (a shallow CI checkout).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prOutcomeCmd } from '../../src/cli/commands/pr-outcome.js';
import { PAIRS_COMPARISON_SCHEMA } from '../../src/formats/comparison-format.js';
import { type PairsComparison, PairsComparisonV3, type PairsPoint } from '../../src/formats/pairs-format.js';
import { Comparison } from '../../src/formats/quick-look-format.js';
import { forReader } from '../../src/pairs/comment/down-level.js';
import { commentFromArtifact } from '../../src/workflow/artifact.js';
import { pairsSchemaReadBy } from '../../src/workflow/reader-schema.js';
import { ROOT } from '../helpers/cli.js';
import { pairsComparison, pairsPoint } from '../helpers/pairs.js';
import { wcResults } from '../helpers/results.js';

/** Where a harness declares the paired schema it reads: every layout (reader-schema.ts's list). */
const FILES = [
  'harness/src/formats/comparison-format.ts',
  'harness/src/model/comparison-version.ts',
  'harness/src/model/comparison.ts',
];
const git = (...args: string[]) => execFileSync('git', ['-C', ROOT, ...args], { encoding: 'utf8' }).trim();

/** The newest commit whose harness reads paired schema `n` at most, or undefined without that history. */
function readerOf(n: number): string | undefined {
  // Either spelling of the constant's name, so that renaming it does not hide the commits before.
  const declares = new RegExp(`^export const PAIR(ED|S)_COMPARISON_SCHEMA = ${n};$`, 'm');
  let changed: string;
  try {
    changed = git('log', '-1', '--format=%H', `-GPAIR[EDS]*_COMPARISON_SCHEMA = ${n};`, '--', ...FILES);
  } catch {
    return undefined;
  }
  if (!changed) return undefined;
  const holds = (c: string) =>
    FILES.some((f) => {
      try {
        return declares.test(git('show', `${c}:${f}`));
      } catch {
        return false;
      }
    });
  // The newest change either introduced the declaration (it still holds) or moved past it.
  if (holds(changed)) return changed;
  return holds(`${changed}^`) ? git('rev-parse', `${changed}^`) : undefined;
}

/** That commit's harness/src, beside this checkout's node_modules. */
function checkout(commit: string): string {
  const old = mkdtempSync(join(tmpdir(), 'jsio-old-reader-'));
  execFileSync('sh', ['-c', `git -C "${ROOT}" archive ${commit} harness/src | tar -x -C "${old}"`]);
  symlinkSync(join(ROOT, 'node_modules'), join(old, 'node_modules'), 'dir');
  return old;
}

/** A module of an older harness by the end of its path (folders moved between commits: pr-diff/ became pairs/). */
async function load<T>(root: string, suffix: string): Promise<T> {
  const src = join(root, 'harness', 'src');
  const found = (readdirSync(src, { recursive: true }) as string[]).filter((f) => `/${f}`.endsWith(`/${suffix}`));
  if (found.length !== 1) throw new Error(`${suffix}: ${found.length} files in ${src}`);
  return (await import(join(src, found[0]!))) as T;
}

function artifact(root: string, comparison: unknown): string {
  const dir = mkdtempSync(join(root, 'artifact-'));
  writeFileSync(join(dir, 'pr-number'), '7');
  writeFileSync(join(dir, 'comparison.json'), JSON.stringify(comparison));
  return dir;
}

const lead = pairsPoint().lead;
const scan = pairsPoint({
  benchmark: 'scan/c-blocking/cache=warm,files=100',
  experiment: 'scan',
  variant: 'c-blocking',
  params: { cache: 'warm', files: 100 },
  impact: 'affected',
  changed: true,
  workloadChanged: 'input_bytes 40000 → 80000',
  lead: { ...lead, metric: 'scan_seconds', ratio: 1.96, ci: [1.91, 2.01], verdict: 'slower' },
});
const threadpool = pairsPoint({
  benchmark: 'threadpool/node-promises/cache=warm,pool=4,work=read',
  experiment: 'threadpool',
  variant: 'node-promises',
  params: { cache: 'warm', pool: 4, work: 'read' },
  impact: 'affected',
  changed: true,
  lead: { ...lead, metric: 'latency_p50', verdict: 'unchanged' },
  folded: [{ ...lead, metric: 'batch_ms', unit: 'ms', ratio: 1.051, ci: [1.03, 1.073], verdict: 'slower' }],
  also: ['batch_ms'],
});

/** A paired diff as `pairs` writes it now: every schema's additions, and its kind. */
function current(): PairsComparison {
  const c = pairsComparison([scan, threadpool] as PairsPoint[]);
  c.schema = PAIRS_COMPARISON_SCHEMA;
  c.kind = 'pairs';
  c.notAffected = [];
  c.affectedBecause = c.points.map((p) => ({ benchmark: p.benchmark, reason: 'changed' }));
  return c;
}

type Reader = { commentFromArtifact: (dir: string, pr: string) => { body: string } };

describe("the default branch's older reader on a newer harness's artifact", () => {
  for (const n of [2, 3]) {
    const commit = readerOf(n);
    it.skipIf(!commit)(
      `schema ${n}'s: reads and renders what pairs writes for it, and refuses the full document`,
      async () => {
        const old = checkout(commit!);
        // What pairs.ts decides by: the declaration in the base's source.
        const declared = pairsSchemaReadBy(old);
        expect(declared).toBe(n);
        const reader = await load<Reader>(old, 'workflow/artifact.ts');
        expect(() => reader.commentFromArtifact(artifact(old, current()), '7')).toThrow(
          new RegExp(`schema ${PAIRS_COMPARISON_SCHEMA}, newer than this harness`),
        );
        const written = forReader(current(), declared);
        expect(written?.schema).toBe(n);
        const { body } = reader.commentFromArtifact(artifact(old, written), '7');
        const top = body.slice(0, body.indexOf('| | points | |'));
        if (n === 2) {
          expect(top).toContain("rendered by the default branch's reader of comparison.json schema 2");
          expect(top).toContain(
            'threadpool node-promises cache=warm pool=4 work=read: also: batch_ms +5.1 % (+3.0 … +7.3 %)',
          );
          expect(body).toContain('scan/c-blocking/cache=warm,files=100: workload changed: +96 % (+91 … +101 %)');
        } else {
          // A reader of 3 shows both natively; it knows no `kind`, so the down-level has to drop it.
          expect(top).toContain('workload changed: +96 % (+91 … +101 %) — input_bytes 40000 → 80000');
          expect(top).toContain('also: batch_ms +5.1 % (+3.0 … +7.3 %)');
          expect(() => reader.commentFromArtifact(artifact(old, { ...written, kind: 'pairs' }), '7')).toThrow(
            /kind: unknown key/,
          );
        }
      },
    );
    if (!commit)
      it(`is skipped: this clone has no commit whose harness reads only schema ${n} (a shallow checkout)`, () => {});
  }
});

type Writer = {
  pairedComparison: (input: Record<string, unknown>) => Record<string, unknown>;
};

/** What an older harness's `pairs` wrote for these points (its own writer and, where it had one, its summary). */
async function writtenBy(old: string, points: PairsPoint[]): Promise<Record<string, unknown>> {
  const { pairedComparison: write } = await load<Writer>(old, 'report/comparison-json.ts');
  const side = (commit: string) => ({ commit, toolchains: { node: 'v22.0.0' } });
  const c = write({
    plan: { looks: [10, 20, 40, 60], alphas: [0.005, 0.01, 0.015, 0.02], betas: [0.05, 0.05, 0.05, 0.05] },
    seed: 5,
    machine: { id: 'm', cpu: 'c' },
    budget: { seconds: 600, spentSeconds: 590 },
    base: side('a'.repeat(40)),
    head: side('b'.repeat(40)),
    points,
    added: [],
    removed: [],
    notMeasured: [],
    incomparable: [],
    warnings: [],
  });
  if (c.schema !== 2) {
    const { summarize } = await load<{ summarize: (c: unknown) => unknown }>(old, 'analysis/summarize.ts');
    c.summary = summarize(c);
  }
  return c;
}

async function outcome(dir: string): Promise<string> {
  let out = '';
  const io = { stdout: (s: string) => void (out += s), stderr: () => {} };
  await prOutcomeCmd(['--comparison', join(dir, 'comparison.json'), '--fail-on', 'none'], io);
  return out;
}

describe("today's readers on the files older harnesses wrote", () => {
  const two = readerOf(2);
  const three = readerOf(3);
  it.skipIf(!two)('a paired diff at schema 2', async () => {
    const old = checkout(two!);
    const { workloadChanged: _w, also: _a, ...plain } = threadpool;
    const file = await writtenBy(old, [{ ...plain, lead: { ...lead, verdict: 'unchanged' }, folded: [] }]);
    expect(file).toMatchObject({ schema: 2 });
    expect(file).not.toHaveProperty('kind');
    const dir = artifact(old, file);
    expect(commentFromArtifact(dir, '7').body).toContain('threadpool');
    expect(await outcome(dir)).toBe('fail=false\n');
  });

  it.skipIf(!three)('a paired diff at schema 3, and the quick look as written before kinds (schema 1)', async () => {
    const old = checkout(three!);
    const file = await writtenBy(old, [scan, threadpool] as PairsPoint[]);
    expect(file).toMatchObject({ schema: 3 });
    expect(file).not.toHaveProperty('kind');
    // Schema 3 as today's model has it: the down-level writes exactly what that harness wrote.
    PairsComparisonV3.parse(file);
    const dir = artifact(old, file);
    const { body } = commentFromArtifact(dir, '7');
    expect(body).toContain('workload changed: +96 % (+91 … +101 %) — input_bytes 40000 → 80000');
    expect(await outcome(dir)).toBe('fail=false\n');

    const { compareRuns } = await load<{ compareRuns: (b: unknown[], h: unknown[]) => Record<string, unknown> }>(
      old,
      'compare/quick-look.ts',
    );
    const quickLook = compareRuns([wcResults('a'.repeat(40))], [wcResults('b'.repeat(40))]);
    expect(quickLook).toMatchObject({ schema: 1 });
    expect(quickLook).not.toHaveProperty('kind');
    expect(Comparison.parse(quickLook)).toEqual(quickLook);
    // No PR diff, said in one line.
    expect(() => commentFromArtifact(artifact(old, quickLook), '7')).toThrow(
      /^\S+\/comparison\.json is the quick look `npm run compare` writes between stored runs \(schema 1\), not the paired PR diff `npm run pairs` writes: refusing it$/,
    );
  });
  if (!two || !three)
    it('is skipped in part: this clone lacks the harnesses that wrote paired schema 2 or 3 (a shallow checkout)', () => {});
});
