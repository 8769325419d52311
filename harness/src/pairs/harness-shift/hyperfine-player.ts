/**
 * The hyperfine a recording shows the harness (transcript-record.ts): it answers `--version` as the
 * real one does and, for a timing, writes an export whose numbers are a fixed function of each
 * command line and run number, without running anything. hyperfine does only what its arguments,
 * environment, directory, CPUs and limits say, and the recording keeps all of those at its
 * execve; so nothing is lost by not running it, a recording costs no timed runs, and both sides'
 * analysis code is handed the same raw output for the same commands (their numbers compare
 * exactly, transcript-numbers.ts).
 */

/**
 * A timing of one command: a number in [0, 1) from the command, its place among hyperfine's
 * commands and the run (FNV-1a), so that repeated slots of one command differ as real runs do.
 */
function playedFraction(command: string, place: number, run: number): number {
  let h = 0x811c9dc5;
  for (const ch of `${place}\u0000${run}\u0000${command}`) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h / 2 ** 32;
}

/** The source of the player: a Node script, run by `node` (the shebang) in place of hyperfine. */
export function hyperfinePlayer(node: string, version: string): string {
  // Per-run memory came with hyperfine 1.16: the player's export has the real one's shape.
  const v = /(\d+)\.(\d+)/.exec(version);
  const memory = !!v && (Number(v[1]) > 1 || Number(v[2]) >= 16);
  return `#!${node}
// jsio-bench transcript: hyperfine as a recording shows it (harness/src/pairs/harness-shift/hyperfine-player.ts).
'use strict';
const fs = require('node:fs');
const playedFraction = (${playedFraction.toString()});
const args = process.argv.slice(2);
if (args.includes('--version') || args.includes('-V')) { process.stdout.write(${JSON.stringify(`${version}\n`)}); process.exit(0); }
const WITH_VALUE = new Set(['--runs', '-r', '--warmup', '-w', '--export-json', '--prepare', '-p', '--shell', '-S', '--style', '--min-runs', '-m', '--max-runs', '-M', '--cleanup', '-c', '--setup', '-s', '--command-name', '-n', '--output']);
const opts = {}; const commands = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--') { commands.push(...args.slice(i + 1)); break; }
  if (a.startsWith('-') && a.length > 1) {
    const eq = a.indexOf('=');
    if (eq > 0) opts[a.slice(0, eq)] = a.slice(eq + 1);
    else if (WITH_VALUE.has(a)) opts[a] = args[++i];
    else opts[a] = true;
  } else commands.push(a);
}
const runs = Number(opts['--runs'] ?? opts['-r'] ?? 10);
const out = opts['--export-json'];
if (!commands.length || !(runs >= 1)) { process.stderr.write('hyperfine (recording): no command or no runs\\n'); process.exit(2); }
const results = commands.map((command, place) => {
  const times = Array.from({ length: runs }, (_, i) => 0.005 + 0.01 * playedFraction(command, place, i));
  const sorted = [...times].sort((a, b) => a - b);
  const mean = times.reduce((s, t) => s + t, 0) / runs;
  const sd = runs > 1 ? Math.sqrt(times.reduce((s, t) => s + (t - mean) ** 2, 0) / (runs - 1)) : null;
  const mid = runs >> 1;
  return {
    command, mean, stddev: sd,
    median: runs % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2,
    user: mean / 2, system: mean / 4, min: sorted[0], max: sorted[runs - 1], times,
    exit_codes: times.map(() => 0),
    ...(${memory} ? { memory_usage_byte: times.map((_, i) => 1048576 + Math.floor(1048576 * playedFraction(command, place, runs + i))) } : {}),
  };
});
if (out) fs.writeFileSync(out, JSON.stringify({ results }));
`;
}
