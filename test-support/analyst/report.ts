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

function section(report: HasContent, heading: string): Section {
  const markdown = markdownOf(report);
  const nodes = parse(markdown).children;
  const at = nodes.findIndex((n) => n.type === 'heading' && headingText(n) === heading);
  if (at < 0)
    throw new Error(
      `No section "${heading}"; the report's headings: ${JSON.stringify(headingsOf(report))}`,
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
export function sectionOf(report: HasContent, heading: string): string {
  return section(report, heading).markdown;
}

/** A table's rows as records keyed by its header cells, every cell as the words it shows. */
function rowsOf(table: Table): Array<Record<string, string>> {
  const [head, ...rows] = table.children.map((row) => row.children.map((c) => plain(c).trim()));
  return rows.map((cells) => Object.fromEntries(head!.map((h, i) => [h, cells[i] ?? ''])));
}

/**
 * The first table under a heading, as rows keyed by the column headers: e.g.
 * `tableOf(report, 'By team').find((r) => r.Team === 'Sales')?.['Attrition rate']`.
 */
export function tableOf(report: HasContent, heading: string): Array<Record<string, string>> {
  const table = section(report, heading).nodes.find((n): n is Table => n.type === 'table');
  if (!table) throw new Error(`No table under "${heading}"`);
  return rowsOf(table);
}

/** The row of a table whose first column reads `key` (undefined when there is none). */
export function rowOf(
  rows: Array<Record<string, string>>,
  key: string,
): Record<string, string> | undefined {
  return rows.find((r) => Object.values(r)[0] === key);
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

/** The rows of a CSV file the report delivers, keyed by its header (undefined: no such file). */
export function csvOf(
  report: HasContent,
  filename: string,
): Array<Record<string, string>> | undefined {
  const f = contentOf(report).find((c) => c.type === 'file' && c.filename === filename);
  if (!f || f.type !== 'file') return undefined;
  return Papa.parse<Record<string, string>>(f.file_data.trim(), { header: true }).data;
}
