/** Markdown table rendering; cells are escaped so program output cannot break the table. */
/** A zero-width space: splits what GitHub would turn into a mention or a link, invisibly. */
const ZWSP = '\u200b';

/**
 * Makes any text inert inside markdown: table pipes, HTML, links, images, code spans,
 * @-mentions (which would notify people) and GitHub's autolinks (bare URLs, `www.`, `#12`,
 * `owner/repo#12`, `GH-12`) are neutralised; control characters are dropped.
 */
export function escapeCell(s: string): string {
  return (
    s
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
      .replace(/\\/g, '\\\\')
      .replace(/\|/g, '\\|')
      .replace(/[\r\n]+/g, ' ')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/[[\]`*!]/g, (c) => `\\${c}`)
      // Only an @ that starts a word mentions someone: node@22 and user@host stay as typed (no
      // invisible character travels into a copied name).
      .replace(/(^|[^\w.+-])@/g, `$1@${ZWSP}`)
      .replace(/:\/\//g, `:/${ZWSP}/`)
      .replace(/\bwww\./gi, (w) => `${w.slice(0, 3)}${ZWSP}.`)
      .replace(/#(?=\d)/g, `#${ZWSP}`)
      .replace(/\b(GH)-(?=\d)/gi, `$1${ZWSP}-`)
  );
}

export function markdownTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  align?: readonly ('l' | 'r')[],
): string {
  const sep = headers.map((_, i) => ((align?.[i] ?? 'l') === 'r' ? '---:' : '---'));
  const line = (cells: readonly string[]) => `| ${cells.map(escapeCell).join(' | ')} |`;
  return [line(headers), `| ${sep.join(' | ')} |`, ...rows.map(line)].join('\n');
}
