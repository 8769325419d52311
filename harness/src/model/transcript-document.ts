/**
 * transcript.json: what a checkout's harness ran in one recorded `bench` (transcript/record.ts) —
 * every program started, with its arguments, environment, working directory, CPUs and limits,
 * the places that legitimately differ between recordings named (`<side>`, `<tmp>`…).
 */
import { z } from 'zod';

const TRANSCRIPT_SCHEMA = 1;

const text = z.string().max(70_000);

const NormalRunSchema = z
  .object({
    exe: text,
    argv: z.array(text).max(100_000),
    env: z.array(text).max(10_000),
    cwd: text,
    affinity: z.string().max(1000).optional(),
    limits: z.record(z.string().max(100), z.string().max(1000)),
  })
  .strict();
/** One run as the transcript keeps it: no pid, no order number; the places named. */
export type NormalRun = z.infer<typeof NormalRunSchema>;

export const Transcript = z
  .object({
    schema: z.literal(TRANSCRIPT_SCHEMA),
    kind: z.literal('transcript'),
    side: z.object({ root: z.string().max(1000), commit: z.string().max(64) }).strict(),
    /** The bench arguments recorded (after the recording's own --out and --store). */
    bench: z.array(z.string().max(1000)).max(200),
    runs: z.array(NormalRunSchema).max(1_000_000),
  })
  .strict();
export type Transcript = z.infer<typeof Transcript>;
