// The completed hook killed the pull-request account's processes and removed its temporary files
// but left its crontab, at jobs and systemd user units: where cron runs, an approved malicious PR
// could schedule work that runs during later trusted jobs. The hook now removes them too. Run as
// root (CI is), with a throwaway account; `crontab`, `atq`/`atrm` and `systemctl` are stand-ins
// that record what they are asked, so the test does not depend on cron or at being installed.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const canRun =
  process.getuid?.() === 0 && spawnSync('useradd', ['--help']).status === 0 && existsSync('/usr/sbin/runuser');
if (!canRun) console.warn('runner-schedules.test.ts: skipped: needs root, useradd and runuser');

const P = `jsios${`${process.pid}`.slice(-5)}`;
// From /, not the checkout, which the throwaway account may not enter (a clone in mktemp -d).
const sh = (cmd: string[]) => {
  const r = spawnSync(cmd[0]!, cmd.slice(1), { cwd: '/', encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
};

describe.skipIf(!canRun)('runner-job-completed.sh and scheduled work', () => {
  const root = mkdtempSync('/tmp/jsio-schedules-');
  const home = join(root, 'home');
  const bin = join(root, 'bin');
  const log = join(root, 'calls.log');
  const hookCopy = join(root, 'runner-job-completed.sh');

  beforeAll(() => {
    chmodSync(root, 0o755);
    sh(['userdel', P]);
    const r = sh(['useradd', '--system', '--home-dir', home, '--create-home', '--shell', '/bin/bash', P]);
    expect(r.status, r.out).toBe(0);
    mkdirSync(bin);
    const fake = (name: string, body: string) => {
      writeFileSync(join(bin, name), `#!/bin/sh\necho "${name} $*" >> ${log}\n${body}\n`);
      chmodSync(join(bin, name), 0o755);
    };
    fake('crontab', 'exit 0');
    fake('atq', 'printf "7\\tWed Nov 25 13:00:00 2026 a x\\n9\\tWed Nov 25 14:00:00 2026 a x\\n"');
    fake('atrm', 'exit 0');
    fake('systemctl', 'exit 0');
    writeFileSync(log, '');
    chmodSync(log, 0o666);
    // The hook as a runner installs it (setup-runner.sh copies it out of the checkout): the account
    // runs it from a directory it can read, wherever this clone is.
    copyFileSync(join(ROOT, 'harness', 'tools', 'runner-job-completed.sh'), hookCopy);
    chmodSync(hookCopy, 0o755);
    writeFileSync(join(root, 'pr.conf'), `account=${P}\ntmpdirs=${join(root, 'tmp')}\n`);
    chmodSync(join(root, 'pr.conf'), 0o644);
  });

  afterAll(() => {
    sh(['userdel', P]);
    rmSync(root, { recursive: true, force: true });
  });

  it("removes the account's crontab, at jobs and systemd user units", () => {
    const units = join(home, '.config', 'systemd', 'user');
    const planted = sh([
      'runuser',
      '-u',
      P,
      '--',
      'bash',
      '-c',
      `mkdir -p ${units}/timers.target.wants && echo '[Timer]' > ${units}/evil.timer && ln -s ../evil.timer ${units}/timers.target.wants/evil.timer`,
    ]);
    expect(planted.status, planted.out).toBe(0);
    const r = sh([
      'runuser',
      '-u',
      P,
      '--',
      'env',
      '-i',
      `PATH=${bin}:${process.env.PATH}`,
      `HOME=${home}`,
      `JSIO_RUNNER_CONF=${join(root, 'pr.conf')}`,
      'bash',
      hookCopy,
    ]);
    expect(r.status, r.out).toBe(0);
    expect(r.out).toContain(`crontab, at jobs and systemd user units of ${P} removed`);
    const calls = readFileSync(log, 'utf8').split('\n');
    expect(calls).toContain('crontab -r');
    expect(calls).toContain('atrm 7');
    expect(calls).toContain('atrm 9');
    expect(existsSync(join(units, 'evil.timer'))).toBe(false);
    expect(existsSync(join(units, 'timers.target.wants'))).toBe(false);
  });
});
