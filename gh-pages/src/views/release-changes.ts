/**
 * The Runtimes view's list of changes between releases (releases/<machine>/changes.json): timing
 * changes confirmed in pairs, changes of counted work (instructions beyond the tolerance), and
 * exact counter changes grouped by release pair and point (the larger steps first:
 * releases/counter-groups.ts), each
 * with its releases' dates and the release notes between them. Metrics by their labels; every
 * string from the file escaped (html``).
 */

import type { ReleaseChange, ReleaseChangesFile } from '../../../harness/src/formats/release-store-format.js';
import { formatValue, plural } from '../../../harness/src/lib/format.js';
import { bySize, counterGroups, pointOf, SMALL_COUNTER_STEP } from '../../../harness/src/releases/counter-groups.js';
import { countText } from '../../../harness/src/releases/judge/work-changes.js';
import { type Html, html, safeUrl } from '../html.js';

type Label = (experiment: string, metric: string) => string;

const pct = (r: number) => `${r >= 1 ? '+' : '−'}${(Math.abs(r - 1) * 100).toFixed(1)}%`;
const worse = (c: Pick<ReleaseChange, 'direction' | 'ratio'>) =>
  c.direction === 'smaller' ? c.ratio > 1 : c.ratio < 1;

/** "YYYY-MM-DD", or "YYYY-MM-DD (registry)" where the project gives no date of its own. */
function dated(date: string, source: 'changelog' | 'registry' | undefined): string {
  return `${date.slice(0, 10)}${source === 'changelog' ? '' : ' (registry)'}`;
}

function releases(c: ReleaseChange): string {
  const range = `${c.family} ${c.from} → ${c.to}`;
  return `${range} (${dated(c.fromDate, c.dateSources?.from)} → ${dated(c.toDate, c.dateSources?.to)})`;
}

function notesHtml(c: ReleaseChange): Html {
  const n = c.notes;
  if (!n) return html``;
  if (!n.entries.length) return html`<div class="muted notes">release notes: ${n.source}</div>`;
  const items = n.entries.map(
    (e) =>
      html`<li${e.touches.length ? html` class="touches"` : ''}>${e.version}: ${e.subsystem ? html`<b>${e.subsystem}</b>: ` : ''}${e.text}</li>`,
  );
  return html`<details class="notes"><summary>release notes (${n.source}${n.more ? `; ${n.more} more` : ''})</summary><ul>${items}</ul></details>`;
}

const PROFILERS: Record<string, string> = {
  'v8-cpu-prof': "the runtime's V8 profiler (--cpu-prof)",
  perf: 'perf record -e cpu-clock',
  none: 'no profiler',
};

/** A confirmed change's profile: the functions whose self time changed most, or why there is none. */
function profileOf(c: ReleaseChange): Html | string {
  const p = c.profile;
  if (!p) return '';
  const ms = (x: number) => `${x.toFixed(x < 10 ? 2 : x < 100 ? 1 : 0)} ms`;
  const rows = p.functions.map((f) => html`<li><code>${f.name}</code>: ${ms(f.before)} → ${ms(f.after)}</li>`);
  return html`<details class="release-profile"><summary>profile: ${PROFILERS[p.tool] ?? p.tool}</summary>${p.note ? html`<p class="muted">${p.note}</p>` : ''}${rows.length ? html`<p class="muted">self time per run under ${c.from} → ${c.to}, the functions that changed most</p><ul>${rows}</ul>` : ''}</details>`;
}

/** A timing change: the paired estimate where the pairs confirmed it, else the timeline's step. */
function timingItem(c: ReleaseChange, label: Label): Html {
  const conf = c.confirmation;
  const size = conf
    ? `${pct(1 + conf.change)} (CI ${pct(1 + conf.ci[0])} … ${pct(1 + conf.ci[1])}), ${conf.pairs} pairs; the timeline showed ${pct(c.ratio)}`
    : `${pct(c.ratio)} on the timeline${c.unconfirmable ? ` (not confirmable by pairs: ${c.unconfirmable})` : ''}`;
  const bisected = c.detectedFrom ? `; bisected from ${c.detectedFrom} → ${c.detectedTo}` : '';
  return html`<li class="${worse(c) ? 'bad' : 'good'}">${releases(c)}: ${pointOf(c)}, ${label(c.experiment, c.metric)} ${size}${bisected}${notesHtml(c)}${profileOf(c)}</li>`;
}

