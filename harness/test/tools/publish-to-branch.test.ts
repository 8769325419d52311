// Publishing to gh-pages with real git: when another publisher pushed first, the publish
// starts again from the remote and both results end up on the branch.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const script = join(ROOT, 'harness', 'tools', 'publish-to-branch.sh');
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'jsio-pages-'));
  git(dir, 'init', '--quiet', '--bare', 'remote.git');
  for (const c of ['a', 'b']) git(dir, 'clone', '--quiet', join(dir, 'remote.git'), c);
  return dir;
}

/** The update command appends a line to a shared file: a naive rebase would conflict. */
function publish(dir: string, clone: string, line: string) {
  return new Promise<number | null>((resolve) => {
    const p = spawn(
      'bash',
      [
        script,
        join(dir, clone),
        'gh-pages',
        `publish ${line}`,
        '--',
        'sh',
        '-c',
        `sleep 0.2; echo ${line} >> data.txt`,
      ],
      {
        env: {
          ...process.env,
          PUBLISH_TRIES: '8',
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@t',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@t',
        },
        stdio: 'ignore',
      },
    );
    p.on('close', resolve);
  });
}

describe('publish-to-branch', () => {
  it('creates the branch on first publish', async () => {
    const dir = setup();
    expect(await publish(dir, 'a', 'one')).toBe(0);
    expect(git(join(dir, 'a'), 'show', 'origin/gh-pages:data.txt')).toBe('one\n');
  });

  it('keeps both of two racing publishes', async () => {
    const dir = setup();
    expect(await publish(dir, 'a', 'zero')).toBe(0);
    const codes = await Promise.all([publish(dir, 'a', 'first'), publish(dir, 'b', 'second')]);
    expect(codes).toEqual([0, 0]);
    git(join(dir, 'a'), 'fetch', '--quiet', 'origin');
    const lines = git(join(dir, 'a'), 'show', 'origin/gh-pages:data.txt').trim().split('\n');
    expect(lines[0]).toBe('zero');
    expect(lines.slice(1).sort()).toEqual(['first', 'second']);
  });

  it('does nothing when the update changes nothing', async () => {
    const dir = setup();
    await publish(dir, 'a', 'one');
    const p = execFileSync('bash', [script, join(dir, 'a'), 'gh-pages', 'noop', '--', 'true'], { encoding: 'utf8' });
    expect(p).toContain('nothing changed');
    expect(existsSync(join(dir, 'a', 'data.txt'))).toBe(true);
    expect(readFileSync(join(dir, 'a', 'data.txt'), 'utf8')).toBe('one\n');
  });
});
