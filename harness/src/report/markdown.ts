/** Markdown table rendering; cells are escaped so program output cannot break the table. */
export function escapeCell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function markdownTable(headers: readonly string[], rows: readonly (readonly string[])[], align?: readonly ('l' | 'r')[]): string {
  const sep = headers.map((_, i) => ((align?.[i] ?? 'l') === 'r' ? '---:' : '---'));
  const line = (cells: readonly string[]) => `| ${cells.map(escapeCell).join(' | ')} |`;
  return [line(headers), `| ${sep.join(' | ')} |`, ...rows.map(line)].join('\n');
}
