/**
 * The world a workflow replay runs in: a snapshot commit of this working tree (so uncommitted
 * changes are replayed too), a bare repository standing in for github.com, a runner's tool cache
 * that persists across test runs (npm's cache stays warm), just(js) already in both trust levels'
 * caches (building it takes minutes and the network), and a stand-in for the GitHub REST API.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { join } from 'node:path';
import { ROOT } from './cli.js';
import { borrowNodeModules, cloneWorkingTree } from './working-tree.js';

export const REPO = 'gab-local/jsio-bench';
const ident = ['-c', 'user.name=replay', '-c', 'user.email=replay@localhost'];
export const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, ...ident, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

export interface World {
  root: string;
  snap: string;
  remote: string;
  main: string;
  toolCache: string;
  /** Runner.prelude: stand-ins for the steps that download from GitHub. */
  prelude: string;
}

/**
 * Stand-ins in every step's shell, for what a runner provisioned earlier would have:
 * - `npm run install-just` builds upstream's release, which downloads from GitHub: impossible here;
 *   the replays use the just(js) preseedJust put in the tool cache.
 * - `npm ci` of a checkout whose package-lock.json is this tree's installs exactly this tree's
 *   node_modules: a hard-linked copy of it stands in (seconds, where the replays' many jobs each
 *   reinstalled it), never a symlink, so a later install cannot empty ours. Any other lock file,
 *   and every other npm command, runs for real.
 */
const OFFLINE_PRELUDE = [
  'npm() {',
  // install-just [--pins FILE] PREFIX: the pin of FILE, or of the checkout's toolchains.json.
  '  if [ "$1 $2 $3 $4" = "run --silent install-just --" ]; then',
  '    local pins=harness/toolchains.json; shift 4; if [ "$1" = --pins ]; then pins=$2; shift 2; fi',
  `    echo "$1/just-$(sed -n 's/.*"just": *"\\([^"]*\\)".*/\\1/p' "$pins")"; return 0`,
  '  fi',
  `  if [ "$1" = ci ] && cmp -s package-lock.json '${join(ROOT, 'package-lock.json')}'; then`,
  `    rm -rf node_modules && mkdir node_modules && cp -al '${join(ROOT, 'node_modules')}/.' node_modules; return; fi`,
  '  command npm "$@"',
  '}',
].join('\n');

/** A snapshot of the working tree as commit `main` of a fresh bare "GitHub" repository. */
export function makeWorld(root: string): World {
  const snap = join(root, 'snap');
  cloneWorkingTree(snap, 'replay snapshot of the working tree');
  const remote = join(root, 'github.git');
  execFileSync('git', ['init', '--quiet', '--bare', '-b', 'main', remote]);
  // GitHub serves any reachable commit by id (pull-request heads included).
  git(remote, 'config', 'uploadpack.allowAnySHA1InWant', 'true');
  git(snap, 'push', '-q', remote, 'HEAD:refs/heads/main');
  // The snapshot clone runs benchmarks itself (results for the publish job).
  borrowNodeModules(snap);
  const toolCache = join(ROOT, '.cache', 'workflow-replay', 'toolcache');
  preseedJust(toolCache);
  return { root, snap, remote, main: git(snap, 'rev-parse', 'HEAD'), toolCache, prelude: OFFLINE_PRELUDE };
}

/**
 * just(js) in both trust levels' caches, where `npm run install-just` finds it: the one built
 * for this machine (../shared/just/build.sh), else a stand-in that only answers --version (the
 * replays measure C variants; `--require just` only needs it to be present).
 */
function preseedJust(toolCache: string) {
  const version = (JSON.parse(readFileSync(join(ROOT, 'harness', 'toolchains.json'), 'utf8')) as { just: string }).just;
  const built = '/root/.cache/jsio-just-system/just';
  for (const level of ['trusted', 'pr']) {
    const dir = join(toolCache, 'jsio-bench', level, 'just', `just-${version}`);
    if (existsSync(join(dir, 'just'))) continue;
    mkdirSync(join(dir, '..'), { recursive: true });
    if (existsSync(join(built, 'just'))) symlinkSync(built, dir);
    else {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'just'), `#!/bin/sh\necho ${version}\n`);
      chmodSync(join(dir, 'just'), 0o755);
    }
  }
}

/** A commit on top of `base` in the snapshot clone, pushed to the remote as `ref`. */
export function commitAndPush(
  w: World,
  base: string,
  ref: string,
  edit: (snap: string) => void,
  message: string,
): string {
  git(w.snap, 'checkout', '-q', '--detach', base);
  edit(w.snap);
  git(w.snap, 'add', '-A');
  git(w.snap, 'commit', '-q', '--allow-empty', '-m', message);
  const sha = git(w.snap, 'rev-parse', 'HEAD');
  git(w.snap, 'push', '-q', '--force', w.remote, `HEAD:${ref}`);
  return sha;
}

export interface FakeGitHub {
  url: string;
  pulls: Record<number, unknown>;
  comments: { id: number; issue: number; body: string; user: { login: string } }[];
  /** Commit statuses set, in order (the merge check). */
  statuses: { sha: string; state: string; context: string; description: string }[];
  requests: string[];
  close: () => void;
}

/** The REST calls the workflows make: a pull request, its issue comments, commit statuses. */
export async function fakeGitHub(repo = REPO): Promise<FakeGitHub> {
  const state: FakeGitHub = { url: '', pulls: {}, comments: [], statuses: [], requests: [], close: () => {} };
  let nextId = 1000;
  const body = (req: IncomingMessage) =>
    new Promise<{ body?: string }>((ok) => {
      let s = '';
      req.on('data', (c) => (s += c));
      req.on('end', () => ok(s ? (JSON.parse(s) as { body?: string }) : {}));
    });
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    state.requests.push(`${req.method} ${url.pathname}`);
    const json = (status: number, data: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(data));
    const p = new RegExp(`^/repos/${repo}/pulls/(\\d+)$`).exec(url.pathname);
    if (p && req.method === 'GET')
      return state.pulls[Number(p[1])] ? json(200, state.pulls[Number(p[1])]) : json(404, { message: 'Not Found' });
    const c = new RegExp(`^/repos/${repo}/issues/(\\d+)/comments$`).exec(url.pathname);
    if (c && req.method === 'GET')
      return json(
        200,
        state.comments.filter((x) => x.issue === Number(c[1])),
      );
    if (c && req.method === 'POST') {
      const made = {
        id: nextId++,
        issue: Number(c[1]),
        body: (await body(req)).body ?? '',
        user: { login: 'github-actions[bot]' },
      };
      state.comments.push(made);
      return json(201, made);
    }
    const st = new RegExp(`^/repos/${repo}/statuses/([0-9a-f]{40})$`).exec(url.pathname);
    if (st && req.method === 'POST') {
      const b = (await body(req)) as { state?: string; context?: string; description?: string };
      state.statuses.push({
        sha: st[1]!,
        state: String(b.state),
        context: String(b.context),
        description: String(b.description),
      });
      return json(201, {});
    }
    const e = new RegExp(`^/repos/${repo}/issues/comments/(\\d+)$`).exec(url.pathname);
    if (e && req.method === 'PATCH') {
      const found = state.comments.find((x) => x.id === Number(e[1]));
      if (!found) return json(404, { message: 'Not Found' });
      found.body = (await body(req)).body ?? '';
      return json(200, found);
    }
    return json(404, { message: 'Not Found' });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const a = server.address();
  state.url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  state.close = () => server.close();
  return state;
}
