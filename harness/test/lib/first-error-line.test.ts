// A failure's reason leads with the error's own line, not the tail of its stack trace: real
// stderr of a Node program that throws on its first chunk and of gcc refusing a source.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { failureDetail, firstErrorLine, reasonHeadline } from '../../src/lib/first-error-line.js';
import { tail } from '../../src/run/common.js';

describe('the first meaningful line of a failure', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jsio-first-error-'));

  it("a Node program's ReferenceError, which the stack trace's tail hides", () => {
    const js = join(dir, 'count.js');
    writeFileSync(js, 'let n = 0;\nprocess.stdin.on("data", (c) => { n += c.length + undefinedCounter; });\n');
    const r = spawnSync(process.execPath, [js], { input: 'some bytes', encoding: 'utf8' });
    expect(r.status).toBe(1);
    // The tail alone (what reasons said before) has the frames and the version, not the error.
    expect(tail(r.stderr)).not.toContain('ReferenceError');
    expect(firstErrorLine(r.stderr)).toBe('ReferenceError: undefinedCounter is not defined');
    const detail = failureDetail(r.stderr, tail);
    expect(detail).toMatch(/^ReferenceError: undefinedCounter is not defined \(last lines: .*Node\.js v/);
    // And back out of a reason that embeds it.
    expect(reasonHeadline(`at scale 0.125: exited with status 1: ${detail}`)).toBe(
      'ReferenceError: undefinedCounter is not defined',
    );
  });

  it("gcc's error line, with where it is", () => {
    const c = join(dir, 'bad.c');
    writeFileSync(c, 'int main(void) { return x; }\n');
    const r = spawnSync('gcc', ['-c', c, '-o', join(dir, 'bad.o')], { encoding: 'utf8' });
    expect(r.status).not.toBe(0);
    expect(firstErrorLine(r.stderr)).toMatch(/bad\.c:1:\d+: error: .x. undeclared/);
  });

  it('a failed validation is its own headline; a reason with no error line keeps its first line', () => {
    expect(reasonHeadline('wrong result: bytes = 0, expected 4194304; reads = 0')).toBe(
      'wrong result: bytes = 0, expected 4194304; reads = 0',
    );
    expect(reasonHeadline('just(js) is not installed: npm run install-just')).toBe(
      'just(js) is not installed: npm run install-just',
    );
    expect(firstErrorLine('    at Socket.emit (node:events:524:28) | Node.js v20.20.2')).toBeUndefined();
  });
});
