/**
 * PR diffs: base and head checkouts benchmarked alternately in the same job on the same machine
 * (base, head, base, head, ...), so drift hits both sides alike; each round is a whole `bench`
 * run of one checkout, with that checkout's own harness.
 */
import { join, resolve } from 'node:path';
import { EXIT } from '../lib/errors.js';
import { describeExit, runProcess } from '../lib/exec.js';
import { shareCaches } from '../machine/share-cache.js';

export interface RoundsOutcome {
  files: Record<'base' | 'head', string[]>;
  /** Why the rounds stopped early (a round refused to run, crashed or was interrupted). */
  stopped?: { reason: string; status: number };
}

export async function runRounds(opts: {
  base: string;
  head: string;
  rounds: number;
  out: string;
  benchArgs: readonly string[];
  log: (s: string) => void;
}): Promise<RoundsOutcome> {
  for (const link of shareCaches(opts.base, opts.head)) opts.log(`sharing ${link} with the head checkout`);
  const files: RoundsOutcome['files'] = { base: [], head: [] };
  for (let i = 1; i <= opts.rounds; i++) {
    for (const side of ['base', 'head'] as const) {
      const dir = resolve(side === 'base' ? opts.base : opts.head);
      const runOut = join(opts.out, `${side}-${i}`);
      opts.log(`== round ${i}/${opts.rounds}: ${side} (${dir})`);
      const r = await runProcess(
        [
          process.execPath,
          join(dir, 'harness', 'bootstrap.mjs'),
          'bench',
          '--no-store',
          '--out',
          runOut,
          ...opts.benchArgs,
        ],
        {
          cwd: dir,
          env: { ...process.env, JSIO_ROOT: dir },
          onStderr: (c) => process.stderr.write(c),
        },
      );
      // Failed benchmarks (exit 1) still wrote results: they are listed in the comparison.
      if (r.code === EXIT.ok || r.code === EXIT.benchmarksFailed) {
        files[side].push(join(runOut, 'results.json'));
        continue;
      }
      const status =
        r.code === EXIT.refused ? EXIT.refused : r.code === EXIT.interrupted ? EXIT.interrupted : EXIT.internalError;
      // A round that did not finish leaves the sides unequal: only complete pairs are compared.
      if (side === 'head') files.base.pop();
      return {
        files,
        stopped: {
          reason: `${side} round ${i} did not finish (${describeExit(r)}): ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`,
          status,
        },
      };
    }
  }
  return { files };
}
