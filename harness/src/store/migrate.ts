/**
 * Store files are migrated forward when read, never silently misread: each step takes one
 * version to the next. Writers always write the current version. Files of store v1 and v2 are
 * taken to v2 here, then a whole machine's v2 data becomes the "legacy" profile of store v3
 * (./legacy.ts): that step spans many files, so it is not a per-file step. A v3 file is read as a
 * v4 one (model/store-schema.ts): v4 only added optional fields.
 */
type Raw = Record<string, unknown> & { schema: number };

type Step = (raw: Raw) => Raw;

/** Per file kind, the step from version N to N+1, keyed by N. */
export const MIGRATIONS: Record<'machines' | 'index' | 'series', Record<number, Step>> = {
  machines: {
    1: (r) => ({ ...r, schema: 2 }),
    // v3 keeps profiles apart; a v2 machine's data all becomes the pseudo-profile "legacy".
    2: (r) => {
      // A wrong shape is left to the schema check to name, never reshaped into a valid file.
      if (typeof r.machines !== 'object' || r.machines === null || Array.isArray(r.machines))
        return { ...r, schema: 3 };
      return {
        ...r,
        schema: 3,
        machines: Object.fromEntries(
          Object.entries((r.machines as Record<string, { lastRun: string; commits: number }>) ?? {}).map(([id, m]) => [
            id,
            { ...m, profiles: { legacy: { commits: m.commits, lastRun: m.lastRun } } },
          ]),
        ),
      };
    },
    // v4 added only optional fields elsewhere: a v3 machines file is a v4 one.
    3: (r) => ({ ...r, schema: 4 }),
  },
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
