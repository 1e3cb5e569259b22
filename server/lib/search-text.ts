import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import type { MessagePart } from '@contract/chats';
import { StructuredResponse } from '@contract/structured-response';

/**
 * What a person reads in a message, as the search document: the text of a user message (file
 * names too), or for a reply with a report its title, texts, file names, chart titles and next
 * steps (not the raw JSON it arrived as, whose keys would match every search for "content").
 * A reply's markdown counts as the text it shows (snippets are plain text, without `**`, `|` or
 * `###`); what a user typed is kept as typed.
 */
export function searchTextOf(
  content: unknown,
  structuredResponse: unknown,
  role: 'user' | 'assistant',
): string {
  // PostgreSQL's text parser drops anything that looks like a tag ("<Engineering>" would be
  // unsearchable and vanish from snippets): angle brackets become look-alike quotes.
  return searchablePrefix(readableText(content, structuredResponse, role === 'assistant'))
    .replace(/</g, '‹')
    .replace(/>/g, '›');
}

/**
 * How much of a message is indexed. A tsvector holds at most 1 MB: about 1 MB of distinct words
 * failed the write of the whole message (a long question answered 500, a long model answer was
 * saved empty). Each word of this prefix costs at most its own bytes (4 a character) plus 9, and
 * a word and its separator are 2 characters or more: under 650 KB for any text. The message
 * itself is stored whole; its searches and snippets see this much of it.
 */
export const SEARCH_TEXT_MAX_CHARS = 100_000;

function searchablePrefix(text: string): string {
  if (text.length <= SEARCH_TEXT_MAX_CHARS) return text;
  // Not between the two halves of a surrogate pair (a lone half cannot be stored).
  const end = /[\uD800-\uDBFF]/.test(text[SEARCH_TEXT_MAX_CHARS - 1]!)
    ? SEARCH_TEXT_MAX_CHARS - 1
    : SEARCH_TEXT_MAX_CHARS;
  return text.slice(0, end);
}

function readableText(content: unknown, structuredResponse: unknown, markdown: boolean): string {
  const shown = (text: string) => (markdown ? markdownText(searchablePrefix(text)) : text);
  const report = structuredResponse ? StructuredResponse.safeParse(structuredResponse) : null;
  if (report?.success) {
    const r = report.data;
    return [
      r.task_name,
      ...r.content.map((c) =>
        c.type === 'text'
          ? shown(c.text)
          : c.type === 'file'
            ? c.filename
            : c.type === 'reading'
              ? 'Check how I read this file'
              : c.title,
      ),
      ...r.next_steps.map((s) => s.step_description),
    ].join('\n');
  }
  if (typeof content === 'string') return shown(content);
  if (!Array.isArray(content)) return '';
  return (content as MessagePart[])
    .map((p) => (p.type === 'text' ? shown(p.text) : p.filename))
    .join('\n');
}

/** Nodes whose text ends a line (blocks), and table cells, which end with a separator. */
const LINE_ENDS = new Set<Nodes['type']>([
  'paragraph',
  'heading',
  'blockquote',
  'listItem',
  'code',
  'tableRow',
  'html',
  'footnoteDefinition',
]);

/**
 * The text markdown shows: words of headings, emphasis, links, lists and tables without their
 * marks, table cells apart, blocks on lines of their own. Parsed with the same GFM parser the
 * web client renders with, so what is searched is what is read.
 */
export function markdownText(markdown: string): string {
  const tree = fromMarkdown(markdown, {
    extensions: [gfm()],
    mdastExtensions: [gfmFromMarkdown()],
  });
  const out: string[] = [];
  const walk = (node: Nodes) => {
    if (node.type === 'image' || node.type === 'imageReference') out.push(node.alt ?? '');
    else if (node.type === 'break') out.push('\n');
    else if ('value' in node) out.push(node.value);
    if ('children' in node) for (const child of node.children) walk(child);
    if (node.type === 'tableCell') out.push(' · ');
    else if (LINE_ENDS.has(node.type)) out.push('\n');
  };
  walk(tree);
  return out
    .join('')
    .replace(/ · \n/g, '\n')
    .replace(/[ \t]*\n\s*/g, '\n')
    .trim();
}
