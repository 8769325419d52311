/**
 * The sandbox a recording shows the harness (harness/tools/sandbox-replay.c): bound over
 * /usr/bin/bwrap inside the recording, it runs each sandbox the first time and plays it back when
 * the same sandbox starts again with nothing it could see changed. Every start is still recorded
 * at its execve, so a harness that repeats a run a different number of times, or runs it
 * differently, still differs; only the repeats' own insides (their program's starts, identical to
 * the first's) are not run again. The self-timed runners' repeats, their evictions and untimed
 * passes were most of a recording's wall time, and the quick profile repeats each of them 3-9 times.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../lib/errors.js';
import { runProcess } from '../../lib/exec.js';

/** Root-owned places only, as the recorder's others (transcript-record.ts). */
const GCC = '/usr/bin/gcc';
const BWRAP = '/usr/bin/bwrap';

/** `s` as a C string literal: quotes, backslashes and anything unprintable escaped in octal. */
function cString(s: string): string {
  let out = '"';
  for (const byte of Buffer.from(s, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += byte < 0x20 || byte > 0x7e || ch === '"' || ch === '\\' ? `\\${byte.toString(8).padStart(3, '0')}` : ch;
  }
  return `${out}"`;
}

/**
 * Builds the player into `stubs` (from the recorder's own checkout, `from`) and returns the
 * bubblewrap arguments that put it in place: the real bwrap
 * bound where only the player starts it, the player over /usr/bin/bwrap. Its memory of the
 * sandboxes run (their keys, output and what they left) is `stubs`/memo, per recording: one
 * side's sandboxes are never played back to the other. The recording binds the recorded checkout
 * read-only (transcript-record.ts): the part of what a sandbox sees that the harness could
 * otherwise change without a start.
 */
export async function sandboxPlayer(from: string, stubs: string): Promise<string[]> {
  const src = join(from, 'harness', 'tools', 'sandbox-replay.c');
  if (!existsSync(src)) throw new UserError(`${src}: missing (the recording's sandbox player is built from it)`);
  const real = join(stubs, 'real');
  const memo = join(stubs, 'memo');
  mkdirSync(real);
  mkdirSync(memo);
  // A mount point for the real bwrap; the player starts it there.
  writeFileSync(join(real, 'bwrap'), '');
  const player = join(stubs, 'bwrap');
  const r = await runProcess(
    // SHA-256 from the system's libcrypto, not a digest of our own.
    [GCC, '-O2', `-DREAL=${cString(join(real, 'bwrap'))}`, `-DMEMO=${cString(memo)}`, '-o', player, src, '-lcrypto'],
    { timeoutMs: 120_000 },
  );
  if (r.code !== 0)
    throw new UserError(
      `could not build ${src} with ${GCC} (transcript --run-every-sandbox records without it): ${r.stderr.trim().slice(-400)}`,
      /openssl|lcrypto/.test(r.stderr) ? 'apt-get install libssl-dev' : undefined,
    );
  return ['--ro-bind', BWRAP, join(real, 'bwrap'), '--ro-bind', player, BWRAP];
}
