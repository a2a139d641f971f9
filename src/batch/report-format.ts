/** Markdown pieces shared by the batch reports: percentages, inline code, tables. */

export function percent(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

/** Text fit for one Markdown table cell: pipes escaped, whitespace runs (newlines too) one space. */
export function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');
}

/** An id or API name as inline code that cannot break the table. */
export function code(text: string): string {
  return `\`${cell(text.replace(/`/g, "'"))}\``;
}

export function table(head: readonly string[], rows: readonly (readonly (string | number)[])[]): string[] {
  if (rows.length === 0) return ['(none)'];
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => ' --- ').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ];
}
