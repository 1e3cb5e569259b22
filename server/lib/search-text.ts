import type { MessagePart } from '@contract/chats';
import { StructuredResponse } from '@contract/structured-response';

/**
 * What a person reads in a message, as the search document: the text of a user message (file
 * names too), or for a reply with a report its title, texts, file names, chart titles and next
 * steps (not the raw JSON it arrived as, whose keys would match every search for "content").
 */
export function searchTextOf(content: unknown, structuredResponse: unknown): string {
  // PostgreSQL's text parser drops anything that looks like a tag ("<Engineering>" would be
  // unsearchable and vanish from snippets): angle brackets become look-alike quotes.
  return searchablePrefix(readableText(content, structuredResponse))
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

function readableText(content: unknown, structuredResponse: unknown): string {
  const report = structuredResponse ? StructuredResponse.safeParse(structuredResponse) : null;
  if (report?.success) {
    const r = report.data;
    return [
      r.task_name,
      ...r.content.map((c) =>
        c.type === 'text' ? c.text : c.type === 'file' ? c.filename : c.title,
      ),
      ...r.next_steps.map((s) => s.step_description),
    ].join('\n');
  }
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as MessagePart[])
    .map((p) => (p.type === 'text' ? p.text : p.filename))
    .join('\n');
}
