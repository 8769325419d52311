/** npm run releases -- changes: filled in by the change-detection step. */
import { UserError } from '../../lib/errors.js';

export async function releasesChangesCommand(_argv: string[]): Promise<number> {
  throw new UserError('releases changes: not available yet');
}
