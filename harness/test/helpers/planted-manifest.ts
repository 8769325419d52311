/**
 * The manifest of an experiment a test plants: one block size (4 KiB) in every profile, the same
 * profile for all four, throughput from `bs * n`, and the headline at 4 KiB; the test adds its
 * variants, input and generator. Every profile takes `profile` (runs, warm-ups, timeout, n).
 */
export function plantedManifest(
  title: string,
  question: string,
  profile: Record<string, unknown>,
  rest: Record<string, unknown>,
): Record<string, unknown> {
  return {
    schema: 1,
    title,
    question,
    parameters: {
      bs: {
        description: 'block size',
        unit: 'B',
        values: { smoke: [4096], quick: [4096], standard: [4096], full: [4096] },
      },
    },
    profiles: { smoke: profile, quick: profile, standard: profile, full: profile },
    derive: { bytes: 'bs * n' },
    throughputBytes: 'bytes',
    reports: {},
    summary: { at: { bs: 4096 }, metrics: ['throughput'] },
    headline: { at: { bs: 4096 }, metrics: ['throughput'] },
    ...rest,
  };
}
