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
  return readableText(content, structuredResponse).replace(/</g, '‹').replace(/>/g, '›');
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
