/** GNU time with -f 'max_rss_kib=%M\nwall_seconds=%e\nexit_status=%x' -o FILE. */
export const GNU_TIME_FORMAT = 'max_rss_kib=%M\\nwall_seconds=%e\\nexit_status=%x';

export interface GnuTime {
  maxRssBytes: number;
  wallSeconds: number;
  /** The note GNU time adds for a non-zero exit or a signal, if any. */
  note?: string;
}

export function parseGnuTime(text: string): GnuTime {
  const values: Record<string, number> = {};
  let note: string | undefined;
  for (const line of text.split('\n')) {
    const m = /^(\w+)=(-?[\d.]+)$/.exec(line.trim());
    if (m?.[1] && m[2]) values[m[1]] = Number(m[2]);
    else if (/^Command (exited|terminated)/.test(line)) note = line.trim();
  }
  if (values.max_rss_kib === undefined) throw new Error('GNU time output has no max_rss_kib line');
  return { maxRssBytes: values.max_rss_kib * 1024, wallSeconds: values.wall_seconds ?? NaN, ...(note ? { note } : {}) };
}
