import type { Heading, Nodes, Paragraph, Root, RootContent, Table } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import Papa from 'papaparse';
import type { ContentItem } from '@contract/structured-response';

/**
 * Accessors for a report's figures and sections (docs/decisions/0024-report-accessors.md): a test
 * asks for "the Sales row of the table under 'Voluntary exits and attrition by department'" or
 * "the bold figure after 'First-year attrition'" instead of pinning the sentence around it, so a
 * rewording of the prose leaves the test alone and a wrong number still fails it. The report's
 * markdown is read with the same parser the product uses (mdast, with GitHub tables).
 */

/** A report, or anything holding a report's content (a structured response, a section draft). */
export type HasContent = { content: ContentItem[] } | ContentItem[];

/**
 * A heading as its words ("By team"), or a pattern its words match (/: Policy checklist$/) where
 * the heading carries a name the test does not pin (the policy's title, a file's name).
 */
export type HeadingMatch = string | RegExp;

const matches = (words: string, heading: HeadingMatch) =>
  typeof heading === 'string' ? words === heading : heading.test(words);

const contentOf = (r: HasContent) => (Array.isArray(r) ? r : r.content);

/** Every text item of a report, joined: the markdown a user reads. */
export function markdownOf(report: HasContent): string {
  return contentOf(report)
    .flatMap((c) => (c.type === 'text' ? [c.text] : []))
    .join('\n\n');
}

const parse = (markdown: string): Root =>
  fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });

/** The words of a node, without markdown (`**Sales**` is "Sales"). */
function plain(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if (node.type === 'break') return '\n';
  return 'children' in node ? (node.children as Nodes[]).map(plain).join('') : '';
}

/** A heading's words, without a several-part report's number ("## 2. Attrition" is "Attrition"). */
const headingText = (h: Heading) =>
  plain(h)
    .replace(/^\d+\.\s+/, '')
    .trim();

/** Every heading of a report, in order, as its words. */
export function headingsOf(report: HasContent): string[] {
  return parse(markdownOf(report))
    .children.filter((n): n is Heading => n.type === 'heading')
    .map(headingText);
}

interface Section {
  markdown: string;
  nodes: RootContent[];
}

function section(report: HasContent, heading: HeadingMatch): Section {
  const markdown = markdownOf(report);
  const nodes = parse(markdown).children;
  const at = nodes.findIndex((n) => n.type === 'heading' && matches(headingText(n), heading));
  if (at < 0)
    throw new Error(
      `No section ${String(heading)}; the report's headings: ${JSON.stringify(headingsOf(report))}`,
    );
  const depth = (nodes[at] as Heading).depth;
  const end = nodes.findIndex((n, i) => i > at && n.type === 'heading' && n.depth <= depth);
  const body = nodes.slice(at + 1, end < 0 ? undefined : end);
  const from = body[0]?.position?.start.offset ?? 0;
  const to = body.at(-1)?.position?.end.offset ?? from;
  return { markdown: markdown.slice(from, to), nodes: body };
}

/**
 * The markdown under a heading (its words, "Attrition" or "By manager", without the #s), up to
 * the next heading of the same or a higher level. Throws, naming the headings there are, when
 * the report has no such section.
 */
export function sectionOf(report: HasContent, heading: HeadingMatch): string {
  return section(report, heading).markdown;
}

/**
 * A row's first cell, kept apart: a record lists number-like keys ("1", "2") before the others,
 * so the first of its values is not always the first column's.
 */
const FIRST = Symbol('first cell');

/** A table's rows as records keyed by its header cells, every cell as the words it shows. */
function rowsOf(table: Table): Array<Record<string, string>> {
  const [head, ...rows] = table.children.map((row) => row.children.map((c) => plain(c).trim()));
  return rows.map((cells) =>
    Object.defineProperty(Object.fromEntries(head!.map((h, i) => [h, cells[i] ?? ''])), FIRST, {
      value: cells[0] ?? '',
    }),
  );
}

/**
 * The first table under a heading, as rows keyed by the column headers: e.g.
 * `tableOf(report, 'By team').find((r) => r.Team === 'Sales')?.['Attrition rate']`.
 */
export function tableOf(report: HasContent, heading: HeadingMatch): Array<Record<string, string>> {
  const table = section(report, heading).nodes.find((n): n is Table => n.type === 'table');
  if (!table) throw new Error(`No table under ${String(heading)}`);
  return rowsOf(table);
}

