// The comment job and the merge check hold the diff to the plan the base's harness computed
// before any pull-request code ran: a point it names that the diff neither measured nor listed
// leads the comment and fails the check, whatever the merge rule.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DiffPlan } from '../../src/model/diff-plan.js';
import { commentFromArtifact, NO_TRUSTED_PLAN } from '../../src/workflow/artifact.js';
import { coverageProblem, unansweredPoints } from '../../src/workflow/trusted-coverage.js';
import { runCli } from '../helpers/cli.js';
import { pairsComparison, pairsPoint } from '../helpers/pairs.js';

const measured = 'wc/node-stream/bs=65536/runtime=node22';
const plan = (affected: string[], control: string[] = [], head = 'b'.repeat(40)): DiffPlan => ({
  schema: 1,
  kind: 'pairs-plan',
  base: { root: '/b', commit: 'a'.repeat(40) },
  head: { root: '/h', commit: head },
  profile: 'quick',
  affected: affected.map((benchmark) => ({ benchmark, reasons: ['changed: programs/wc/wc-c.c'] })),
  control,
  notAffected: [],
  harnessChange: { changed: false, files: [], why: '' },
});

function artifact(): string {
  const dir = mkdtempSync(join(tmpdir(), 'jsio-trusted-'));
  const c = pairsComparison([pairsPoint()]);
  c.notMeasured.push({ benchmark: 'wc/c/bs=4096', side: 'head', status: 'failed', reason: 'exit 1' });
  writeFileSync(join(dir, 'comparison.json'), JSON.stringify(c));
  writeFileSync(join(dir, 'pr-number'), '42');
  return dir;
}

describe('trusted coverage', () => {
  it('a point is answered by a row or a listed reason; the rest are missing', () => {
    const c = pairsComparison([pairsPoint()]);
    c.removed.push({ benchmark: 'wc/gone/bs=1', side: 'base' });
    expect(unansweredPoints(plan([measured, 'wc/gone/bs=1', 'wc/data/bs=1'], ['scan/c/x=1']), c)).toEqual([
      'wc/data/bs=1',
      'scan/c/x=1',
    ]);
    expect(coverageProblem(plan([measured]), c)).toBeUndefined();
    expect(coverageProblem(plan([measured], [], 'c'.repeat(40)), c)?.line).toMatch(
      /not of the commits this diff measured/,
    );
  });

  it('leads the comment with the missing points, escaped; says when no plan was left', () => {
    const dir = artifact();
    const hostile = 'wc/<img src=x>/bs=1';
    const { body } = commentFromArtifact(dir, '42', undefined, plan([measured, 'wc/c/bs=4096', hostile]));
    expect(body).toMatch(/> \[!WARNING\]\n> 1 point the base's harness found affected is missing from this diff/);
    expect(body).toContain('wc/&lt;img src=x&gt;/bs=1');
    expect(body).not.toContain('<img');
    expect(commentFromArtifact(dir, '42', undefined, plan([measured])).body).not.toContain('[!WARNING]');
    expect(commentFromArtifact(dir, '42', undefined, 'none').body).toContain(NO_TRUSTED_PLAN);
  });

  it('fails the merge check whatever the rule, and passes it when every point is answered', () => {
    const dir = artifact();
    const file = join(dir, 'plan.json');
    writeFileSync(file, JSON.stringify(plan([measured, 'wc/data/bs=1'])));
    const args = ['workflow', 'pr-outcome', '--comparison', join(dir, 'comparison.json'), '--fail-on', 'none'];
    const missing = runCli([...args, '--trusted-plan', file]);
    expect(missing.status).toBe(1);
    expect(missing.stdout).toBe('fail=true\n');
    expect(missing.stderr).toMatch(/1 point the base's harness found affected is missing/);
    writeFileSync(file, JSON.stringify(plan([measured])));
    const ok = runCli([...args, '--trusted-plan', file]);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toBe('fail=false\n');
  });
});
