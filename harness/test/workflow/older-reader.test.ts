// A pull request that introduces a comparison.json schema still gets its comment: pr-comment.yml
// validates and renders the artifact with the DEFAULT BRANCH's harness. Here that reader is the
// real one of the last commit whose harness read only schema 2, taken from git history: it refuses
// a schema-3 document, and reads and renders what `pairs` writes for such a base, the changed
// workload and the moved metric shown at the top. Skipped, with a message, in a clone without that
// history (a shallow CI checkout).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PairedComparison, PairedPoint } from '../../src/model/pairs-document.js';
import { forSchema2 } from '../../src/pairs/report/down-level.js';
import { ROOT } from '../helpers/cli.js';
import { pairedComparison, pairedPoint } from '../helpers/paired.js';

const DECLARATION = 'export const PAIRED_COMPARISON_SCHEMA = 2;';
const FILE = 'harness/src/model/comparison.ts';
const git = (...args: string[]) => execFileSync('git', ['-C', ROOT, ...args], { encoding: 'utf8' }).trim();

/** The newest commit whose harness reads schema 2 at most, or undefined without that history. */
function schema2Commit(): string | undefined {
  let changed: string;
  try {
    changed = git('log', '-1', '--format=%H', `-S${DECLARATION}`, '--', FILE);
  } catch {
    return undefined;
  }
  if (!changed) return undefined;
  const holds = (c: string) => {
    try {
      return git('show', `${c}:${FILE}`).includes(DECLARATION);
    } catch {
      return false;
    }
  };
  // The newest change either introduced the declaration (it still holds) or moved past it.
  if (holds(changed)) return changed;
  return holds(`${changed}^`) ? git('rev-parse', `${changed}^`) : undefined;
}

function schema3(): PairedComparison {
  const lead = pairedPoint().lead;
  const c = pairedComparison([
    pairedPoint({
      benchmark: 'scan/c-blocking/cache=warm,files=100',
      experiment: 'scan',
      variant: 'c-blocking',
      params: { cache: 'warm', files: 100 },
      impact: 'affected',
      changed: true,
      workloadChanged: 'input_bytes 40000 → 80000',
      lead: { ...lead, metric: 'scan_seconds', ratio: 1.96, ci: [1.91, 2.01], verdict: 'slower' },
    }),
    pairedPoint({
      benchmark: 'threadpool/node-promises/cache=warm,pool=4,work=read',
      experiment: 'threadpool',
      variant: 'node-promises',
      params: { cache: 'warm', pool: 4, work: 'read' },
      impact: 'affected',
      changed: true,
      lead: { ...lead, metric: 'latency_p50', verdict: 'unchanged' },
      folded: [{ ...lead, metric: 'batch_ms', unit: 'ms', ratio: 1.051, ci: [1.03, 1.073], verdict: 'slower' }],
      also: ['batch_ms'],
    }),
  ] as PairedPoint[]);
  c.schema = 3;
  c.notAffected = [];
  c.affectedBecause = c.points.map((p) => ({ benchmark: p.benchmark, reason: 'changed' }));
  return c;
}

describe("the default branch's older reader on a newer harness's artifact", () => {
  const commit = schema2Commit();
  it.skipIf(!commit)('reads and renders what pairs writes for it, and refuses the full document', async () => {
    const old = mkdtempSync(join(tmpdir(), 'jsio-old-reader-'));
    execFileSync('sh', ['-c', `git -C "${ROOT}" archive ${commit} harness/src | tar -x -C "${old}"`]);
    symlinkSync(join(ROOT, 'node_modules'), join(old, 'node_modules'), 'dir');
    // The reader's path in that commit, not today's.
    const reader = (await import(join(old, 'harness/src/pr-diff/workflow/artifact.ts'))) as {
      commentFromArtifact: (dir: string, pr: string) => { body: string };
    };
    const artifact = join(old, 'artifact');
    mkdirSync(artifact);
    writeFileSync(join(artifact, 'pr-number'), '7');
    writeFileSync(join(artifact, 'comparison.json'), JSON.stringify(schema3()));
    expect(() => reader.commentFromArtifact(artifact, '7')).toThrow(/schema 3, newer than this harness/);
    writeFileSync(join(artifact, 'comparison.json'), JSON.stringify(forSchema2(schema3())));
    const { body } = reader.commentFromArtifact(artifact, '7');
    const top = body.slice(0, body.indexOf('| | points | |'));
    expect(top).toContain("rendered by the default branch's reader of comparison.json schema 2");
    expect(top).toContain(
      'threadpool node-promises cache=warm pool=4 work=read: also: batch_ms +5.1 % (+3.0 … +7.3 %)',
    );
    expect(body).toContain('scan/c-blocking/cache=warm,files=100: workload changed: +96 % (+91 … +101 %)');
  });
  if (!commit)
    it('is skipped: this clone has no commit whose harness reads only schema 2 (a shallow checkout)', () => {});
});
