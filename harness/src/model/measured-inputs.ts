/**
 * A point's measured-input identity (computed by plan/identify-inputs.ts): the digest of everything
 * its process runs or reads, as named parts ("file programs/scan/scan-common.js", "runtime
 * node@22", "manifest entry"), or why it cannot be proven.
 */
export type MeasuredInputs =
  | { ok: true; digest: string; parts: Readonly<Record<string, string>> }
  | { ok: false; reason: string };
