/** What every view gets (the store, the URL state, the config) and the small pieces they share. */
import type { Table } from '../../../harness/src/report/summary-model.js';
import type { ExperimentInfo, Profile, Store, WindowCommit } from '../data.js';
import { type Html, html } from '../html.js';
import type { State } from '../state.js';

export interface Ctx {
  store: Store;
  state: State;
  machine: string;
  profile: Profile;
  /** Each experiment's Overview picture (manifest `overview`, from config.json). */
  overview: Record<string, unknown>;
  /** A metric's human label ("cost per read") for an experiment: no key is shown to a reader. */
  label: (experiment: string, metric: string) => string;
  /** Which of this machine's release files exist: the Runtimes view asks for no missing one. */
  releases: { index: boolean; changes: boolean };
  el: HTMLElement;
  commitUrl: (sha: string) => string | undefined;
  go: (s: Partial<State>) => void;
}

export type View = (ctx: Ctx) => Promise<void>;

/** The width a chart may take inside its box (the box's padding left out), so it never spills out. */
export function boxWidth(box: HTMLElement): number {
  const style = getComputedStyle(box);
  const inner = box.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
  return Math.max(240, Math.min(Math.floor(inner) || 900, 1150));
}
export const short = (sha: string) => sha.slice(0, 10);

/**
 * Resolves after the browser has painted what is on the page now (a frame, then a task): a view
 * draws its first chart, awaits this, then the rest, so the first picture is on screen while the
 * others are still being drawn.
 */
export const afterPaint = () => new Promise<void>((done) => requestAnimationFrame(() => setTimeout(done, 0)));

export function commitOptions(commits: readonly WindowCommit[], selected?: string): Html {
  return html`${[...commits]
    .reverse()
    .map(
      (c) =>
        html`<option value="${c.sha}"${c.sha === selected ? html` selected` : ''}>${short(c.sha)} · ${c.date.slice(0, 16).replace('T', ' ')} · ${c.subject.slice(0, 60)}</option>`,
    )}`;
}

export function commitLink(ctx: Ctx, sha: string, text = short(sha)): Html {
  const url = ctx.commitUrl(sha);
  return url ? html`<a href="${url}">${text}</a>` : html`${text}`;
}

/** A <select> of values, each shown by its label. */
export function select(id: string, values: readonly string[], selected: string | undefined, label = (v: string) => v) {
  return html`<select id="${id}">${values.map((v) => html`<option value="${v}"${v === selected ? html` selected` : ''}>${label(v)}</option>`)}</select>`;
}

/** Tables scroll inside their box on a narrow screen, never the page. */
export function tableHtml(t: Table, cls = ''): Html {
  return html`<div class="scroll"><table class="${cls}"><thead><tr>${t.headers.map((h) => html`<th>${h}</th>`)}</tr></thead><tbody>${t.rows.map(
    (r) => html`<tr>${r.map((c) => html`<td>${c}</td>`)}</tr>`,
  )}</tbody></table></div>`;
}

/** The experiment's presentation fields as the summary model wants them. */
export function viewOfRun(id: string, info: ExperimentInfo) {
  return {
    id,
    title: info.title,
    question: info.question,
    parameters: info.parameters ?? {},
    ...(info.summary ? { summary: info.summary } : {}),
    analyses: ((info as { analyses?: unknown[] }).analyses ?? []) as never[],
  };
}
