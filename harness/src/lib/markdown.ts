/** Markdown table rendering; cells are escaped so program output cannot break the table. */
/**
 * Makes any text inert inside markdown: table pipes, HTML, links, images, code spans, and
 * @-mentions (which would notify people) are neutralised; control characters are dropped.
 */
export function escapeCell(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/[\r\n]+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[[\]`*!]/g, (c) => `\\${c}`)
    .replace(/@/g, '@\u200b');
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
