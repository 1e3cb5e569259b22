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
}

export const emptyReadingFacts = (): ReadingFacts => ({
  readings: [],
  confirmedAt: null,
  needs: [],
});

/** Takes in one tool result: read_tables' readings, any failed call's missing roles. */
export function noteToolResult(facts: ReadingFacts, tool: string, output: unknown): void {
  if (!output || typeof output !== 'object') return;
  const o = output as {
    readings?: TableReading[];
    confirmedAt?: string | null;
    needs?: ColumnRole[];
  };
  if (tool === 'read_tables' && Array.isArray(o.readings) && o.readings.length) {
    facts.readings = o.readings;
    facts.confirmedAt = o.confirmedAt ?? null;
  }
  if (Array.isArray(o.needs))
    for (const r of o.needs) if (!facts.needs.includes(r)) facts.needs.push(r);
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
  if (!facts.readings.length) return report;
  const content: ContentItem[] = report.content.filter((c) => c.type !== 'reading');
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
