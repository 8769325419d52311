/** Compare: two stored commits of one machine side by side, judged against its calibrated noise. */
import type { WindowCommit } from '../data.js';
import { html, setHtml } from '../html.js';
import { compareTable } from './compare-table.js';
import { type Ctx, commitOptions } from './ctx.js';

/**
 * The paired diff of a pair of commits, where one exists: the PR that made head, when base is the
 * commit just before it (the PR's comment holds its paired diff) and the repository is known.
 */
export function pairedDiff(ctx: Ctx, commits: readonly WindowCommit[], base: WindowCommit, head: WindowCommit) {
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
  const [b, h, noise] = await Promise.all([
    ctx.store.run(ctx.machine, base),
    ctx.store.run(ctx.machine, head),
    ctx.store.noise(ctx.machine),
  ]);
  const paired = pairedDiff(ctx, options, base, head);
  setHtml(
    ctx.el.querySelector<HTMLElement>('#table')!,
    compareTable(b, h, noise, { label: ctx.label, ...(paired ? { paired } : {}) }),
  );
}
