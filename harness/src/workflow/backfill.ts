/**
 * Which commit a nightly run of bench.yml measures on one machine. Every push queues its own job
 * (bench.yml has no concurrency group that could replace a pending job), so a commit is missing
 * from a machine's store only when its job never ran: the runner was offline for more than the
 * 24 hours GitHub keeps a job queued, the job was cancelled, or it failed before publishing. The
 * nightly run fills those gaps, newest first, one commit per night and machine; with no gap it
 * measures main's head again (the store replaces that commit's entry; github-action-benchmark is
 * not fed twice, see gab-gate.ts).
 * Pure function; the command in cli.ts reads git's first-parent history and the store's index.
 */
import { assertSha, isSha } from '../lib/ids.js';

export interface PickInput {
  /** main's head when the nightly run started (github.sha). */
  head: string;
  /** First-parent history from head, newest first, head included (e.g. the last 50 commits). */
  history: readonly string[];
  /** Commits stored for this machine (data/<machine>/index.json), any order. */
  stored: ReadonlySet<string>;
}

export interface Pick {
  sha: string;
  backfill: boolean;
  reason: string;
}

export function pickCommit({ head, history, stored }: PickInput): Pick {
  assertSha('head', head);
  if (history[0] !== head) throw new Error(`the history must start at the head commit ${head}`);
  for (const [i, c] of history.entries()) assertSha(`history[${i}]`, c);
  if (!stored.has(head))
    return { sha: head, backfill: false, reason: `main's head ${head} is not stored for this machine yet` };
  // Only gaps after the machine's first stored commit (in this window) are gaps: older commits
  // predate the machine and are not measured after the fact.
  let oldestStored = -1;
  history.forEach((c, i) => {
    if (stored.has(c)) oldestStored = i;
  });
  const gap = history.slice(0, oldestStored + 1).find((c) => !stored.has(c) && isSha(c));
  if (gap)
    return {
      sha: gap,
      backfill: true,
      reason: `${gap} on main has no results on this machine (its job never ran): back-filled`,
    };
  return {
    sha: head,
    backfill: false,
    reason: `no gap in the last ${history.length} commits of main: measuring the head ${head} again`,
  };
}
