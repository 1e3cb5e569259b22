import { table, type Column } from '../../report/section';
import type { ToolCallRecord } from '../../tools/tool';
import { list } from '../report-parts';
import { bodyOf } from './request';

/**
 * What the Talent Intelligence renderers share: how a breakdown is named and tabled, and the
 * groups a request names. Each capability's renderer (in its own file, ADR 0084) returns a Section
 * (report/section.ts, ADR 0085).
 */

/** A breakdown's table, declared once (ADR 0088): a column of its groups, then its figures. */
export const groupsTable = <G extends { group: string }>(
  header: string,
  columns: Array<Column<G>>,
  groups: readonly G[],
) => table<G>([{ header, value: (g) => g.group }, ...columns], groups);

/** A planned call. */
export const call = (tool: string, input: Record<string, unknown> = {}): ToolCallRecord => ({
  tool,
  input,
});

export const DIMENSION_LABEL: Record<string, string> = {
  department: 'department',
  costCentre: 'cost centre',
  location: 'location',
  country: 'country',
  level: 'grade',
  job: 'role',
  gender: 'gender',
  manager: 'manager',
  source: 'hiring source',
  rating: 'performance rating',
  ageBand: 'age band',
  partTime: 'part-time status',
  tenureBand: 'tenure band',
};

/** A breakdown as a tool returns it: a dimension, or a column the request named by header. */
export interface Split {
  dimension: string;
  column?: string | null;
  others?: string[];
  note?: string;
}

/** A breakdown's name: "department", or the header a request named ("Supervisory Organization"). */
export const labelOf = (b: Split) =>
  b.dimension === 'column' ? (b.column ?? 'column') : (DIMENSION_LABEL[b.dimension] ?? b.dimension);

/**
 * Which column a breakdown read, when another could hold the same dimension (ADR 0047): said in
 * the answer, and the other offered as a next step that breaks down by it.
 */
export function columnsUsed(
  answer: string[],
  nextSteps: string[],
  splits: Split[],
  what: string,
): void {
  for (const b of splits) {
    if (b.note) answer.push(b.note);
    if (!b.others?.length || !b.column) continue;
    answer.push(
      `By ${labelOf(b)}: the **${b.column}** column is used; ${list(b.others.map((o) => `**${o}**`))} could hold it too.`,
    );
    nextSteps.unshift(...b.others.map((o) => `Show ${what} by ${o} instead`));
  }
}

/**
 * The groups a request names ("in Sales", "for London"), among a result's groups. A group whose
 * name is also a common word ("People", "Operations") counts only when written as a name (its
 * capitals) or in a naming phrase ("in people", "the people team"): "why people are leaving" is
 * about everyone, not the People department.
 */
export function namedGroups<G extends { group: string }>(request: string, groups: G[]): G[] {
  const body = bodyOf(request);
  const escape = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const edge = (t: string) => `(^|[^\\p{L}\\p{N}])${t}($|[^\\p{L}\\p{N}])`;
  // "people are leaving", "Operations is": the word as the subject of a sentence, not a name.
  const subject = String.raw`(?!\s+(?:are|is|were|was|who|that|have|has|leave|leaving|left)\b)`;
  return groups.filter((g) => {
    if (g.group.length <= 1 || g.group === 'Not stated') return false;
    const name = escape(g.group.toLowerCase());
    if (!new RegExp(edge(name), 'iu').test(body)) return false;
    const asWritten = `(^|[^\\p{L}\\p{N}])${escape(g.group)}${subject}($|[^\\p{L}\\p{N}])`;
    if (g.group !== g.group.toLowerCase() && new RegExp(asWritten, 'u').test(body)) return true;
    const phrase = `(?:\\b(?:in|for|at|within|from|of)\\s+(?:the\\s+|our\\s+)?${name}${subject}|${name}\\s+(?:team|teams|department|dept|function|office|site|unit|division)\\b)`;
    return new RegExp(phrase, 'iu').test(body);
  });
}

/** An answer line for each group the request names ("in Sales"), in every breakdown. */
export function answerNamed<G extends { group: string }>(
  answer: string[],
  request: string,
  by: ReadonlyArray<{ groups: G[] }>,
  line: (g: G) => string,
): void {
  for (const b of by) for (const g of namedGroups(request, b.groups)) answer.push(line(g));
}

/** The currency of the pay figures, named when the file states one. */
export const currencyWords = (currencies: string[]) =>
  currencies.length === 1 ? `in ${currencies[0]}` : "in the file's currency";
