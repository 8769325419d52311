/**
 * A planted slowdown for calibration and tests: a copy of a checkout whose wc C variant spins
 * for a fixed time after every read(), so a paired diff against the original must call it
 * "slower". The busy-wait burns CPU like real extra work (a sleep would yield the core).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const READ_LINE = /^(\s*)ssize_t n = read\(STDIN_FILENO, buf, \(size_t\)bs\);$/m;

/** wc-c.c's source with `ns` nanoseconds of busy-waiting after every read(). */
export function plantedWc(source: string, ns: number): string {
  if (!READ_LINE.test(source)) throw new Error('wc-c.c: the read() line to plant a slowdown after was not found');
  const spin = (indent: string) =>
    `${indent}{ /* planted slowdown (calibration) */ struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a);\n` +
    `${indent}  do clock_gettime(CLOCK_MONOTONIC, &b); while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < ${Math.round(ns)}L); }`;
  return `#include <time.h>\n${source.replace(READ_LINE, (line, indent: string) => `${line}\n${spin(indent)}`)}`;
}

/** Plants the slowdown into `<checkout>/programs/wc/wc-c.c`. */
export function plantWcSlowdown(checkout: string, ns: number): void {
  const file = join(checkout, 'programs', 'wc', 'wc-c.c');
  writeFileSync(file, plantedWc(readFileSync(file, 'utf8'), ns));
}
