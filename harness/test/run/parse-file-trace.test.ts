// The file trace parser against a real trace: a Node program in a bubblewrap sandbox at
// /jsio/side making the four kinds of read the static rules do not follow (a JSON file by a
// computed path, a file found by listing a folder, a file a child process reads, a config file
// looked for and not found), and a write the read-only tree refused.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFileTrace, pathsInTree } from '../../src/run/parse-file-trace.js';
import { FIXTURES } from '../helpers/cli.js';

const SIDE = [{ inside: '/jsio/side', relative: '' }];

describe('parseFileTrace on a real trace of hidden reads', () => {
  const trace = parseFileTrace(
    readFileSync(join(FIXTURES, 'file-trace-hidden-reads.txt'), 'utf8'),
    '/jsio/side/programs/wc',
  );
  const kinds = (p: string) => [...(trace.paths.get(p) ?? [])].sort();

  it('sees the JSON file read by a computed path', () => {
    expect(kinds('/jsio/side/programs/wc/x.json')).toEqual(['open']);
  });

  it('sees the listed folder and the file found in it', () => {
    expect(kinds('/jsio/side/programs/wc/data')).toContain('list');
    expect(kinds('/jsio/side/programs/wc/data/only.txt')).toEqual(['open']);
  });

  it("resolves the child process's relative path against its own folder", () => {
    expect(kinds('/jsio/side/programs/shared/child.txt')).toEqual(['open']);
  });

  it('keeps a config file looked for and not found', () => {
    expect(kinds('/jsio/side/programs/wc/.wcrc')).toEqual(['missing']);
    expect(kinds('/jsio/side/package.json')).toEqual(['missing']);
  });

  it('names the write the read-only tree refused, and sees no io_uring', () => {
    expect(trace.refusedWrites).toEqual(['/jsio/side/programs/wc/out.txt']);
    expect(trace.blind).toBeUndefined();
  });

  it("keeps the side's paths relative to its tree, nothing outside it", () => {
    const inTree = pathsInTree(trace, SIDE);
    expect(inTree).toEqual(
      expect.arrayContaining([
        'programs/wc/x.json',
        'programs/wc/data',
        'programs/wc/data/only.txt',
        'programs/shared/child.txt',
        'programs/wc/.wcrc',
        'programs/wc/hidden.js',
      ]),
    );
    expect(inTree.some((p) => p.startsWith('/') || p.startsWith('..'))).toBe(false);
    expect(inTree).not.toContain('');
  });
});

describe('parseFileTrace on planted lines', () => {
  it('joins an interrupted call with its resumption', () => {
    const t = parseFileTrace(
      [
        '7 openat(AT_FDCWD</jsio/side>, "programs/a.json", O_RDONLY <unfinished ...>',
        '8 openat(AT_FDCWD</jsio/side>, "programs/b.json", O_RDONLY) = 3</jsio/side/programs/b.json>',
        '7 <... openat resumed>) = 4</jsio/side/programs/a.json>',
      ].join('\n'),
    );
    expect([...t.paths.keys()]).toEqual(['/jsio/side/programs/a.json', '/jsio/side/programs/b.json']);
  });

  it('resolves a relative stat after chdir, and a child inherits the folder', () => {
    const t = parseFileTrace(
      [
        '7 chdir("/jsio/side/programs") = 0',
        '7 clone(child_stack=NULL, flags=SIGCHLD) = 9',
        '9 access("wc/.wcrc", R_OK) = -1 ENOENT (No such file or directory)',
        '9 execve("../node_modules/.bin/tool", ["tool"], 0x1 /* 3 vars */) = 0',
      ].join('\n'),
      '/',
    );
    expect(t.paths.get('/jsio/side/programs/wc/.wcrc')).toEqual(new Set(['missing']));
    expect(t.paths.get('/jsio/side/node_modules/.bin/tool')).toEqual(new Set(['exec']));
  });

  it('names the refused writes of creat, of openat2 (flags in its struct) and where a symlink was to be made', () => {
    // As strace writes them for a C program in a read-only folder (each error swallowed).
    const t = parseFileTrace(
      [
        '7 creat("ro/c1.out", 0644)          = -1 EROFS (Read-only file system)',
        '7 openat2(AT_FDCWD</jsio/side/programs/x>, "ro/c2.out", {flags=O_WRONLY|O_CREAT, mode=0644, resolve=0}, 24) = -1 EROFS (Read-only file system)',
        '7 symlink("/etc/passwd", "ro/c3.link") = -1 EROFS (Read-only file system)',
        '7 symlinkat("/etc/passwd", 5</jsio/side/data>, "c4.link") = -1 EROFS (Read-only file system)',
        '7 openat2(AT_FDCWD</jsio/side/programs/x>, "ro/r.txt", {flags=O_RDONLY|O_CLOEXEC, resolve=0}, 24) = 3</jsio/side/programs/x/ro/r.txt>',
      ].join('\n'),
      '/jsio/side/programs/x',
    );
    expect(t.refusedWrites).toEqual([
      '/jsio/side/data/c4.link',
      '/jsio/side/programs/x/ro/c1.out',
      '/jsio/side/programs/x/ro/c2.out',
      '/jsio/side/programs/x/ro/c3.link',
    ]);
    expect(t.paths.has('/etc/passwd')).toBe(false);
  });

  it('undoes the C escapes of a path', () => {
    const t = parseFileTrace('7 openat(AT_FDCWD</x>, "/jsio/side/a\\"b\\x20c", O_RDONLY) = 3</y>');
    expect([...t.paths.keys()]).toEqual(['/jsio/side/a"b c']);
  });

  it('marks a trace blind when a process set up io_uring', () => {
    const t = parseFileTrace('7 io_uring_setup(256, {flags=0, sq_thread_cpu=0}) = 17<anon_inode:[io_uring]>');
    expect(t.blind).toMatch(/io_uring/);
    const failed = parseFileTrace('7 io_uring_setup(256, 0x1) = -1 EPERM (Operation not permitted)');
    expect(failed.blind).toBeUndefined();
  });

  it("leaves out the harness's folders and paths outside the tree", () => {
    const t = parseFileTrace(
      [
        '7 openat(AT_FDCWD</>, "/jsio/side/.cache/x", O_RDONLY) = 3</y>',
        '7 openat(AT_FDCWD</>, "/jsio/side/results/r.json", O_RDONLY) = 3</y>',
        '7 openat(AT_FDCWD</>, "/jsio/programs/wc/p.js", O_RDONLY) = 3</y>',
        '7 openat(AT_FDCWD</>, "/jsio/sidecar/p.js", O_RDONLY) = 3</y>',
        '7 openat(AT_FDCWD</>, "/usr/lib/libc.so.6", O_RDONLY) = 3</y>',
      ].join('\n'),
    );
    expect(pathsInTree(t, [...SIDE, { inside: '/jsio/programs', relative: 'programs' }])).toEqual(['programs/wc/p.js']);
  });
});
