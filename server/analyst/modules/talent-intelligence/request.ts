import { z } from 'zod';
import { withoutStarterPrefix } from '../../report/words';
import { previousReport, type HistoryMessage } from '../../types';

/**
 * How a Talent Intelligence request is read: its words without the starter prefix, the splits
 * and columns it names, and what the previous answer already showed. Capabilities' plans and
 * renderers read requests through these (the task list itself lives in capabilities.ts).
 */

/** The splits a request can name, as the attrition tool takes them. */
export const attritionDimension = z.enum([
  'department',
  'location',
  'country',
  'costCentre',
  'level',
  'job',
  'gender',
  'manager',
  'source',
  'rating',
  'ageBand',
  'partTime',
  'tenureBand',
]);
export type AttritionDimension = z.infer<typeof attritionDimension>;

/** The request without the starter prefix the client adds. */
export const bodyOf = (request: string) => withoutStarterPrefix(request).trim();

const DIMENSION_WORDS: Array<[AttritionDimension, RegExp]> = [
  ['department', /\b(departments?|teams?|functions?|divisions?)\b/i],
  ['costCentre', /\bcost (centers?|centres?)\b/i],
  ['location', /\b(locations?|offices?|sites?|cit(y|ies))\b/i],
  ['country', /\b(countr(y|ies)|nations?)\b/i],
  ['level', /\b(levels?|grades?|(salary|pay|job) bands?)\b/i],
  ['tenureBand', /\btenure\b/i],
  ['rating', /\b(ratings?|performance)\b/i],
  ['manager', /\bmanagers?\b/i],
  ['gender', /\bgender\b/i],
  ['ageBand', /\bage\b/i],
  ['source', /\b(sources?|channels?)\b/i],
  ['partTime', /\bpart[- ]time\b/i],
  ['job', /\b(roles?|job titles?|jobs?)\b/i],
];

/** The dimensions a request names ("by department and tenure band"), in the order it names them. */
export function dimensionsIn(request: string): AttritionDimension[] {
  const body = bodyOf(request);
  return DIMENSION_WORDS.filter(([, re]) => re.test(body))
    .map(([d, re]) => [d, body.search(re)] as const)
    .sort((a, b) => a[1] - b[1])
    .map(([d]) => d);
}

/**
 * Columns a request names by their header where no dimension word covers them ("Show attrition
 * by Supervisory Organization instead", "headcount by \"Business Unit\""): written as a name
 * (capitals) or in quotes. The tools keep only names that are headers of the file (ADR 0047).
 */
export function columnsIn(request: string): string[] {
  const body = bodyOf(request);
  const out: string[] = [];
  for (const m of body.matchAll(/\b(?:by|per|across)\s+([^.?!;:]+)/gi)) {
    const pieces = m[1]!
      .replace(/\s+instead\b.*$/i, '')
      .split(/\s*,\s*(?:and\s+)?|\s+and\s+|\s+or\s+/);
    for (const raw of pieces) {
      const quoted = /^["'“‘](.+?)["'”’]/.exec(raw.trim())?.[1];
      const piece =
        quoted ??
        raw
          .trim()
          .replace(/^(?:the|our|their|each)\s+/i, '')
          .replace(
            /\s+(?:over|in|for|during|within|since|from|of|at|on|this|last|with|as|to|and)\b.*$/i,
            '',
          )
          .trim();
      if (!piece || piece.length > 80) continue;
      if (!quoted && (!/^\p{Lu}/u.test(piece) || DIMENSION_WORDS.some(([, re]) => re.test(piece))))
        continue;
      if (!out.includes(piece)) out.push(piece);
    }
  }
  return out.slice(0, 4);
}

/** Every string the previous report showed (texts, titles, next steps), or "" when there is none. */
export function previousAnswer(history: HistoryMessage[]): string {
  const strings = (v: unknown): string[] =>
    typeof v === 'string'
      ? [v]
      : v && typeof v === 'object'
        ? Object.values(v as Record<string, unknown>).flatMap(strings)
        : [];
  return strings(previousReport(history)).join('\n');
}

const DIMENSION_HEADINGS: Record<AttritionDimension, string> = {
  department: 'department',
  costCentre: 'cost centre',
  location: 'location',
  country: 'country',
  level: 'grade',
  tenureBand: 'tenure band',
  rating: 'performance rating',
  manager: 'manager',
  gender: 'gender',
  ageBand: 'age band',
  source: 'hiring source',
  partTime: 'part-time status',
  job: 'role',
};

/**
 * Attrition splits for a follow-up: what it names; when it names only splits the previous
 * answer already showed (and asks no "which/where" question, answered first anyway), the
 * splits not shown yet, so a repeated or clicked request goes deeper instead of repeating.
 */
export function attritionSplits(request: string, history: HistoryMessage[]): AttritionDimension[] {
  const named = dimensionsIn(request);
  const before = previousAnswer(history);
  const shown = (d: AttritionDimension) => before.includes(`attrition by ${DIMENSION_HEADINGS[d]}`);
  const asks = /\b(which|where|what)\b/i.test(bodyOf(request));
  if (!before || asks || (named.length && !named.every(shown)))
    return named.length ? named : ['department', 'location', 'tenureBand', 'rating'];
  const fresh = (
    [
      'manager',
      'level',
      'job',
      'gender',
      'ageBand',
      'source',
      'location',
      'tenureBand',
      'rating',
    ] as const
  ).filter((d) => !shown(d));
  return fresh.length ? fresh.slice(0, 3) : named;
}

const HEAD_DIMENSIONS: readonly AttritionDimension[] = [
  'department',
  'costCentre',
  'location',
  'country',
  'level',
  'job',
  'gender',
  'manager',
  'source',
  'ageBand',
  'partTime',
  'rating',
];

/** The splits a request names that headcount, tenure and pay break down by (no tenure band). */
export const headDimensionsIn = (request: string): AttritionDimension[] =>
  dimensionsIn(request).filter((d) => HEAD_DIMENSIONS.includes(d));

/** Columns named by header ("by Supervisory Organization instead"): only that split is shown. */
export function namedColumns(request: string): { columns?: string[] } {
  const columns = columnsIn(request);
  return columns.length ? { columns } : {};
}
