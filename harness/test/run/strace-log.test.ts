// strace's one-file log of a process tree read as whole calls (pure, fixtures as strace 6.1 prints them).
import { describe, expect, it } from 'vitest';
import { pidNumber, readStraceLog, returned, splitArgs } from '../../src/run/strace-log.js';

describe('readStraceLog', () => {
  it('joins a call another process interrupted with its resumption, in the order calls finished', () => {
    const log = [
      '100   execve("/usr/bin/dd", ["dd", "bs=4096"], ["A=1"] <unfinished ...>',
      '101   chdir("/tmp")                     = 0',
      '100   <... execve resumed>)             = 0',
      '100   --- SIGCHLD {si_signo=SIGCHLD} ---',
      '101   execve("/nope", ["x"], []) = -1 ENOENT (No such file or directory)',
      '',
    ].join('\n');
    const calls = readStraceLog(log);
    expect(calls.map((c) => [c.pid, c.name, c.result])).toEqual([
      [101, 'chdir', '0'],
      [100, 'execve', '0'],
      [101, 'execve', '-1 ENOENT (No such file or directory)'],
    ]);
    expect(calls[1]!.args).toBe('"/usr/bin/dd", ["dd", "bs=4096"], ["A=1"]');
    expect(returned(calls[1]!)).toBe(0);
    expect(returned(calls[2]!)).toBeUndefined();
  });

  it('drops a resumption whose start it never saw', () => {
    expect(readStraceLog('7 <... execve resumed>) = 0\n')).toEqual([]);
  });
});

describe('splitArgs', () => {
  it('reads C strings with their escapes, arrays of strings and other values as printed', () => {
    expect(splitArgs('"a\\"b\\n\\t\\\\", ["x y", "\\x41\\102"], {rlim_cur=8192*1024, rlim_max=1}, NULL')).toEqual([
      'a"b\n\t\\',
      ['x y', 'AB'],
      '{rlim_cur=8192*1024, rlim_max=1}',
      'NULL',
    ]);
  });

  it('reads an empty array, and a path strace annotated with -y', () => {
    expect(splitArgs('[], 4</newroot>')).toEqual([[], '4</newroot>']);
  });
});

describe('pidNumber', () => {
  it("takes the pid strace translated from a sandbox's PID namespace", () => {
    expect(pidNumber("2 /* 4328 in strace's PID NS */")).toBe(4328);
    expect(pidNumber('4329')).toBe(4329);
    expect(pidNumber('NULL')).toBeUndefined();
  });
});

describe('splitArgs on a CPU set', () => {
  it('keeps an array of numbers as printed', () => {
    expect(splitArgs('0, 32, [0 1]')).toEqual(['0', '32', '[0 1]']);
  });
});
