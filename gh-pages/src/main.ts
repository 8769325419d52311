// Minimal page: the latest run of each machine. The full trend site replaces this view.
interface Machines { machines: Record<string, { lastRun: string; commits: number }> }
interface Index { commits: { sha: string; date: string; subject: string; file: string }[] }
interface Bench { id: string; status: string; reason?: string; metrics: Record<string, { value: number; unit: string }> }

const app = document.getElementById('app')!;
const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

async function get<T>(path: string): Promise<T> {
  const r = await fetch(path);
  if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
  return (await r.json()) as T;
}

async function main(): Promise<void> {
  const machines = await get<Machines>('data/machines.json').catch(() => undefined);
  if (!machines || !Object.keys(machines.machines).length) {
    app.innerHTML = '<p>No results yet: run <code>npm run bench</code>.</p>';
    return;
  }
  let html = '';
  for (const id of Object.keys(machines.machines)) {
    const index = await get<Index>(`data/${id}/index.json`);
    const last = index.commits.at(-1);
    if (!last) continue;
    const run = await get<{ benchmarks: Bench[] }>(`data/${id}/${last.file}`);
    html += `<h2>${esc(id)}</h2><p>${esc(last.sha.slice(0, 12))} ${esc(last.subject)} (${esc(last.date)})</p><table><tr><th>benchmark</th><th>status</th><th>time</th><th>throughput</th></tr>`;
    for (const b of run.benchmarks) {
      const t = b.metrics.wall_time;
      const tp = b.metrics.throughput;
      html += `<tr><td>${esc(b.id)}</td><td>${esc(b.status)}${b.reason ? `: ${esc(b.reason)}` : ''}</td><td>${t ? (t.value * 1e3).toFixed(2) + ' ms' : ''}</td><td>${tp ? tp.value.toFixed(0) + ' MB/s' : ''}</td></tr>`;
    }
    html += '</table>';
  }
  app.innerHTML = html;
}

main().catch((e: unknown) => {
  app.innerHTML = `<p class="error">Could not load the results: ${esc(String((e as Error).message ?? e))}</p>`;
});
