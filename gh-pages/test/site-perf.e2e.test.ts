// npm run site:perf as a user runs it (one repetition): every view's figures are reported, and
// the payload figures, which do not depend on the machine's speed, meet the 300 KB limit (timings
// are held by the command itself, on a quiet machine: --bytes-only here).
import { describe, expect, it } from 'vitest';
import { runCli } from '../../harness/test/helpers/cli.js';

describe('npm run site:perf', () => {
  it('reports every view; the first views stay under 300 KB at 5,000 commits x 300 series', {
    timeout: 300_000,
  }, () => {
    const r = runCli(['site-perf', '--repetitions', '1', '--bytes-only']);
    expect(r.status, r.stderr).toBe(0);
    const out = Object.fromEntries(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => l.trim().split(/\s+/))
        .map(([k, ...v]) => [k, v.join(' ')]),
    ) as Record<string, string>;
    const num = (k: string) => Number(out[k]?.replace(/,/g, ''));
    for (const view of ['overview', 'trends', 'trends_older', 'sweeps', 'compare', 'regressions']) {
      expect(num(`${view}_first_chart_ms`), view).toBeGreaterThan(0);
      expect(num(`${view}_visible_charts_ms`), view).toBeGreaterThanOrEqual(num(`${view}_first_chart_ms`));
      // bundle arrived / last data before the chart / chart, in that order.
      const [script, data, chart] = out[`${view}_script_data_chart_ms`]!.split('/').map(Number);
      expect(script! > 0 && script! <= chart! && data! <= chart!, view).toBe(true);
    }
    for (const view of ['overview', 'trends', 'sweeps', 'compare', 'regressions'])
      expect(num(`${view}_bytes`), view).toBeLessThanOrEqual(300_000);
    // Downloaded compressed, as GitHub Pages serves it: the decoded size is reported too.
    expect(num('overview_raw_bytes')).toBeGreaterThan(num('overview_bytes'));
    expect(r.stderr).toMatch(/limits: first view <= 300,000 bytes: met/);
    // An older window is fetched only on demand: it is bigger, and not part of a first view.
    expect(num('trends_older_bytes')).toBeGreaterThan(num('trends_bytes'));
    expect(num('page_bytes')).toBeGreaterThan(10_000);
    expect(num('repetitions')).toBe(1);
  });
});
