// A Markdown table with right-aligned numeric columns.

export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[], numericFrom = 1): string {
  const align = header.map((_, i) => (i >= numericFrom ? '---:' : '---'));
  const line = (cells: readonly string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(header), `| ${align.join(' | ')} |`, ...rows.map(line)].join('\n');
}
