// The hyperfine a recording shows the harness: run for real (node, its shebang), it answers
// --version as the real one did, writes an export the harness's own parser reads, gives the same
// command line the same runs every time and another command other runs, and runs nothing.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hyperfinePlayer } from '../../../src/pairs/harness-shift/hyperfine-player.js';
import { parseHyperfineJson } from '../../../src/run/parse-hyperfine.js';
import { removeScratch } from '../../helpers/scratch.js';

const dir = mkdtempSync(join(tmpdir(), 'jsio-player-'));
afterAll(() => removeScratch(dir));

function player(version: string): string {
  const file = join(dir, `hyperfine-${version.replace(/\W/g, '')}`);
  writeFileSync(file, hyperfinePlayer(process.execPath, version));
  chmodSync(file, 0o755);
  return file;
}

let n = 0;
function play(file: string, ...args: string[]) {
  const out = join(dir, `export-${++n}.json`);
  const r = spawnSync(file, [...args, `--export-json=${out}`], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return parseHyperfineJson(out, readFileSync(out, 'utf8'));
}

describe('the recording hyperfine', () => {
  const old = player('hyperfine 1.15.0');
  const args = ['--shell=bash', '--style=none', '--runs=4', '--warmup=1', '--prepare=rm -rf /nonexistent/x'];

  it('answers --version as the real one', () => {
    expect(spawnSync(old, ['--version'], { encoding: 'utf8' }).stdout).toBe('hyperfine 1.15.0\n');
  });

  it("writes an export the harness reads: the runs asked for, one result per command, in the real one's shape", () => {
    const planted = join(dir, 'ran');
    const r = play(old, ...args, `touch ${planted}`, 'true');
    expect(r.map((x) => x.command)).toEqual([`touch ${planted}`, 'true']);
    expect(r.every((x) => x.times.length === 4 && x.exitCodes.every((c) => c === 0))).toBe(true);
    expect(r[0]!.memoryBytes).toBeUndefined();
    // Nothing runs: the recording keeps hyperfine's command line, which says what it would run.
    expect(existsSync(planted)).toBe(false);
  });

  it('the same command line, the same runs; another command or place, other runs', () => {
    const [a] = play(old, ...args, 'echo a');
    const [b] = play(old, ...args, 'echo a');
    const [c] = play(old, ...args, 'echo b');
    expect(b!.times).toEqual(a!.times);
    expect(c!.times).not.toEqual(a!.times);
    expect(new Set(a!.times).size).toBe(4);
    // Interleaved slots (one run each, the same command again later) differ as real runs would.
    const slots = play(old, '--runs=1', 'echo a', 'echo a');
    expect(slots[0]!.times).not.toEqual(slots[1]!.times);
  });

  it('per-run memory from 1.16 on, as the real one', () => {
    const [r] = play(player('hyperfine 1.20.0'), ...args, 'true');
    expect(r!.memoryBytes).toHaveLength(4);
  });
});
