/**
 * An expected failure the user can fix (bad flag, bad manifest or input file, missing tool,
 * unusable path). The CLI prints its message and hint without a stack trace and exits with
 * EXIT.refused: nothing was measured.
 */
export class UserError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'UserError';
  }
}

/**
 * Exit statuses of every command; workflows act on each. 1 is only ever "some benchmarks
 * failed": their reasons are in the results, which were all written.
 */
export const EXIT = {
  ok: 0,
  benchmarksFailed: 1,
  refused: 2,
  internalError: 3,
  interrupted: 130,
} as const;
