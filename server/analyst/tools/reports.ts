import {
  nextStepActionOf,
  StructuredResponse,
  type ContentItem,
  type FileItem,
  type TextItem,
} from '@contract/structured-response';

/** Builders for the structured report (spec section 3): text parts, markdown tables, files, next steps. */

/** Escapes what would break a markdown table cell. */
function cell(value: unknown): string {
  return String(value ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n/g, ' ');
}

/**
 * A markdown table; with no rows, the one line saying what is missing and how to get it instead
 * (a table of headers only reads as an answer of nothing; ADR 0057).
 */
export function markdownTable(
  headers: string[],
  rows: unknown[][],
  missing = 'the data holds nothing for this table',
): string {
  if (!rows.length) return emptyLine(missing);
  const head = `| ${headers.map(cell).join(' | ')} |`;
  const rule = `| ${headers.map(() => '---').join(' | ')} |`;
  return [
    head,
    rule,
    ...rows.map((r) => `| ${headers.map((_, i) => cell(r[i])).join(' | ')} |`),
  ].join('\n');
}

/** The one line that stands where an empty table or chart would have been drawn. */
export const emptyLine = (missing: string): string =>
  `_Nothing to show: ${missing.replace(/[.\s]+$/, '')}._`;

export const text = (markdown: string): TextItem => ({ type: 'text', text: markdown });
export const file = (filename: string, data: string): FileItem => ({
  type: 'file',
  filename,
  file_data: data,
});

/** A file name from a title: lower-case words joined by dashes, with the given extension. */
export function fileNameFor(title: string, extension: string): string {
  const base = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${base || 'report'}.${extension}`;
}

export interface ReportDraft {
  taskName: string;
  content: ContentItem[];
  nextSteps: string[];
}

const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_RULE = /^\s*\|(?:\s*:?-{3,}:?\s*\|)+\s*$/;

/** A markdown text with each table of headers only replaced by the empty line. */
function withoutEmptyTables(markdown: string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (
      TABLE_ROW.test(line) &&
      TABLE_RULE.test(lines[i + 1] ?? '') &&
      !TABLE_ROW.test(lines[i + 2] ?? '') &&
      !TABLE_ROW.test(lines[i - 1] ?? '')
    ) {
      out.push(emptyLine('the data holds no rows for this table'));
      i++;
      continue;
    }
    out.push(line);
  }
  return out.join('\n');
}

function chartHasValues(item: ContentItem): boolean {
  if (item.type !== 'chart') return true;
  const data = (
    item.config as { data?: { labels?: unknown[]; datasets?: Array<{ data?: unknown[] }> } }
  ).data;
  if (!data?.labels?.length && !item.imageData) return false;
  return (
    !!item.imageData ||
    (data?.datasets ?? []).some((d) =>
      (d.data ?? []).some((v) => typeof v === 'number' && Number.isFinite(v)),
    )
  );
}

/**
 * The one shared place every builtin report passes (ADR 0057): an empty chart becomes the line
 * saying there is nothing to draw, a table of headers only becomes that line, and a CSV of
 * headers only is not handed over (unless it is a template or sample to fill in).
 */
function withoutEmptyParts(content: ContentItem[]): ContentItem[] {
  return content.flatMap((item): ContentItem[] => {
    if (item.type === 'chart')
      return chartHasValues(item)
        ? [item]
        : [text(`**${item.title}**: ${emptyLine('no values in the data to draw')}`)];
    if (item.type === 'file')
      // A template or sample to fill in is headers on purpose; any other such CSV is empty.
      return /\.csv$/i.test(item.filename) &&
        !/template|sample/i.test(item.filename) &&
        item.file_data.trim().split('\n').length < 2
        ? []
        : [item];
    if (item.type === 'reading') return [item];
    return [{ ...item, text: withoutEmptyTables(item.text) }];
  });
}

/** Validates a draft against the contract: a builder bug surfaces here, not in the client. */
export function finishReport(draft: ReportDraft): StructuredResponse {
  return StructuredResponse.parse({
    task_name: draft.taskName.slice(0, 255),
    content: withoutEmptyParts(draft.content),
    // A step that asks the user to act carries its action, so the client does it (ADR 0056).
    next_steps: draft.nextSteps.map((s) => {
      const action = nextStepActionOf(s);
      return action ? { step_description: s, action } : { step_description: s };
    }),
  });
}

/** Escapes text for an HTML deliverable. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** A standalone HTML page with a small readable stylesheet, for HTML deliverables. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;line-height:1.5;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#111827}
table{border-collapse:collapse;width:100%;margin:1rem 0}th,td{border:1px solid #d1d5db;padding:.4rem .6rem;text-align:left;vertical-align:top}
th{background:#f3f4f6}h1{font-size:1.6rem}h2{font-size:1.2rem;margin-top:1.6rem}
</style>
</head>
<body>
${body}
</body>
</html>
`;
}

export function htmlTable(headers: string[], rows: unknown[][]): string {
  const th = headers.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const trs = rows
    .map(
      (r) =>
        `<tr>${headers.map((_, i) => `<td>${escapeHtml(String(r[i] ?? ''))}</td>`).join('')}</tr>`,
    )
    .join('\n');
  return `<table>\n<thead><tr>${th}</tr></thead>\n<tbody>\n${trs}\n</tbody>\n</table>`;
}

/** CSV text (RFC 4180): a cell is quoted only when it holds a quote, comma or line break. */
export function csvText(headers: string[], rows: unknown[][]): string {
  return (
    [headers, ...rows]
      .map((r) =>
        r
          .map((v) => {
            const s = v === null || v === undefined ? '' : String(v);
            return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
          })
          .join(','),
      )
      .join('\n') + '\n'
  );
}
