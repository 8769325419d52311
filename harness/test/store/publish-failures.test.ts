// npm run publish-run when things go wrong: a write that fails leaves every stored file as it was
// (and no temporary files), a lock left by a dead publisher is taken over once even when several
// publishers find it at the same time, and a live lock is respected.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lockText, withLock } from '../../src/lib/atomic.js';
import { publishRun } from '../../src/store/publish-run.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { wcResults } from '../helpers/results.js';
import { indexOf } from '../helpers/store.js';

const sha = (c: string) => c.repeat(40);
/** Every path in the store with its content ('<dir>' for directories). */
function snapshot(store: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(store, { recursive: true }).map(String).sort()) {
    try {
      out[f] = readFileSync(join(store, f), 'utf8');
    } catch {
      out[f] = '<dir>';
    }
  }
  return out;
}
const commits = (store: string) => indexOf(store).commits.map((c) => c.sha[0]);

describe('a failed publish', () => {
  it('names the file, leaves the store exactly as it was, and the next publish works', async () => {
    const store = mkdtempSync(join(tmpdir(), 'jsio-pubfail-'));
    await publishRun(store, wcResults(sha('a')));
    // The run file of the next commit cannot be written: a directory is in its way.
    const blocker = join(store, 'test-machine', 'runs', sha('b'), 'smoke.json');
    mkdirSync(blocker, { recursive: true });
    const before = snapshot(store);
    await expect(publishRun(store, wcResults(sha('b')))).rejects.toThrow(`cannot write ${blocker}`);
    expect(snapshot(store)).toEqual(before); // nothing changed, no temporary or lock file left
    rmSync(blocker, { recursive: true });
    await publishRun(store, wcResults(sha('b')));
    expect(commits(store)).toEqual(['a', 'b']);
  });
});

const mounts: string[] = [];
afterAll(() => {
  for (const m of mounts) spawnSync('umount', [m]);
});

describe.skipIf(process.getuid?.() !== 0)('a publish on a full disk', () => {
  it('changes nothing: every file is staged before any is replaced', async () => {
    const store = mkdtempSync(join(tmpdir(), 'jsio-full-'));
    if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', store]).status !== 0) return;
    mounts.push(store);
    await publishRun(store, wcResults(sha('a')));
    // Fill the disk page by page, then free three pages: room for the first staged file of the
    // next publish (its run file, about 5 KB), not for all the rest.
    const fill = join(store, 'filler');
    mkdirSync(fill);
    let n = 0;
    try {
      for (;;) writeFileSync(join(fill, String(n++)), Buffer.alloc(4096));
    } catch {
      // ENOSPC: full
    }
    rmSync(join(fill, '0'));
    rmSync(join(fill, '1'));
    rmSync(join(fill, '2'));
    const before = snapshot(store);
    await expect(publishRun(store, wcResults(sha('b')))).rejects.toThrow(
      /cannot write .*: the disk is full \(ENOSPC\); nothing was overwritten/,
    );
    expect(snapshot(store)).toEqual(before);
    rmSync(fill, { recursive: true });
    await publishRun(store, wcResults(sha('b')));
    expect(commits(store)).toEqual(['a', 'b']);
  });
});

describe('the store lock', () => {
  /** The pid of a process that has exited. */
  function deadPid(): number {
    const p = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    return Number(p.stdout);
  }

  it('is taken over from a dead publisher by several racing publishers, each publishing once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsio-stale-'));
    const store = join(dir, 'store');
    mkdirSync(store);
    const files = ['a', 'b', 'c', 'd'].map((c, i) => {
      const r = wcResults(sha(c));
      r.run.commit.date = `2026-11-2${i}T00:00:00Z`;
      writeFileSync(join(dir, `${c}.json`), JSON.stringify(r));
      return join(dir, `${c}.json`);
    });
    expect(runCli(['publish-run', files[0]!, '--store', store]).status).toBe(0); // also builds the bundle
    writeFileSync(join(store, '.lock'), lockText(deadPid()));
    const racers = files.slice(1).map(
      (f) =>
        new Promise<number | null>((resolve) => {
          const p = spawn(
            process.execPath,
            [join(ROOT, 'harness', 'bootstrap.mjs'), 'publish-run', f, '--store', store],
            { cwd: ROOT, stdio: 'ignore' },
          );
          p.on('close', resolve);
        }),
    );
    expect(await Promise.all(racers)).toEqual([0, 0, 0]);
    expect(commits(store)).toEqual(['a', 'b', 'c', 'd']);
    expect(readdirSync(store).filter((f) => f.startsWith('.lock'))).toEqual([]);
  });

  it('is never removed when this tool did not write it, even left empty long ago', async () => {
    const store = mkdtempSync(join(tmpdir(), 'jsio-stale-'));
    writeFileSync(join(store, '.lock'), '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(store, '.lock'), old, old);
    await expect(publishRun(store, wcResults(sha('a')))).rejects.toThrow('was not written by jsio-bench');
    expect(readFileSync(join(store, '.lock'), 'utf8')).toBe('');
  });

  it('is respected while its holder lives', async () => {
    const store = mkdtempSync(join(tmpdir(), 'jsio-live-'));
    const text = lockText(process.pid);
    writeFileSync(join(store, '.lock'), text);
    await expect(withLock(join(store, '.lock'), () => 'ran', 300)).rejects.toThrow(
      `store is locked by process ${process.pid}`,
    );
    expect(readFileSync(join(store, '.lock'), 'utf8')).toBe(text);
  });
});
