/**
 * The line of a failure that says what went wrong. A crashed program's stderr ends with a stack
 * trace and the runtime's version ("at Socket.emit (node:events:524:28) | … | Node.js v20"),
 * which is what a tail shows; the error itself ("ReferenceError: x is not defined", gcc's
 * "wc.c:3:1: error: …", a failed validation) comes earlier. Pure text functions.
 */

/**
 * Lines that name an error: a thrown `SomeError: …` / `Error [CODE]: …` (from its name on), a
 * compiler's or tool's `file:1:2: error: …` (the whole line: where is part of what), a failed
 * validation, a panic or an abort.
 */
const ERROR_LINE = [
  /(?:Uncaught\s+)?\b[A-Z]\w*(?:Error|Exception)(?:\s*\[[\w-]+\])?:\s*\S.*$/,
  /^.*(?:^|\s|:)(?:fatal\s+)?error(?:\[\w+\])?:\s*\S.*$/i,
  /^wrong result\b.*$/,
  /^(?:thread '.*' panicked|panic:|Assertion failed|Segmentation fault|Aborted).*$/,
];

/** Stack frames and the runtime's sign-off, never the error. */
const NOISE =
  /^(?:at\s+(?:async\s+|new\s+)?(?:[^\s():]+(?:\s\[as [^\]]+\])?\s\(.*\)|\S+:\d+:\d+)$|Node\.js v|\^+$|\s*$|file:\/\/|node:internal)/;

const LAST_LINES = ' (last lines: ';

/** Splits program output into lines: real newlines, and the " | " a failure reason joins them with. */
function linesOf(text: string): string[] {
  return text
    .split(/\r?\n| \| /)
    .map((l) => l.trim())
    .filter((l) => l && !NOISE.test(l));
}

/**
 * The first line of `text` that names an error, cut at `max` characters; undefined when none
 * does. The match starts at the error's name ("exited with status 1: ReferenceError: …" gives
 * "ReferenceError: …").
 */
export function firstErrorLine(text: string, max = 200): string | undefined {
  for (const line of linesOf(text)) {
    for (const re of ERROR_LINE) {
      const m = re.exec(line);
      // A reason made by failureDetail carries the last lines after the error: not part of it.
      if (m) return m[0].split(LAST_LINES)[0]!.trim().slice(0, max);
    }
  }
  return undefined;
}

/**
 * A failure's stderr for a reason: the error's first line, then the last lines (where the
 * program was), so neither is lost to the other.
 */
export function failureDetail(stderr: string, tail: (s: string) => string): string {
  const last = tail(stderr);
  const first = firstErrorLine(stderr);
  return first && !last.includes(first) ? `${first}${LAST_LINES}${last})` : last;
}

/**
 * What a reader needs of a failure reason in one line: its error line when it has one, else its
 * first line (a validation message, "build failed: …", a skip's reason), cut at `max`.
 */
export function reasonHeadline(reason: string, max = 200): string {
  return (firstErrorLine(reason, max) ?? reason.split('\n')[0]!.trim()).slice(0, max);
}
