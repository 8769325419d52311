/**
 * The tools that shape every measurement and count without being a point's runtime: both sides of
 * a paired diff must have run with the same ones. gcc builds the C programs, hyperfine times,
 * Valgrind counts, and the C library runs under all of them; counts and times hold per version.
 */
import { UserError } from '../../lib/errors.js';

/** The toolchains keys (machine/toolchains.ts toolVersions) both sides must share. */
const SHARED_TOOLS = ['gcc', 'hyperfine', 'valgrind', 'glibc'] as const;

/** Each shared tool whose recorded version differs between the sides: "gcc 12.2.0 (base) and 13.1.0 (head)". */
export function toolMismatches(
  base: Readonly<Record<string, string>>,
  head: Readonly<Record<string, string>>,
): string[] {
  return SHARED_TOOLS.filter((t) => base[t] !== head[t]).map(
    (t) => `${t} ${base[t] ?? 'absent'} (base) and ${head[t] ?? 'absent'} (head)`,
  );
}

/** Refuses a diff whose sides ran with different shared tools, naming each and both versions. */
export function refuseUnequalTools(
  base: Readonly<Record<string, string>>,
  head: Readonly<Record<string, string>>,
): void {
  const differ = toolMismatches(base, head);
  if (differ.length)
    throw new UserError(
      `the two sides would measure with different tools: ${differ.join('; ')}`,
      'both sides must run on one machine with one gcc, hyperfine, Valgrind and C library',
    );
}
