// What a process tree started, and how, from strace's calls (pure).
import { describe, expect, it } from 'vitest';
import {
  descriptor,
  namedPids,
  processRuns,
  startsAndWindow,
} from '../../../src/pairs/harness-shift/transcript-starts.js';
import { readStraceLog } from '../../../src/run/strace-log.js';

/** The harness's cache in these logs (the default root: JSIO_CACHE may put it anywhere). */
const CACHE = '/root/.cache/jsio-bench';
const runs = (log: string[], cache = CACHE) => processRuns(readStraceLog(log.join('\n')), '/work/side', cache);

describe('descriptor', () => {
  it('names a file by its path and a pipe or socket by its kind (their inode numbers vary)', () => {
    expect(descriptor('3</etc/hostname>')).toBe('/etc/hostname');
    expect(descriptor('4<pipe:[20426369]>')).toBe('pipe');
    expect(descriptor('5<socket:[77]>')).toBe('socket');
    expect(descriptor('6<anon_inode:[eventfd]>')).toBe('anon_inode');
    expect(descriptor('3')).toBeUndefined();
  });
});

describe('processRuns', () => {
  it('gives each start the standard streams wired before it, inherited across forks (as strace -y prints dup2)', () => {
    const r = runs([
      '10 execve("/bin/bash", ["bash"], []) = 0',
      '10 clone(child_stack=NULL, flags=SIGCHLD) = 11',
      '10 clone(child_stack=NULL, flags=SIGCHLD) = 12',
      '11 dup2(4<pipe:[20426369]>, 1</tmp/x/stdout>) = 1<pipe:[20426369]>',
      '11 dup2(3</work/side/in.bin>, 0</dev/null>) = 0</work/side/in.bin>',
      '11 execve("/bin/echo", ["echo"], []) = 0',
      '12 dup3(3<pipe:[20426369]>, 0</dev/null>, 0) = 0<pipe:[20426369]>',
      '12 dup2(3</dev/null>, 1</tmp/x/stdout>) = 1</dev/null>',
      '12 dup2(3</dev/null>, 7</tmp/y>) = 7</dev/null>',
      '12 clone(child_stack=NULL, flags=SIGCHLD) = 13',
      '13 execve("/bin/cat", ["cat"], []) = 0',
    ]);
    expect(r.map((x) => [x.exe, x.stdio])).toEqual([
      ['/bin/bash', undefined],
      ['/bin/echo', ['/work/side/in.bin', 'pipe', 'inherited']],
      ['/bin/cat', ['pipe', '/dev/null', 'inherited']],
    ]);
  });

  it("lists a sandbox's other inherited descriptors as the player shows them (dup2 onto itself after its execve)", () => {
    const r = runs([
      '10 execve("/bin/node", ["node"], []) = 0',
      '10 clone(child_stack=NULL, flags=SIGCHLD) = 11',
      // The spawner's own wiring before the execve is not the player's.
      '11 dup2(5<pipe:[9]>, 5<pipe:[9]>) = 5<pipe:[9]>',
      '11 execve("/usr/bin/bwrap", ["bwrap", "--", "wc"], []) = 0',
      '11 dup2(4</work/side/in.bin>, 4</work/side/in.bin>) = 4</work/side/in.bin>',
      '11 dup2(3<pipe:[20426369]>, 3<pipe:[20426369]>) = 3<pipe:[20426369]>',
      '11 execve("/jsio/real/bwrap", ["bwrap", "--", "wc"], []) = 0',
      '10 clone(child_stack=NULL, flags=SIGCHLD) = 12',
      '12 execve("/bin/cat", ["cat"], []) = 0',
      // Only the sandbox player's starts are shown so.
      '12 dup2(3<pipe:[7]>, 3<pipe:[7]>) = 3<pipe:[7]>',
    ]);
    expect(r.map((x) => [x.exe, x.fds])).toEqual([
      ['/bin/node', undefined],
      ['/usr/bin/bwrap', ['3 pipe', '4 /work/side/in.bin']],
      ['/jsio/real/bwrap', undefined],
      ['/bin/cat', undefined],
    ]);
  });

  it("lists what a sandbox's command names, by content, as the player marks it (a statfs that fails)", () => {
    const r = runs([
      '10 execve("/usr/bin/bwrap", ["bwrap", "--", "wc"], []) = 0',
      '10 statfs("/jsio-reads/5891b5b522d5df086d0ff0b110fbd9d2 /jsio/inputs/a.bin", 0x7ffc) = -1 ENOENT (No such file or directory)',
      '10 statfs("/jsio-reads/folder /jsio/side", 0x7ffc) = -1 ENOENT (No such file or directory)',
      // Not a mark: bwrap's own look for SELinux.
      '10 statfs("/sys/fs/selinux", 0x7ffc) = -1 ENOENT (No such file or directory)',
      '10 clone(child_stack=NULL, flags=SIGCHLD) = 11',
      '11 execve("/bin/sh", ["sh"], []) = 0',
      // A mark from anything but the player is not one.
      '11 statfs("/jsio-reads/missing /jsio/inputs/b.bin", 0x7ffc) = -1 ENOENT (No such file or directory)',
    ]);
    expect(r.map((x) => [x.exe, x.reads])).toEqual([
      ['/usr/bin/bwrap', ['/jsio/inputs/a.bin 5891b5b522d5df086d0ff0b110fbd9d2', '/jsio/side folder']],
      ['/bin/sh', undefined],
    ]);
  });

  it("gives the window in which the points' processes ran, from a log with times (strace -ttt); a build's sandbox is none", () => {
    const calls = readStraceLog(
      [
        '10 100.000001 execve("/usr/bin/node", ["node"], []) = 0',
        '10 101.000000 clone(child_stack=NULL, flags=SIGCHLD) = 11',
        '11 101.500000 execve("/usr/bin/bwrap", ["bwrap", "--bind", "/b", "/jsio/build/wc/c", "--", "gcc"], []) = 0',
        '11 102.000000 +++ exited with 0 +++',
        '10 103.000000 clone(child_stack=NULL, flags=SIGCHLD) = 12',
        '12 103.250000 execve("/usr/bin/bwrap", ["bwrap", "--", "wc"], ["JSIO_POINT=wc/c/bs=4096"]) = 0',
        '12 103.500000 clone(child_stack=NULL, flags=SIGCHLD) = 13',
        '13 104.000000 execve("/bin/wc", ["wc"], []) = 0',
        '13 106.750000 +++ exited with 0 +++',
        '12 107.000000 +++ exited with 0 +++',
        '10 110.000000 execve("/usr/bin/git", ["git"], []) = 0',
      ].join('\n'),
    );
    expect(startsAndWindow(calls, '/', CACHE).window).toEqual({ start: 103.25, end: 107 });
    expect(startsAndWindow(readStraceLog('10 execve("/bin/wc", ["wc"], []) = 0'), '/', CACHE).window).toBeUndefined();
  });

  it('gives each start the directory, CPUs and limits its process had, inherited across forks', () => {
    const r = runs([
      '10 execve("/usr/bin/node", ["node", "cli.mjs"], ["A=1"]) = 0',
      '10 clone(child_stack=NULL, flags=SIGCHLD) = 11',
      '11 chdir("programs/wc") = 0',
      '11 sched_setaffinity(0, 32, [1]) = 0',
      '11 prlimit64(0, RLIMIT_CPU, {rlim_cur=120, rlim_max=120}, NULL) = 0',
      '11 prlimit64(0, RLIMIT_STACK, NULL, {rlim_cur=8192*1024, rlim_max=RLIM64_INFINITY}) = 0',
      '11 execve("/usr/bin/taskset", ["taskset", "-c", "1", "dd"], ["B=2"]) = 0',
      '11 clone3({flags=CLONE_VM|CLONE_VFORK}, 88) = 12',
      '12 execve("/usr/bin/dd", ["dd"], ["B=2"]) = 0',
    ]);
    expect(r.map((x) => [x.exe, x.cwd, x.affinity, x.limits, x.parent])).toEqual([
      ['/usr/bin/node', '/work/side', undefined, {}, undefined],
      ['/usr/bin/taskset', '/work/side/programs/wc', '[1]', { RLIMIT_CPU: '{rlim_cur=120, rlim_max=120}' }, 10],
      ['/usr/bin/dd', '/work/side/programs/wc', '[1]', { RLIMIT_CPU: '{rlim_cur=120, rlim_max=120}' }, 11],
    ]);
  });

  it('a child seen before its fork returned still inherits from its parent', () => {
    const r = runs([
      '10 chdir("/jsio/side") = 0',
      '10 sched_setaffinity(0, 32, [0]) = 0',
      '11 execve("/bin/true", ["true"], []) = 0',
      "10 clone(child_stack=NULL, flags=SIGCHLD) = 3 /* 11 in strace's PID NS */",
    ]);
    expect(r).toEqual([expect.objectContaining({ exe: '/bin/true', cwd: '/jsio/side', affinity: '[0]', parent: 10 })]);
  });

  it('keeps only starts that succeeded, and names a pid a process gives of itself or an ancestor where a pid is taken', () => {
    const r = runs([
      '10 execve("/usr/local/bin/taskset", ["taskset"], []) = -1 ENOENT (No such file or directory)',
      '10 clone(child_stack=NULL, flags=SIGCHLD) = 11',
      '11 execve("/usr/bin/taskset", ["taskset", "-a", "-p", "-c", "0", "10"], []) = 0',
      '11 execve("/usr/bin/prlimit", ["prlimit", "--pid=10", "--nofile=64"], []) = 0',
      // A size that happens to equal an ancestor's id (pids wrap at 32,768): what was passed.
      '11 execve("/usr/bin/head", ["head", "-c", "11", "12"], []) = 0',
    ]);
    expect(r.map((x) => x.argv)).toEqual([
      ['taskset', '-a', '-p', '-c', '0', '<pid>'],
      ['prlimit', '--pid=<pid>', '--nofile=64'],
      ['head', '-c', '11', '12'],
    ]);
    expect(namedPids(['wc-readsync.js', '16384'], new Set(['16384']))).toEqual(['wc-readsync.js', '16384']);
    expect(namedPids(['kill', '-p', '16384', '0'], new Set(['16384']))).toEqual(['kill', '-p', '<pid>', '0']);
  });

  it('a child seen before its fork returned, pinning its parent: the same start as when seen after', () => {
    // The harness pins itself with `taskset -a -p -c 0 <its pid>`; whether strace shows the clone's
    // return first is a race, which must not decide the transcript.
    const late = runs([
      '10 execve("/usr/bin/node", ["node", "cli.mjs"], []) = 0',
      '11 execve("/usr/bin/taskset", ["taskset", "-a", "-p", "-c", "0", "10"], []) = 0',
      '11 sched_setaffinity(10, 32, [0]) = 0',
      '10 clone(child_stack=NULL, flags=SIGCHLD) = 11',
    ]);
    const early = runs([
      '10 execve("/usr/bin/node", ["node", "cli.mjs"], []) = 0',
      '10 clone(child_stack=NULL, flags=SIGCHLD) = 11',
      '11 execve("/usr/bin/taskset", ["taskset", "-a", "-p", "-c", "0", "10"], []) = 0',
      '11 sched_setaffinity(10, 32, [0]) = 0',
    ]);
    expect(late).toEqual(early);
    expect(late[1]!.argv).toEqual(['taskset', '-a', '-p', '-c', '0', '<pid>']);
    expect(late[1]!.affinity).toBeUndefined();
  });

  it('a task id used again after its task ended starts with nothing of the task before', () => {
    // Ids wrap at pid_max (32,768 here), well within one recording of a quick bench.
    const r = runs([
      '10 execve("/usr/bin/node", ["node", "cli.mjs"], []) = 0',
      '10 clone(child_stack=NULL, flags=SIGCHLD) = 11',
      '11 chdir("/jsio/side/programs/scan") = 0',
      '11 sched_setaffinity(0, 32, [0]) = 0',
      '11 execve("/usr/bin/true", ["true"], []) = 0',
      '11 +++ exited with 0 +++',
      // 11 again, seen before the fork that made it returned (a vfork: the parent waits for the exec).
      '10 clone3({flags=CLONE_VM|CLONE_VFORK|CLONE_CLEAR_SIGHAND, exit_signal=SIGCHLD, stack=0x7f, stack_size=0x9000}, 88 <unfinished ...>',
      '11 execve("/usr/bin/bwrap", ["bwrap"], []) = 0',
      '10 <... clone3 resumed>) = 11',
    ]);
    expect(r.map((x) => [x.exe, x.cwd, x.affinity, x.parent])).toEqual([
      ['/usr/bin/node', '/work/side', undefined, undefined],
      ['/usr/bin/true', '/jsio/side/programs/scan', '[0]', 10],
      ['/usr/bin/bwrap', '/work/side', undefined, 10],
    ]);
  });

  it('a task that ended before its fork returned leaves no state behind for the next task of its id', () => {
    const r = runs([
      '10 execve("/usr/bin/node", ["node", "cli.mjs"], []) = 0',
      '11 chdir("/tmp") = 0',
      '11 execve("/bin/true", ["true"], []) = 0',
      '11 +++ exited with 0 +++',
      '10 clone(child_stack=NULL, flags=SIGCHLD) = 11',
      '12 execve("/bin/false", ["false"], []) = 0',
      '10 clone(child_stack=NULL, flags=SIGCHLD) = 12',
    ]);
    expect(r.map((x) => [x.exe, x.cwd, x.parent])).toEqual([
      ['/usr/bin/node', '/work/side', undefined],
      ['/bin/true', '/tmp', 10],
      ['/bin/false', '/work/side', 10],
    ]);
  });

  it('threads made with CLONE_FS share one directory; CPUs stay each thread’s own', () => {
    const r = runs([
      '10 execve("/usr/bin/node", ["node", "cli.mjs"], []) = 0',
      '10 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM, stack=0x7f}, 88) = 20',
      '20 sched_setaffinity(0, 32, [1]) = 0',
      '10 chdir("/elsewhere") = 0',
      '20 clone(child_stack=NULL, flags=SIGCHLD) = 21',
      '21 execve("/bin/true", ["true"], []) = 0',
      '10 clone(child_stack=NULL, flags=SIGCHLD) = 22',
      '22 execve("/bin/false", ["false"], []) = 0',
    ]);
    expect(r.slice(1).map((x) => [x.exe, x.cwd, x.affinity])).toEqual([
      ['/bin/true', '/elsewhere', '[1]'],
      ['/bin/false', '/elsewhere', undefined],
    ]);
  });

  it("each start names the point whose sandbox it ran in: the harness's label, or a build's folder", () => {
    const r = runs([
      '10 execve("/usr/bin/node", ["node", "cli.mjs"], []) = 0',
      '10 clone(child_stack=NULL, flags=SIGCHLD) = 11',
      '11 execve("/usr/bin/bwrap", ["bwrap", "--clearenv", "--", "hyperfine"], ["JSIO_POINT=wc/c/bs=256"]) = 0',
      '11 clone(child_stack=NULL, flags=SIGCHLD) = 12',
      '12 execve("/usr/bin/hyperfine", ["hyperfine", "wc"], ["PATH=/usr/bin"]) = 0',
      '10 clone(child_stack=NULL, flags=SIGCHLD) = 13',
      '13 execve("/usr/bin/bwrap", ["bwrap", "--bind", "/c/build/wc/c", "/jsio/build/wc/c", "--", "gcc"], []) = 0',
      '13 execve("/usr/bin/gcc", ["gcc"], []) = 0',
      '10 clone(child_stack=NULL, flags=SIGCHLD) = 14',
      '14 execve("/usr/bin/git", ["git"], []) = 0',
    ]);
    expect(r.map((x) => [x.exe, x.point])).toEqual([
      ['/usr/bin/node', undefined],
      ['/usr/bin/bwrap', 'wc/c/bs=256'],
      ['/usr/bin/hyperfine', 'wc/c/bs=256'],
      ['/usr/bin/bwrap', 'wc/c/'],
      ['/usr/bin/gcc', 'wc/c/'],
      ['/usr/bin/git', undefined],
    ]);
  });

  it('a start filling a shared cache entry, and what it starts, is marked: either side may be first', () => {
    const r = runs([
      '10 execve("/usr/bin/node", ["node", "cli.mjs"], []) = 0',
      '10 clone(child_stack=NULL, flags=SIGCHLD) = 11',
      '11 execve("/usr/bin/bwrap", ["bwrap", "--bind", "/c/inputs/wc/ab12.tmp-77", "/jsio/inputs/wc/ab12.tmp-77"], []) = 0',
      '11 execve("/usr/bin/node", ["node", "generate.mjs", "--out", "/jsio/inputs/wc/ab12.tmp-77"], []) = 0',
      '10 clone(child_stack=NULL, flags=SIGCHLD) = 12',
      '12 execve("/usr/bin/gcc", ["gcc", "-o", "/root/.cache/jsio-bench/tools/cold-read-1f", "x.c"], []) = 0',
      '12 clone(child_stack=NULL, flags=SIGCHLD) = 13',
      '13 execve("/usr/bin/as", ["as", "-o", "/tmp/ccAbCdEf.o"], []) = 0',
      '10 clone(child_stack=NULL, flags=SIGCHLD) = 14',
      '14 execve("/usr/bin/bwrap", ["bwrap", "--ro-bind", "/root/.cache/jsio-bench/tools", "/jsio/tools"], ["JSIO_POINT=wc/c/bs=1"]) = 0',
    ]);
    expect(r.map((x) => [x.exe, x.fill])).toEqual([
      ['/usr/bin/node', undefined],
      ['/usr/bin/bwrap', true],
      ['/usr/bin/node', true],
      ['/usr/bin/gcc', true],
      ['/usr/bin/as', true],
      // A point's sandbox that uses the tools fills nothing.
      ['/usr/bin/bwrap', undefined],
    ]);
  });

  it('a tool or probe is a fill wherever JSIO_CACHE puts the cache, and only there', () => {
    const log = [
      '10 execve("/usr/bin/node", ["node", "cli.mjs"], []) = 0',
      '10 clone(child_stack=NULL, flags=SIGCHLD) = 12',
      '12 execve("/usr/bin/gcc", ["gcc", "-O2", "-o", "/tmp/run-1/cache/tools/evict-1f.12.part", "evict.c"], []) = 0',
      '12 clone(child_stack=NULL, flags=SIGCHLD) = 13',
      '13 execve("/usr/bin/ld", ["ld", "-o", "/tmp/run-1/cache/tools/evict-1f.12.part"], []) = 0',
      '10 clone(child_stack=NULL, flags=SIGCHLD) = 14',
      '14 execve("/usr/bin/gcc", ["gcc", "-O1", "-o", "/tmp/run-1/cache/valgrind-cpu/probe", "p.c"], []) = 0',
    ];
    // The tests' cache (a folder of their own, not named jsio-bench): a side that found the tools built
    // by the other one must not show "gcc: started only by the base".
    expect(runs(log, '/tmp/run-1/cache').map((x) => x.fill)).toEqual([undefined, true, true, true]);
    // The same writes under another cache are a program of the harness's own, compared.
    expect(runs(log).map((x) => x.fill)).toEqual([undefined, undefined, undefined, undefined]);
  });
});
