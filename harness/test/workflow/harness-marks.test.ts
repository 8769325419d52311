// bench.yml's harness marks: `workflow mark-base` finds the previous commit this machine published
// (the newest first-parent ancestor with a run of the profile), and `workflow harness-changed`
// says whether the harness's measuring code differs between two checkouts.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { publishRun } from '../../src/store/publish-run.js';
import { runCli } from '../helpers/cli.js';
import { wcResults } from '../helpers/results.js';
import { removeScratch } from '../helpers/scratch.js';

const dir = mkdtempSync(join(tmpdir(), 'jsio-harness-marks-'));
afterAll(() => removeScratch(dir));

const git = (repo: string, ...args: string[]) =>
  execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' }).trim();

/** A repository of three commits, oldest first, each with harness/src/x.ts as given. */
function repo(): { root: string; shas: string[] } {
  const root = join(dir, 'repo');
  mkdirSync(join(root, 'harness', 'src'), { recursive: true });
  git(dir, 'init', '-q', root);
  const shas = ['one', 'two', 'three'].map((body) => {
    writeFileSync(join(root, 'harness', 'src', 'x.ts'), `export const x = '${body}';\n`);
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', body);
    return git(root, 'rev-parse', 'HEAD');
  });
  return { root, shas };
}

describe('workflow mark-base', () => {
  it('the newest earlier commit with a run of the profile; none when the machine has none; missing flags named', async () => {
    const { root, shas } = repo();
    const store = join(dir, 'store');
    const smoke = wcResults(shas[0]);
    await publishRun(store, smoke);
    const base = (profile: string, head = shas[2]!) =>
      runCli([
        'workflow',
        'mark-base',
        '--repo',
        root,
        '--head',
        head,
        '--store',
        store,
        '--machine',
        'test-machine',
        '--profile',
        profile,
      ]);
    const r = base('smoke');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(`base=${shas[0]}\n`);
    // The commit measured is not its own base, even when already published.
    await publishRun(store, wcResults(shas[2]));
    expect(base('smoke').stdout).toBe(`base=${shas[0]}\n`);
    const none = base('standard');
    expect(none.stdout).toBe('base=\n');
    expect(none.stderr).toContain('published no standard run');
    const missing = runCli(['workflow', 'mark-base', '--head', shas[2]!]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('missing --store, --machine, --profile');
  });
});

describe('workflow harness-changed', () => {
  const checkout = (name: string, body: string) => {
    const root = join(dir, name);
    mkdirSync(join(root, 'harness', 'src'), { recursive: true });
    writeFileSync(join(root, 'harness', 'src', 'x.ts'), body);
    return root;
  };

  it('changed when a measuring file differs, unchanged when none does; a folder that is no checkout is refused', () => {
    const a = checkout('a', 'export const x = 1;\n');
    const same = checkout('same', 'export const x = 1;\n');
    const other = checkout('other', 'export const x = 2;\n');
    const changed = runCli(['workflow', 'harness-changed', '--base', a, '--head', other]);
    expect(changed.status, changed.stderr).toBe(0);
    expect(changed.stdout).toBe('harness=changed\n');
    expect(changed.stderr).toContain('harness/src/x.ts');
    expect(runCli(['workflow', 'harness-changed', '--base', a, '--head', same]).stdout).toBe('harness=unchanged\n');
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const refused = runCli(['workflow', 'harness-changed', '--base', empty, '--head', a]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('not a jsio-bench checkout');
    expect(runCli(['workflow', 'harness-changed', '--help']).stdout).toContain('--base DIR');
  });
});
