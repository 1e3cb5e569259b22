// Cheap looks at an answer's text, needed to draw a chat before any report parser has loaded
// (the parsers, with zod, jsonrepair and @streamparser/json, load when a report needs reading).

/** Content given to a history message whose whole text was the report (spec section 4). */
export const REPORT_PLACEHOLDER_CONTENT = 'Generated structured response';

/**
 * Where a report's JSON starts: after blanks and an opening ```json fence; or, after words the
 * model wrote first (an intro, or reasoning a server left in the answer), at the object that
 * opens with "task_name". -1 if none.
 */
export function reportStart(text: string): number {
  const m = /^\s*(?:```[\w-]*[ \t]*\r?\n?\s*)?\{/.exec(text);
  if (m) return m[0].length - 1;
  return text.search(/\{\s*"task_name"\s*:/);
}

/** True when the text so far is (the start of) a report rather than prose. */
export function looksLikeReport(text: string): boolean {
  return reportStart(text) >= 0 || /^\s*```(json)?\s*$/i.test(text);
}

/**
 * Text to show beside a report card: none when the text is the report itself (raw JSON) or the
 * placeholder, else the words the agent wrote around it.
 */
export function textBesideReport(content: string): string | null {
  const t = content.trim();
  if (!t || t === REPORT_PLACEHOLDER_CONTENT || t.startsWith('{') || t.startsWith('```'))
    return null;
  return t;
}