/** Every table under a heading, in order (a section holding a table per breakdown). */
export function tablesOf(
  report: HasContent,
  heading: HeadingMatch,
): Array<Array<Record<string, string>>> {
  return section(report, heading)
    .nodes.filter((n): n is Table => n.type === 'table')
    .map(rowsOf);
}

/**
 * One cell: the `column` of the row whose first cell reads `key` (`cell(rows, 'Sales',
 * 'Attrition rate')`). Throws, naming the rows or columns there are, when either is missing, so
 * a figure that is not shown fails as clearly as a wrong one.
 */
export function cell(rows: Array<Record<string, string>>, key: string, column: string): string {
  const row = rowOf(rows, key);
  if (!row) throw new Error(`No row "${key}"; the rows: ${JSON.stringify(rows.map(firstCell))}`);
  if (!(column in row))
    throw new Error(`No column "${column}"; the columns: ${JSON.stringify(Object.keys(row))}`);
  return row[column]!;
}

/** One column of a table, top to bottom (`column(rows, 'ID')`: the IDs listed). */
export function column(rows: Array<Record<string, string>>, name: string): string[] {
  return rows.map((r) => r[name] ?? '');
}

const firstCell = (r: Record<string, string>) =>
  (r as { [FIRST]?: string })[FIRST] ?? Object.values(r)[0];

/** The row of a table whose first column reads `key` (undefined when there is none). */
export function rowOf(
  rows: Array<Record<string, string>>,
  key: string,
): Record<string, string> | undefined {
  return rows.find((r) => firstCell(r) === key);
}

function paragraphs(node: Nodes): Paragraph[] {
  if (node.type === 'paragraph') return [node];
  return 'children' in node ? (node.children as Nodes[]).flatMap(paragraphs) : [];
}

/**
 * The figure a report gives for `label`: the first bold words after `label` in the same
 * paragraph (`figure(report, 'First-year attrition')` is "12.5%" in
 * "First-year attrition: **12.5%** (7 of 56 …)"). Throws when no paragraph has `label` followed
 * by bold words.
 */
export function figure(report: HasContent, label: string): string {
  for (const p of paragraphs(parse(markdownOf(report)))) {
    let words = '';
    for (const child of p.children) {
      // Bold words count once the label stands before them (or in bold itself, just before).
      if (child.type === 'strong' && words.includes(label)) return plain(child).trim();
      words += plain(child);
    }
  }
  throw new Error(`No figure after "${label}" in the report`);
}

/** A file's name as it is, or a pattern it matches (/risk-register\.csv$/) when it is dated. */
export type FileMatch = string | RegExp;

/** The text of a file the report delivers (undefined: no such file). */
export function fileOf(report: HasContent, filename: FileMatch): string | undefined {
  const f = contentOf(report).find((c) => c.type === 'file' && matches(c.filename, filename));
  return f?.type === 'file' ? f.file_data : undefined;
}

/** The rows of a CSV file the report delivers, keyed by its header (undefined: no such file). */
export function csvOf(
  report: HasContent,
  filename: FileMatch,
): Array<Record<string, string>> | undefined {
  const text = fileOf(report, filename);
  if (text === undefined) return undefined;
  return Papa.parse<Record<string, string>>(text.trim(), { header: true }).data;
}

/** A chart's series: its labels and, per dataset label, the values (as Chart.js data holds them). */
export interface ChartSeries {
  labels: string[];
  series: Record<string, number[]>;
}

/** The series of the chart titled `title`. Throws, naming the charts there are, when none is. */
export function chartOf(report: HasContent, title: string): ChartSeries {
  const charts = contentOf(report).flatMap((c) => (c.type === 'chart' ? [c] : []));
  const chart = charts.find((c) => c.title === title);
  if (!chart)
    throw new Error(
      `No chart "${title}"; the charts: ${JSON.stringify(charts.map((c) => c.title))}`,
    );
  const data = (chart.config.data ?? {}) as {
    labels?: unknown[];
    datasets?: Array<{ label?: string; data?: unknown[] }>;
  };
  return {
    labels: (data.labels ?? []).map(String),
    series: Object.fromEntries(
      (data.datasets ?? []).map((d, i) => [d.label ?? String(i), (d.data ?? []).map(Number)]),
    ),
  };
}

/** The next steps a report offers, as the words on their buttons. */
export function nextStepsOf(report: { next_steps: Array<{ step_description: string }> }): string[] {
  return report.next_steps.map((s) => s.step_description);
}
