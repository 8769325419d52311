/**
 * Store files are migrated forward when read, never silently misread: each step takes one
 * version to the next. Writers always write the current version.
 */
type Raw = Record<string, unknown> & { schema: number };

type Step = (raw: Raw) => Raw;

/** Per file kind, the step from version N to N+1, keyed by N. */
export const MIGRATIONS: Record<'machines' | 'index' | 'series', Record<number, Step>> = {
  machines: { 1: (r) => ({ ...r, schema: 2 }) },
  index: { 1: (r) => ({ ...r, schema: 2 }) },
  series: {
    // v2 added the definitions column; v1 did not record definitions, so every entry is unknown.
    1: (r) => {
      const commits = (r.commits as unknown[]) ?? [];
      const series = Object.fromEntries(
        Object.entries((r.series as Record<string, Record<string, unknown>>) ?? {}).map(([id, e]) => [
          id,
          { ...e, definitions: commits.map(() => null) },
        ]),
      );
      return { ...r, schema: 2, series };
    },
  },
};

export function migrate(kind: keyof typeof MIGRATIONS, raw: unknown, to: number): unknown {
  let r = raw as Raw;
  while (r && typeof r === 'object' && typeof r.schema === 'number' && r.schema < to) {
    const step = MIGRATIONS[kind][r.schema];
    if (!step) break; // the schema check then reports the unsupported version
    r = step(r);
  }
  return r;
}
