// withLock removed a lock it did not create when its text was not a live pid and it was older
// than 10 s. A lock is now taken over only when this tool wrote it (its marker, a pid and a
// token) and that process is gone; any other text is never removed, and is named in one line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockText, withLock } from '../../src/lib/atomic.js';

const deadPid = () =>
  Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
const old = (file: string) => {
  const t = new Date(Date.now() - 60_000);
  utimesSync(file, t, t);
};

describe('withLock', () => {
  it.each([
    ['', 'empty'],
    ['someone else’s notes', 'free text'],
    [String(deadPid()), 'a bare pid'],
  ])('never removes an old lock holding %j (%s), and says so in one line', async (text) => {
    const lock = join(mkdtempSync(join(tmpdir(), 'jsio-lock-')), '.lock');
    writeFileSync(lock, text);
    old(lock);
    await expect(withLock(lock, () => 'ran', 300)).rejects.toThrow(
      `${lock} was not written by jsio-bench: refusing to remove it`,
    );
    expect(readFileSync(lock, 'utf8')).toBe(text);
  });

  it('takes over its own lock once its process is gone', async () => {
    const lock = join(mkdtempSync(join(tmpdir(), 'jsio-lock-')), '.lock');
    writeFileSync(lock, lockText(deadPid()));
    expect(await withLock(lock, () => 'ran', 300)).toBe('ran');
    expect(existsSync(lock)).toBe(false);
  });

  it('waits for its own lock while its process lives', async () => {
    const lock = join(mkdtempSync(join(tmpdir(), 'jsio-lock-')), '.lock');
    const text = lockText(process.pid);
    writeFileSync(lock, text);
    await expect(withLock(lock, () => 'ran', 300)).rejects.toThrow(`locked by process ${process.pid}`);
    expect(readFileSync(lock, 'utf8')).toBe(text);
  });

  it('is never seen empty: its content is complete when it appears', async () => {
    const lock = join(mkdtempSync(join(tmpdir(), 'jsio-lock-')), '.lock');
    const seen = await withLock(lock, () => readFileSync(lock, 'utf8'));
    expect(seen).toMatch(new RegExp(`^jsio-bench lock pid=${process.pid} token=[0-9a-f]{16}\\n$`));
  });
});
