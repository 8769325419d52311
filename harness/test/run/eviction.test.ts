// Cold-cache eviction: the real evict tool drops a real file's pages (checked independently
// with fincore when present), and a point whose eviction cannot be verified is skipped with
// the reason by both runners, never measured as "cold".
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadExperiment } from '../../src/plan/experiments.js';
import { expand } from '../../src/plan/plan.js';
import { residentPages } from '../../src/run/common.js';
import { hyperfineRunner } from '../../src/run/hyperfine-runner.js';
import { selfRunner } from '../../src/run/self-runner.js';
import { ROOT } from '../helpers/cli.js';
import { jobOf } from '../helpers/jobs.js';

// On the repository's disk, not a tmpfs: tmpfs pages cannot be evicted.
mkdirSync(join(ROOT, '.cache'), { recursive: true });
const work = mkdtempSync(join(ROOT, '.cache', 'test-evict-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const fincoreResident = (file: string): number | undefined => {
  const r = spawnSync('fincore', ['--bytes', '--noheadings', '--output', 'PAGES', file], { encoding: 'utf8' });
  return r.status === 0 ? Number(r.stdout.trim()) : undefined;
};

describe('eviction', () => {
  it('evicts a real file and verifies it with mincore', () => {
    const bin = join(work, 'evict');
    const cc = spawnSync('gcc', ['-O2', '-o', bin, join(ROOT, 'harness', 'tools', 'evict.c')], { encoding: 'utf8' });
    expect(cc.status, cc.stderr).toBe(0);
    const file = join(work, 'data.bin');
    writeFileSync(file, Buffer.alloc(1 << 20, 7));
    readFileSync(file); // make it resident
    const before = fincoreResident(file);
    if (before !== undefined) expect(before).toBeGreaterThan(0);
    const r = spawnSync(bin, [file], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { files: number; pages: number; resident: number };
    expect(report.files).toBe(1);
    expect(report.pages).toBeGreaterThanOrEqual(256);
    expect(report.resident).toBe(0);
    const after = fincoreResident(file);
    if (after !== undefined) expect(after).toBe(0);
  });

  it('retries while pages stay resident, then says how many stayed and after how many attempts', async () => {
    // A process that mlocks the file's pages keeps them resident whatever the evictor does.
    const bin = join(work, 'evict');
    const locker = join(work, 'locker');
    writeFileSync(
      `${locker}.c`,
      `#include <fcntl.h>\n#include <stdio.h>\n#include <sys/mman.h>\n#include <unistd.h>\n
int main(int c, char **v) { int fd = open(v[1], O_RDONLY); void *m = mmap(0, 65536, PROT_READ, MAP_SHARED, fd, 0);
if (m == MAP_FAILED || mlock(m, 65536)) { perror("lock"); return 1; } puts("locked"); fflush(stdout); pause(); }`,
    );
    const cc = spawnSync('gcc', ['-O2', '-o', bin, join(ROOT, 'harness', 'tools', 'evict.c')], { encoding: 'utf8' });
    expect(cc.status, cc.stderr).toBe(0);
    expect(spawnSync('gcc', ['-o', locker, `${locker}.c`], { encoding: 'utf8' }).status).toBe(0);
    const file = join(work, 'locked.bin');
    writeFileSync(file, Buffer.alloc(1 << 20, 3));
    const holder = spawn(locker, [file], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout.once('data', () => resolve());
        holder.once('exit', (code) => reject(new Error(`locker exited ${code}`)));
      });
      const r = spawnSync(bin, [file], { encoding: 'utf8' });
      expect(r.status, r.stdout + r.stderr).toBe(3);
      const report = JSON.parse(r.stdout) as { pages: number; resident: number; attempts: number };
      expect(report.attempts).toBe(5);
      expect(report.resident).toBeGreaterThanOrEqual(16); // the 64 KiB locked
      // (The kernel may keep the whole large folio holding the locked pages: up to all of them.)
      expect(report.resident).toBeLessThanOrEqual(report.pages);
      expect(residentPages(r.stdout)).toBe(
        `${report.resident} of ${report.pages} pages stayed resident after 5 attempts`,
      );
    } finally {
      holder.kill();
    }
  });

  it('skips cold points when eviction cannot be verified (an evictor that leaves pages resident)', async () => {
    const fake = join(work, 'fake-evict');
    writeFileSync(fake, '#!/bin/sh\necho \'{"files":1,"pages":4,"resident":4}\'\nexit 3\n');
    chmodSync(fake, 0o755);
    const exp = loadExperiment(join(ROOT, 'programs', 'threadpool'));
    const [point] = expand([exp], 'smoke', {
      variants: ['c-pool'],
      params: { cache: ['cold'], work: ['read'], pool: [1] },
    });
    if (!point) throw new Error('no point planned');
    const job = jobOf(point, { evictTool: fake, input: { ok: true, dir: work, facts: { file_bytes: 1, jobs: 1 } } });
    expect(job.evict).toMatch(/fake-evict/);
    for (const runner of [selfRunner, hyperfineRunner]) {
      const m = await runner.measure(job, {});
      expect(m.status).toBe('skipped');
      expect(m.reason).toMatch(/eviction could not be verified \(4 of 4 pages stayed resident\)/);
      expect(m.measuredSeconds).toBe(0); // the program never ran
    }
  });
});
