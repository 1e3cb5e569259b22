import { withoutStarterPrefix } from '../report/words';

/**
 * Every analysis a request names, in the order asked (ADR 0058, shared by every module in ADR
 * 0063): "What is our attrition by department and site, and do we have a gender pay gap?" is
 * attrition, then the gender pay gap. Each module gives its task patterns, the more specific
 * first; a more specific task's words are not counted again for a general one ("gender pay gap"
 * is not also "pay"), and a task word used as a split is not a task ("attrition by tenure").
 */

/** One analysis a request asks for, with the words that belong to it (its splits, its groups). */
export interface RequestPart<T extends string> {
  task: T;
  /** The request itself for a one-part request; the part's own words otherwise. */
  request: string;
}

/** Words before a match that make it a split of another analysis ("attrition by tenure"). */
const AS_SPLIT =
  /\b(?:by|per|across|split by|broken down by)\s+(?:[\w-]+(?:\s*,\s*|\s+and\s+|\s+))*$/i;

/** The request without the starter prefix the client adds. */
const bodyOf = (request: string) => withoutStarterPrefix(request).trim();

export function requestParts<T extends string>(
  request: string,
  tasks: ReadonlyArray<readonly [T, RegExp]>,
  fallback: T,
): Array<RequestPart<T>> {
  const body = bodyOf(request);
  const first = () => tasks.find(([, re]) => re.test(body))?.[0] ?? fallback;
  // A starter template describes one analysis in many words: it stays one part.
  if (body !== request.trim()) return [{ task: first(), request }];
  const taken: Array<{ task: T; start: number; end: number }> = [];
  for (const [task, re] of tasks) {
    for (const m of body.matchAll(new RegExp(re.source, 'gi'))) {
      const start = m.index;
      const end = start + m[0].length;
      // Overlapping or right next to a more specific match: the same words ("regretted leavers").
      if (
        taken.some(
          (t) =>
            (start < t.end && end > t.start) ||
            (start >= t.end && /^[\s-]*$/.test(body.slice(t.end, start))) ||
            (end <= t.start && /^[\s-]*$/.test(body.slice(end, t.start))),
        )
      )
        continue;
      const clause =
        body
          .slice(0, start)
          .split(/[.?!;\n]|,\s*(?:and\s+)?(?=\w)/)
          .at(-1) ?? '';
      if (AS_SPLIT.test(clause) && taken.length) continue;
      taken.push({ task, start, end });
    }
  }
  const firsts = taken
    .sort((a, b) => a.start - b.start)
    .filter((t, i, all) => all.findIndex((x) => x.task === t.task) === i)
    .slice(0, 4);
  if (firsts.length <= 1) return [{ task: firsts[0]?.task ?? fallback, request }];
  // Each part runs from the clause that names it ("where is attrition highest?") to the next.
  const starts = firsts.map((t, i) => {
    if (i === 0) return 0;
    const between = body.slice(firsts[i - 1]!.end, t.start);
    const cut = [...between.matchAll(/[.?!;,\n]|\band\b|\balso\b/gi)].at(-1);
    return cut ? firsts[i - 1]!.end + cut.index + cut[0].length : t.start;
  });
  return firsts.map((t, i) => ({
    task: t.task,
    request: body
      .slice(starts[i], starts[i + 1] ?? body.length)
      .replace(/^[\s,;]*(?:and\s+|also\s+)*/i, '')
      .replace(/[\s,;]*(?:\band|\balso)?[\s,;]*$/i, '')
      .trim(),
  }));
}

/**
 * The parts of a request for a module whose task depends on more than one pattern (a document
 * question, a named regulation): each part's words are classified again by the module, and a
 * part the module reads as the same task as the one before, or as nothing in particular
 * (`joins`), is part of the one before ("check it against GDPR and list the gaps" is one check).
 */
export function classifiedParts<T extends string>(
  request: string,
  parts: Array<RequestPart<T>>,
  classify: (words: string) => T,
  joins: (task: T) => boolean = () => false,
): Array<RequestPart<T>> {
  if (parts.length <= 1) return parts;
  const out: Array<RequestPart<T>> = [];
  for (const p of parts) {
    const task = classify(p.request);
    const last = out.at(-1);
    if (last && (task === last.task || joins(task)))
      last.request = `${last.request} and ${p.request}`;
    else out.push({ task, request: p.request });
  }
  return out.length === 1 ? [{ task: out[0]!.task, request }] : out;
}
