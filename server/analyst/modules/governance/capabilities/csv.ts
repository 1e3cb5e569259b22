/**
 * A Governance CSV file's text: the header line as written, every cell quoted (the action and
 * gap lists the reports attach have always been written so, and their files stay the same).
 */
export const quotedCsv = (header: string, rows: string[][]): string =>
  `${header}\n${rows.map((r) => r.map((v) => `"${v.replace(/"/g, '""')}"`).join(',')).join('\n')}\n`;
