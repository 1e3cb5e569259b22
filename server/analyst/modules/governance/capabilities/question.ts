import { plural } from '../../../report/words';
import { laidOut, section, table, type Section } from '../../../report/section';
import { list } from '../../report-parts';
import { isDocumentQuestion } from '../intent';
import { documentAnswer, type DocumentAnswer } from '../tools/document-answer';
import { defineGovernance } from './define';
import { documents } from './inputs';

const clauseOf = (c: string | null) => (c ? `clause ${c}` : null);

function documentAnswerReport(a: DocumentAnswer): Section {
  const where = `${a.title} (${a.fileName})`;
  // Each block is one text; the first is the answer.
  const blocks: string[][] = [];
  if (a.table) {
    const t = a.table;
    const ref = clauseOf(t.clause);
    const cells = (row: string[]) =>
      row
        .slice(1)
        .map((c, i) => (c ? `${t.header[i + 1]}: ${c}` : ''))
        .filter(Boolean)
        .join('; ');
    const lead = !t.matched.length
      ? `No row of the table${ref ? ` in ${ref}` : ''} of ${where} matches ${t.amount ?? 'the question'}.`
      : t.amount
        ? `Under ${ref ?? 'the table'} of ${where}, for ${t.amount} the table says:`
        : `${where} sets ${plural(t.matched.length, 'row')} in ${ref ? `${ref} (${t.caption})` : `"${t.caption || 'its table'}"`}:`;
    const asGiven = table<string[]>(
      t.header.map((header, i) => ({ header, value: (row) => row[i] })),
      t.rows,
    );
    blocks.push(
      [lead, ...t.matched.map((row) => `- **${t.header[0]} ${row[0]}**: ${cells(row)}`)],
      [`### The table as the document gives it${ref ? ` (${ref})` : ''}`, '', asGiven.markdown()],
    );
  }
  if (a.passages.length) {
    const quotes = a.passages.map(
      (p) =>
        `> ${p.text}\n>\n> — ${[clauseOf(p.clause) ?? 'unnumbered paragraph', p.heading ? `"${p.heading}"` : ''].filter(Boolean).join(', ')}`,
    );
    blocks.push([
      a.table
        ? 'The clauses that also bear on it:'
        : `${where} answers it in ${list(a.passages.map((p) => clauseOf(p.clause) ?? `"${p.heading || 'an unnumbered paragraph'}"`))}:`,
      '',
      quotes.join('\n\n'),
    ]);
  }
  const [answer, ...rest] = blocks.length
    ? blocks
    : [
        [
          `${where} does not say: no clause or table in it answers "${a.question.trim()}". Check the question's wording, or attach the document that covers it.`,
        ],
      ];
  return section(`${a.title}: ${a.question.trim().replace(/\?$/, '')}`.slice(0, 120), {
    answer,
    content: rest.flatMap((b) => laidOut(b)),
  });
}

/** A question about a document's content, answered from its clauses and tables. */
export const question = defineGovernance({
  task: {
    key: 'question',
    title: 'Answer from the document',
    asked: (request, files) =>
      files.some((f) => f.kind === 'document') && isDocumentQuestion(request),
    partWords:
      /(?:^|\b(?:and|also|then)\s+|[.?!;,]\s*)(?:what|who|whom|which|when|where|how|list|show me|tell me|give me)\b(?:(?!\band\b)[^.?!;,\n])*/i,
  },
  tool: documentAnswer,
  plan: (ctx, request) =>
    documents(ctx)
      .slice(0, 1)
      .map((d) => ({
        tool: documentAnswer.name,
        input: { question: request.slice(0, 2000), file: d.fileName },
      })),
  render: documentAnswerReport,
});
