// Types for the tests that import the generator.
export function buildList(): { jobs: unknown[] } & Record<string, unknown>;
