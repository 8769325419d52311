// The workflows' checks read files beside the results with looser rules than results.json:
// comment-target took any comparison.json that had head.commits, pick-commit any index.json with
// a commits list, gab-gate any data.js whose entries had a commit id and a tool. Each now goes
// through the schema its other readers use: patterns, caps, no Object.prototype names, bounded
// numbers, and exit 2 naming the field.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workflowCommand } from '../../src/cli/commands/workflow.js';
import { parseGabDataJs } from '../../src/workflow/gab-gate.js';
import { runTitle } from '../../src/workflow/workflow-run.js';
import { pairsComparison } from '../helpers/pairs.js';

const REPO = 'owner/repo';
const A = 'a'.repeat(40);
const tmp = () => mkdtempSync(join(tmpdir(), 'jsio-wf-caps-'));

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const status = await workflowCommand(argv, {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    env: { GITHUB_REPOSITORY: REPO },
  });
  return { status, stdout, stderr };
}

describe('comment-target reads comparison.json as pr-comment does', () => {
  function target(comparison: string) {
    const d = tmp();
    writeFileSync(
      join(d, 'event.json'),
      JSON.stringify({
        repository: { full_name: REPO, default_branch: 'main' },
        workflow_run: {
          event: 'pull_request_target',
          path: '.github/workflows/pr.yml',
          conclusion: 'success',
          display_title: runTitle(7, A),
          repository: { full_name: REPO },
        },
      }),
    );
    mkdirSync(join(d, 'artifact'));
    writeFileSync(join(d, 'artifact', 'pr-number'), '7');
    writeFileSync(join(d, 'artifact', 'comparison.json'), comparison);
    return run([
      'comment-target',
      '--event',
      join(d, 'event.json'),
      '--workflow-path',
      '.github/workflows/pr.yml',
      '--artifact',
      join(d, 'artifact'),
    ]);
  }
  const withHead = (change: (c: ReturnType<typeof pairsComparison>) => void) => {
    const c = pairsComparison();
    c.head.commits = [A];
    change(c);
    return JSON.stringify(c);
  };

  it('accepts a paired diff whose head is the run’s', async () => {
    expect(await target(withHead(() => {}))).toMatchObject({ status: 0, stdout: `pr=7\nsha=${A}\n` });
  });

  it('refuses a toolchain named constructor', async () => {
    const r = await target(withHead((c) => (c.head.toolchains = { constructor: 'x' })));
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('head.toolchains.constructor');
  });

  it('refuses a file that is only head.commits', async () => {
    const r = await target(JSON.stringify({ head: { commits: [A] } }));
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('comparison.json is invalid');
  });
});

describe('pick-commit reads index.json with the store’s patterns', () => {
  function pick(index: string) {
    const d = tmp();
    const repo = join(d, 'repo');
    mkdirSync(repo);
    const g = (...a: string[]) => execFileSync('git', ['-C', repo, ...a], { encoding: 'utf8' }).trim();
    g('init', '-q', '-b', 'main');
    g('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'one');
    const head = g('rev-parse', 'HEAD');
    mkdirSync(join(d, 'data', 'm-1'), { recursive: true });
    writeFileSync(join(d, 'data', 'm-1', 'index.json'), index.replaceAll('HEAD', head));
    return run(['pick-commit', '--repo', repo, '--head', head, '--store', join(d, 'data'), '--machine', 'm-1']);
  }

  it('accepts a stored commit', async () => {
    expect((await pick('{"commits":[{"sha":"HEAD","runs":{"smoke":{}}}]}')).status).toBe(0);
  });

  it.each([
    ['a sha that is a path', '{"commits":[{"sha":"../../etc/passwd"}]}', 'commits.0.sha'],
    ['a 5,000-character sha', `{"commits":[{"sha":"${'f'.repeat(5000)}"}]}`, 'commits.0.sha'],
    ['a profile named constructor', '{"commits":[{"sha":"HEAD","runs":{"constructor":{}}}]}', 'runs.constructor'],
    ['a __proto__ profile', '{"commits":[{"sha":"HEAD","runs":{"__proto__":{}}}]}', 'Object.prototype property'],
    ['a newer store', '{"schema":99,"commits":[]}', 'newer than this harness understands'],
  ])('refuses %s (exit 2, nothing printed)', async (_n, index, message) => {
    const r = await pick(index);
    expect([r.status, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toContain(message);
  });
});

describe("gab-gate reads the action's data.js with results.json's rules", () => {
  const js = (entries: string, extra = '') => `window.BENCHMARK_DATA = {"lastUpdate":1${extra},"entries":${entries}}`;
  const entry = (over = '') => `{"commit":{"id":"${A}"},"tool":"customSmallerIsBetter","date":1700000000000${over}}`;

  it('accepts the action’s own shape, benches and all', () => {
    const data = parseGabDataJs(js(`{"Benchmark":[${entry(',"benches":[{"name":"x","value":1}]')}]}`));
    expect(data.entries.Benchmark?.[0]?.commit.id).toBe(A);
  });

  it.each([
    ['a suite named constructor', js(`{"constructor":[${entry()}]}`), 'entries.constructor'],
    ['a __proto__ suite', js(`{"__proto__":[${entry()}]}`), 'Object.prototype property'],
    ['a date of 1e308', js(`{"B":[${entry().replace('1700000000000', '1e308')}]}`), 'entries.B.0.date'],
    ['a 5,000-character tool', js(`{"B":[${entry().replace('customSmallerIsBetter', 'x'.repeat(5000))}]}`), 'tool'],
    ['a repoUrl of 5,000 characters', js('{}', `,"repoUrl":"${'u'.repeat(5000)}"`), 'repoUrl'],
  ])('refuses %s', (_n, text, field) => {
    expect(() => parseGabDataJs(text)).toThrow(field);
  });
});
