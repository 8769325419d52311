// The PR-comment step takes an artifact from pull-request code: hostile content is rejected or
// made inert, and the comment is re-rendered from validated data.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/compare/quick-look.js';
import { COMMENT_MARKER, commentFromArtifact, MAX_ARTIFACT_BYTES } from '../../src/workflow/artifact.js';
import { pairsComparison, pairsPoint } from '../helpers/pairs.js';
import { wcResults } from '../helpers/results.js';

function artifact(comparison: unknown, pr = '42'): string {
  const dir = mkdtempSync(join(tmpdir(), 'jsio-art-'));
  writeFileSync(join(dir, 'comparison.json'), typeof comparison === 'string' ? comparison : JSON.stringify(comparison));
  writeFileSync(join(dir, 'pr-number'), pr);
  return dir;
}
const good = () => pairsComparison();

describe('pr-comment', () => {
  it('renders a valid artifact behind the sticky-comment marker', () => {
    const { pr, body } = commentFromArtifact(artifact(good()), '42');
    expect(pr).toBe(42);
    // No pair record, no trusted plan: shown, and the check the default branch decides fails.
    expect(body.startsWith(`${COMMENT_MARKER}\n**Merge check (decided by the default branch's code): fails**`)).toBe(
      true,
    );
    expect(body).toContain('\n## Performance:');
  });

  it('refuses a pair record that is not one (another version, a wrong shape), naming the file', () => {
    const dir = artifact(good());
    writeFileSync(join(dir, 'pairs.json'), JSON.stringify({ schema: 2, points: [] }));
    expect(() => commentFromArtifact(dir, '42')).toThrow(/pairs\.json/);
  });

  it.each([
    ['42; rm -rf /', /artifact pr-number is not a positive integer/],
    ['0x2a', /artifact pr-number is not a positive integer/],
    ['43', /artifact pr-number 43 does not match the run's pull request 42/],
  ])('rejects the PR number %j', (pr, message) => {
    expect(() => commentFromArtifact(artifact(good(), pr), '42')).toThrow(message);
  });

  it('rejects a huge file before reading it', () => {
    const dir = artifact('x'.repeat(MAX_ARTIFACT_BYTES + 1));
    expect(() => commentFromArtifact(dir, '42')).toThrow(/over the 8388608-byte limit: refusing it/);
  });

  it('rejects JSON that is not a paired comparison, naming the field', () => {
    const bad = { ...good(), points: [{ ...pairsPoint(), experiment: undefined }] };
    expect(() => commentFromArtifact(artifact(bad), '42')).toThrow(
      /comparison\.json is invalid:\n {2}points\.0\.experiment/,
    );
    expect(() => commentFromArtifact(artifact('{"schema":1'), '42')).toThrow(/comparison\.json is not valid JSON/);
  });

  it("refuses compare's quick look between stored runs, by its kind or, written before kinds, its schema 1", () => {
    const quickLook = compareRuns([wcResults('a'.repeat(40))], [wcResults('b'.repeat(40))]);
    expect(quickLook.kind).toBe('quick-look');
    const refusal = (said: string) =>
      new RegExp(
        `^\\S+/comparison\\.json is the quick look \`npm run compare\` writes between stored runs \\(${said}\\), not the paired PR diff \`npm run pairs\` writes: refusing it$`,
      );
    expect(() => commentFromArtifact(artifact(quickLook), '42')).toThrow(refusal('field "kind" is "quick-look"'));
    const { kind: _kind, ...before } = { ...quickLook, schema: 1 };
    expect(() => commentFromArtifact(artifact(before), '42')).toThrow(refusal('schema 1'));
  });

  it('makes markdown and HTML injection inert', () => {
    const c = good();
    c.notMeasured.push({
      benchmark: 'wc/evil/x=1',
      side: 'head',
      status: 'failed',
      reason: '<img src=x onerror=alert(1)> [click](https://evil.example) @maintainers ![i](https://x/y.png) | broken',
    });
    const { body } = commentFromArtifact(artifact(c), '42');
    expect(body).not.toContain('<img');
    expect(body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(body).not.toContain('[click](');
    // The link's brackets are escaped and its URL is no autolink (a zero-width space splits it).
    expect(body).toContain('\\[click\\](https:/\u200b/evil.example)');
    expect(body).not.toContain('https://');
    expect(body).not.toMatch(/@maintainers/);
    expect(body).toContain('\\!\\[i\\]');
    expect(body).toContain('\\| broken');
  });

  it('refuses a non-numeric --pr from the workflow itself', () => {
    expect(() => commentFromArtifact(artifact(good()), '${{ github.event.number }}')).toThrow(
      /--pr must be a positive integer/,
    );
  });
});
