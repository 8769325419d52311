// The publish jobs hold a write token. publish-to-branch gives it to git only for fetch and push,
// through environment-only configuration (an http.extraheader for https://github.com/): never in
// a URL, never in .git/config or any other file, and never to the update command (npm run pages).
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const script = join(ROOT, 'harness', 'tools', 'publish-to-branch.sh');
const TOKEN = 'ghs_tokenThatMustNotLand0123456789';

/** Every file under dir whose content contains s. */
function filesContaining(dir: string, s: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const p = join(dir, e);
    if (statSync(p).isFile() && readFileSync(p).includes(s)) out.push(e);
  }
  return out;
}

describe('publish-to-branch with PUBLISH_TOKEN', () => {
  it('passes the token to fetch and push only, as an extraheader in the environment; no file holds it', () => {
    const d = mkdtempSync(join(tmpdir(), 'jsio-token-'));
    execFileSync('git', ['init', '--quiet', '--bare', join(d, 'remote.git')]);
    execFileSync('git', ['init', '--quiet', join(d, 'pages')]);
    execFileSync('git', ['-C', join(d, 'pages'), 'remote', 'add', 'origin', join(d, 'remote.git')]);
    // A git that records, per subcommand, whether it was given the header, then runs the real git.
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    mkdirSync(join(d, 'bin'));
    writeFileSync(
      join(d, 'bin', 'git'),
      `#!/bin/sh\nsub="$1"; [ "$sub" = "-c" ] && sub="$3"\nh=none\ni=0\nwhile [ "$i" -lt "\${GIT_CONFIG_COUNT:-0}" ]; do eval "k=\\$GIT_CONFIG_KEY_$i v=\\$GIT_CONFIG_VALUE_$i"; [ "$k" = "http.https://github.com/.extraheader" ] && h="$v"; i=$((i+1)); done\necho "$sub $h" >> "${d}/git.log"\nexec ${realGit} "$@"\n`,
    );
    chmodSync(join(d, 'bin', 'git'), 0o755);
    const r = spawnSync(
      'bash',
      [script, join(d, 'pages'), 'gh-pages', 'publish', '--', 'sh', '-c', 'env > seen-env.txt; echo data > data.txt'],
      {
        encoding: 'utf8',
        env: {
          ...process.env,
          PATH: `${join(d, 'bin')}:${process.env.PATH}`,
          PUBLISH_TOKEN: TOKEN,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@t',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@t',
        },
      },
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const header = `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${TOKEN}`).toString('base64')}`;
    const log = readFileSync(join(d, 'git.log'), 'utf8').trim().split('\n');
    expect(log.filter((l) => l.startsWith('fetch ') || l.startsWith('push '))).toEqual([
      `fetch ${header}`,
      `push ${header}`,
    ]);
    expect(log.filter((l) => !l.startsWith('fetch ') && !l.startsWith('push ')).every((l) => l.endsWith(' none'))).toBe(
      true,
    );
    // The update command ran without the token; the published tree, the clone and the remote hold it nowhere.
    const seen = execFileSync('git', ['-C', join(d, 'remote.git'), 'show', 'gh-pages:seen-env.txt'], {
      encoding: 'utf8',
    });
    expect(seen).not.toContain(TOKEN);
    expect(seen).not.toContain('PUBLISH_TOKEN');
    expect(seen).not.toContain('extraheader');
    for (const dir of ['pages', 'remote.git']) {
      expect(filesContaining(join(d, dir), TOKEN), dir).toEqual([]);
      expect(filesContaining(join(d, dir), Buffer.from(`x-access-token:${TOKEN}`).toString('base64')), dir).toEqual([]);
    }
  });
});
