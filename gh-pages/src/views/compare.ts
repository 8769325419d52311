/** Compare: two stored commits of one machine side by side, judged against its calibrated noise. */
import { thresholdsUsed } from '../../../harness/src/compare/quick-look.js';
import type { Comparison } from '../../../harness/src/formats/quick-look-format.js';
import type { NewestPairFile, WindowCommit } from '../data.js';
import { html, setHtml } from '../html.js';
import { compareLive, compareTable } from './compare-table.js';
import { type Ctx, commitOptions } from './ctx.js';

/**
 * The paired diff of a pair of commits, where one exists: the PR that made head, when base is the
 * commit just before it (the PR's comment holds its paired diff) and the repository is known.
 */
function pairsDiff(ctx: Ctx, commits: readonly WindowCommit[], base: WindowCommit, head: WindowCommit) {
  const i = commits.findIndex((c) => c.sha === head.sha);
  const pr = /\(#(\d+)\)\s*$|^Merge pull request #(\d+)/.exec(head.subject);
  const repo = ctx.commitUrl('x')?.replace(/\/commit\/x$/, '');
  if (!pr || !repo || i < 1 || commits[i - 1]!.sha !== base.sha) return undefined;
  const n = pr[1] ?? pr[2];
  return { url: `${repo}/pull/${n}`, text: `pull request #${n}` };
}

export async function compare(ctx: Ctx): Promise<void> {
  const commits = await ctx.profile.commits(ctx.profile.recentWindows(ctx.state.older ?? 0));
  if (commits.length < 2) {
    setHtml(ctx.el, html`<p class="notice">Compare needs two commits; this machine has one so far.</p>`);
    return;
  }
  const head = (ctx.state.head ? await ctx.profile.find(ctx.state.head) : undefined) ?? commits.at(-1)!;
  const base = (ctx.state.base ? await ctx.profile.find(ctx.state.base) : undefined) ?? commits.at(-2)!;
  const options = [...commits];
  for (const c of [base, head]) if (!options.some((o) => o.sha === c.sha)) options.push(c);
  options.sort((a, b) => (a.date < b.date ? -1 : 1));
  setHtml(
    ctx.el,
    html`<div class="controls"><label>base <select id="base">${commitOptions(options, base.sha)}</select></label><label>head <select id="head">${commitOptions(options, head.sha)}</select></label></div><div id="table"><p>Loading both runs…</p></div>`,
  );
  ctx.el.querySelector<HTMLSelectElement>('#base')!.onchange = (e) =>
    ctx.go({ base: (e.target as HTMLSelectElement).value });
  ctx.el.querySelector<HTMLSelectElement>('#head')!.onchange = (e) =>
    ctx.go({ head: (e.target as HTMLSelectElement).value });
  const newest = head.sha === commits.at(-1)!.sha && base.sha === commits.at(-2)!.sha;
  const [c, noise] = await comparison(ctx, base, head, newest);
  const paired = pairsDiff(ctx, options, base, head);
  setHtml(
    ctx.el.querySelector<HTMLElement>('#table')!,
    compareTable(c, noise, { label: ctx.label, ...(paired ? { paired } : {}) }),
  );
}

/**
 * The comparison of base and head, with the machine's noise thresholds: for the newest pair the
 * site build's (the same code on the same files), when it was made with the thresholds the
 * machine has now; else made here from both runs.
 */
async function comparison(
  ctx: Ctx,
  base: WindowCommit,
  head: WindowCommit,
  newest: boolean,
): Promise<[Comparison | Error, Record<string, number>]> {
  const noise = ctx.store.noise(ctx.machine);
  if (newest) {
    const [built, thresholds] = await Promise.all([
      ctx.store.newestPair(ctx.machine, ctx.profile.profile).catch(() => undefined),
      noise,
    ]);
    if (built && built.base === base.sha && built.head === head.sha && sameThresholds(built, thresholds))
      return [built.comparison, thresholds];
  }
  const [b, h, thresholds] = await Promise.all([
    ctx.store.run(ctx.machine, base),
    ctx.store.run(ctx.machine, head),
    noise,
  ]);
  return [compareLive(b, h, thresholds), thresholds];
}

function sameThresholds(built: NewestPairFile, noise: Record<string, number>): boolean {
  const now = thresholdsUsed(built.comparison, noise);
  const then = Object.entries(built.thresholds);
  return then.length === Object.keys(now).length && then.every(([k, v]) => Object.hasOwn(now, k) && now[k] === v);
}
