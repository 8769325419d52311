/**
 * The CPU as a program sees it under Valgrind: Valgrind emulates `cpuid`, so a program counted
 * there sees Valgrind's CPU (an AMD EPYC shows as family 6 model 0x3c), not the host's, and that is
 * what decides which code paths the C library and a JIT take. A tiny C probe prints the vendor, the
 * signature (leaf 1 eax) and the feature words (leaf 1 ecx/edx, leaf 7 ebx/ecx/edx; not leaf 1 ebx,
 * which holds the APIC id of the core it ran on), run once under `valgrind --tool=none` and cached
 * per Valgrind and probe source. Undefined when gcc or Valgrind cannot run it: no count is then reused.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../lib/atomic.js';
import { runSync } from '../lib/exec.js';
import { systemTool } from '../machine/tools.js';

const PROBE_C = `#include <cpuid.h>
#include <stdio.h>
#include <string.h>
int main(void) {
  unsigned a, b, c, d, max;
  char vendor[13] = {0};
  __cpuid(0, max, b, c, d);
  memcpy(vendor, &b, 4); memcpy(vendor + 4, &d, 4); memcpy(vendor + 8, &c, 4);
  __cpuid(1, a, b, c, d);
  printf("%s %08x %08x %08x", vendor, a, c, d);
  if (max >= 7) { __cpuid_count(7, 0, a, b, c, d); printf(" %08x %08x %08x", b, c, d); }
  printf("\\n");
  return 0;
}
`;

/** A probe's line: the vendor, then 4 or 7 hex words. */
const PROBE_LINE = /^[\x21-\x7e]{1,12}( [0-9a-f]{8}){3}(( [0-9a-f]{8}){3})?$/;

/** The probe's line under `valgrind` (cached in `cacheDir`), or undefined when it cannot be had. */
export function valgrindCpu(valgrind: string, valgrindVersion: string, cacheDir: string): string | undefined {
  const dir = join(cacheDir, 'valgrind-cpu');
  const tag = createHash('sha256').update(`${valgrindVersion}\0${valgrind}\0${PROBE_C}`).digest('hex').slice(0, 16);
  const cached = join(dir, `${tag}.txt`);
  if (existsSync(cached)) {
    const line = readFileSync(cached, 'utf8').trim();
    if (PROBE_LINE.test(line)) return line;
  }
  mkdirSync(dir, { recursive: true });
  const src = join(dir, `${tag}.c`);
  const bin = join(dir, `${tag}.probe`);
  writeFileSync(src, PROBE_C);
  // The system's gcc (machine/tools.ts), never one a PATH the checkout can extend puts first.
  const gcc = systemTool('gcc');
  if (!gcc || runSync([gcc, '-O1', '-o', bin, src], { timeoutMs: 30_000 }).code !== 0) return undefined;
  const r = runSync([valgrind, '--tool=none', '-q', bin], { timeoutMs: 60_000 });
  const line = r.stdout.trim();
  if (r.code !== 0 || !PROBE_LINE.test(line)) return undefined;
  writeFileAtomic(cached, `${line}\n`);
  return line;
}
