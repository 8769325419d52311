/**
 * The release suite of a manifest (npm run releases): the points every runtime release is
 * measured on. `variants` run under each release; `reference` (native) variants are measured
 * beside them and drawn as the reference line; the first metric is the one the Runtimes view
 * draws first; change detection watches every one. Data, so a manifest says what a release is judged on.
 */
import { z } from 'zod';
import { At, id } from './overview-vocabulary.js';

export const ReleaseSuite = z
  .object({
    variants: z.array(id).min(1),
    reference: z.array(id).default([]),
    at: At,
    metrics: z.array(z.string()).min(1),
    /**
     * What the points exercise, as a runtime's changelog names it (its subsystems: "fs",
     * "buffer", "libuv", "v8"): a change's release notes list the entries touching them first.
     */
    subjects: z
      .array(z.string().regex(/^[a-z0-9_-]{1,20}$/))
      .max(20)
      .optional(),
    /**
     * Timed runs per point in the release sweep, replacing the profile's: a point whose value
     * swings from run to run needs more of them for a release's value to be steady.
     */
    runs: z.number().int().min(1).max(100).optional(),
    /**
     * Timed runs of the reference variants per release, replacing `runs` for them. The reference
     * is the floor every release is read against, and native programs are cheap to run many times
     * (docs/releases.md, "A steady reference").
     */
    referenceRuns: z.number().int().min(1).max(500).optional(),
  })
  .strict();
