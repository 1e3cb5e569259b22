import type { ColumnRole, TableReading } from '@contract/reading';
import type { ContentItem, StructuredResponse } from '@contract/structured-response';
import { roleLabel } from '../tables/how-i-read';

/**
 * The "Check how I read this file" card every table report ends its reading notes with (ADR
 * 0051), added by the turn from read_tables' own result, so the builtin analyst and real models
 * carry the same reading. When a figure needs a role the reading lacks, the answer is the card
 * asking for exactly those roles, not a refusal and not a guess.
 */

/** What one turn's tool calls said about the reading. */
export interface ReadingFacts {
  readings: TableReading[];
  confirmedAt: string | null;
  needs: ColumnRole[];
  /** The headers a register review says it used, by the table's source ("file.xlsx, sheet Risks"). */
  used: Map<string, string[]>;
}

export const emptyReadingFacts = (): ReadingFacts => ({
  readings: [],
  confirmedAt: null,
  needs: [],
  used: new Map(),
});

/** Takes in one tool result: read_tables' readings, any failed call's missing roles. */
export function noteToolResult(facts: ReadingFacts, tool: string, output: unknown): void {
  if (!output || typeof output !== 'object') return;
  const o = output as {
    readings?: TableReading[];
    confirmedAt?: string | null;
    needs?: ColumnRole[];
    source?: unknown;
    columns?: unknown;
  };
  // A register review's `columns`: each field it read, with the header it read it from.
  if (typeof o.source === 'string' && o.columns && typeof o.columns === 'object') {
    const headers = Object.values(o.columns).filter((v): v is string => typeof v === 'string');
    const known = facts.used.get(o.source) ?? [];
    facts.used.set(o.source, [...new Set([...known, ...headers])]);
  }
  if (tool === 'read_tables' && Array.isArray(o.readings) && o.readings.length) {
    facts.readings = o.readings;
    facts.confirmedAt = o.confirmedAt ?? null;
  }
  if (Array.isArray(o.needs))
    for (const r of o.needs) if (!facts.needs.includes(r)) facts.needs.push(r);
}

/**
 * The roles a question names as a breakdown or a measure ("by department", "pay gap"), each with
 * the roles that answer it; a question whose role no table holds is answered with the card.
 */
const ASKED: Array<{ words: RegExp; role: ColumnRole; answeredBy: ColumnRole[] }> = [
  {
    words: /\bby (department|team|function|division|business unit)s?\b/i,
    role: 'department',
    answeredBy: ['department', 'costCentre'],
  },
  { words: /\bby country\b|\bper country\b/i, role: 'country', answeredBy: ['country'] },
  {
    words: /\bby (location|site|office)s?\b/i,
    role: 'location',
    answeredBy: ['location', 'country'],
  },
  { words: /\bby (grade|level|band)s?\b/i, role: 'level', answeredBy: ['level'] },
  { words: /\bby gender\b|\bgender pay\b|\bpay gap\b/i, role: 'gender', answeredBy: ['gender'] },
  {
    words: /\b(salary|salaries|pay|compensation)\b/i,
    role: 'salary',
    answeredBy: ['salary', 'hourlyRate'],
  },
];

/** The roles the question asks for that no person-level table of the reading holds. */
export function rolesMissingFor(request: string, readings: TableReading[]): ColumnRole[] {
  const people = readings.filter((r) => r.shape !== 'aggregate');
  if (!people.length) return [];
  const held = new Set(people.flatMap((r) => r.columns.flatMap((c) => (c.role ? [c.role] : []))));
  return ASKED.filter((a) => a.words.test(request) && !a.answeredBy.some((r) => held.has(r))).map(
    (a) => a.role,
  );
}

const list = (xs: string[]) =>
  xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`;

/** The one line above a card that asks for roles. */
export function needsLine(needs: ColumnRole[]): string {
  const what = list(needs.map(roleLabel));
  return `To answer this I need to know which column holds the ${what}. Pick ${needs.length > 1 ? 'them' : 'it'} in the card below and choose "Re-run with this reading".`;
}

/** The report with the card after its reading notes, or the card alone asking for roles. */
export function withReadingCard(
  report: StructuredResponse,
  facts: ReadingFacts,
): StructuredResponse {
  // A card is only ever the engine's reading: one a model wrote itself is dropped.
  const content: ContentItem[] = report.content.filter((c) => c.type !== 'reading');
  if (!facts.readings.length)
    return content.length === report.content.length ? report : { ...report, content };
  const card: ContentItem = {
    type: 'reading',
    readings: facts.readings,
    ...(facts.needs.length ? { needs: facts.needs } : {}),
    ...(facts.confirmedAt ? { confirmedAt: facts.confirmedAt } : {}),
  };
  if (facts.needs.length)
    return {
      ...report,
      content: [{ type: 'text', text: needsLine(facts.needs) }, card],
      next_steps: [],
    };
  const notes = content.findIndex(
    (c) => c.type === 'text' && /#+ How I read your file/.test(c.text),
  );
  if (notes >= 0) content.splice(notes + 1, 0, card);
  else content.push(card);
  return { ...report, content };
}

const sourceOf = (r: TableReading) => (r.sheet ? `${r.fileName}, sheet ${r.sheet}` : r.fileName);

/**
 * A Governance register's reading: its columns are the register's own (owner, likelihood,
 * interest), not the workforce roles the table reader guesses from headers, so the card carries
 * no role, no person key and no pay settings, and lists the columns the review says it used when
 * it says so (ADR 0103).
 */
export function registerReading(r: TableReading, used: string[] | undefined): TableReading {
  return {
    ...r,
    columns: r.columns
      .filter((c) => !used || used.includes(c.name))
      .map((c) => ({ name: c.name, role: null })),
    personKey: null,
    payBasis: null,
    fullTimeHours: null,
    currency: null,
    ratingScale: null,
  };
}

/**
 * The whole card step of a turn: the reading and needs its tool results carry, the roles a
 * workforce question names and no column holds, then the card in the report. Idempotent, so the
 * builtin applies it to the report it streams and the turn again to every provider's answer.
 */
export function applyReadingCard(
  report: StructuredResponse,
  results: Array<{ tool: string; output: unknown }>,
  request: string,
  module: string,
): StructuredResponse {
  const facts = emptyReadingFacts();
  for (const r of results) noteToolResult(facts, r.tool, r.output);
  if (module === 'talent-intelligence')
    for (const role of rolesMissingFor(request, facts.readings))
      if (!facts.needs.includes(role)) facts.needs.push(role);
  if (module === 'governance')
    facts.readings = facts.readings.map((r) => registerReading(r, facts.used.get(sourceOf(r))));
  return withReadingCard(report, facts);
}