/** The counter changes of one release pair and point, as one item. */
function counterItem(group: ReleaseChange[], label: Label): Html {
  const c = group[0]!;
  const counts = group.map((x) => `${label(x.experiment, x.metric)} ${x.counts?.from} → ${x.counts?.to}`).join(', ');
  const effects = (c.effects ?? [])
    .map((e) => `${label(c.experiment, e.metric)} ${formatValue(e.from, e.unit)} → ${formatValue(e.to, e.unit)}`)
    .join(', ');
  const bisected = c.detectedFrom ? `; bisected from ${c.detectedFrom} → ${c.detectedTo}` : '';
  return html`<li class="counter">${releases(c)}: ${pointOf(c)}: ${counts} per run (exact: every trace of both releases)${bisected}${effects ? html`<div class="muted">measured beside it: ${effects}</div>` : ''}${notesHtml(c)}</li>`;
}

/** A change of counted work: the counts before and after, exact, with the timed metrics beside it. */
function workItem(c: ReleaseChange, label: Label): Html {
  const counts = c.counts ? `${countText(c.counts.from)} → ${countText(c.counts.to)} ` : '';
  const effects = (c.effects ?? [])
    .map((e) => `${label(c.experiment, e.metric)} ${formatValue(e.from, e.unit)} → ${formatValue(e.to, e.unit)}`)
    .join(', ');
  const bisected = c.detectedFrom ? `; bisected from ${c.detectedFrom} → ${c.detectedTo}` : '';
  return html`<li class="${worse(c) ? 'bad' : 'good'}">${releases(c)}: ${pointOf(c)}, ${label(c.experiment, c.metric)} ${counts}(${pct(c.ratio)}), exact${bisected}${effects ? html`<div class="muted">measured beside it: ${effects}</div>` : ''}${notesHtml(c)}</li>`;
}

export function changesList(file: ReleaseChangesFile | undefined, json: string | undefined, label: Label): Html {
  const timing = (file?.changes ?? []).filter((c) => (c.kind ?? 'timing') === 'timing');
  const work = (file?.changes ?? []).filter((c) => c.kind === 'work');
  const { large, small } = bySize(counterGroups(file?.changes ?? []));
  const open = (file?.candidates ?? []).map((c) => timingItem(c, label));
  return html`<div class="card"><h2>Changes between releases</h2><h3>Timing, confirmed in pairs</h3>${timing.length ? html`<ul class="release-changes">${timing.map((c) => timingItem(c, label))}</ul>` : html`<p class="notice">No confirmed timing change yet.</p>`}${open.length ? html`<details><summary>${open.length} detected, not confirmed</summary><ul>${open}</ul></details>` : ''}${work.length ? html`<h3>Work, exact</h3><ul class="release-changes work">${work.map((c) => workItem(c, label))}</ul>` : ''}<h3>Counters, exact</h3>${large.length ? html`<ul class="release-changes counters">${large.map((g) => counterItem(g, label))}</ul>` : ''}${small.length ? html`<details class="small-counters"><summary>${large.length ? 'and ' : ''}${plural(small.length, 'release pair and point', 'release pairs and points')} whose counts moved by at most ${SMALL_COUNTER_STEP} calls per run</summary><ul class="release-changes counters">${small.map((g) => counterItem(g, label))}</ul></details>` : ''}${large.length || small.length ? '' : html`<p class="notice">No counter change between releases${file ? '' : ' yet (no change detection has run)'}.</p>`}${json ? html`<p><a href="${safeUrl(json)}">these lists as JSON</a></p>` : ''}</div>`;
}
