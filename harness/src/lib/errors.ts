/**
 * An expected failure the user can fix (bad flag, bad manifest, missing tool).
 * The CLI prints its message without a stack trace and exits 1.
 */
export class UserError extends Error {
  constructor(message: string, readonly hint?: string) {
    super(message);
    this.name = 'UserError';
  }
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
