import { z } from 'zod';
import { CELL_SEPARATOR, type DocumentTable } from '../../../tools/documents';
import { defineTool } from '../../../tools/tool';
import { withOutput } from '../capabilities/output';
import { contentWords, fileInput, readDocument } from '../read';
import { truncate } from '../sections';

const PassageSchema = z.object({
  clause: z.string().nullable(),
  heading: z.string(),
  text: z.string(),
});
export type Passage = z.infer<typeof PassageSchema>;
const TableAnswerSchema = z.object({
  caption: z.string(),
  clause: z.string().nullable(),
  header: z.array(z.string()),
  rows: z.array(z.array(z.string())),
  /** The rows that answer the question (all of them when it asks for the whole table). */
  matched: z.array(z.array(z.string())),
  /** The amount the question asks about, as written ("50,000"). */
  amount: z.string().nullable(),
});
export type TableAnswer = z.infer<typeof TableAnswerSchema>;
export const DocumentAnswerOutput = z.object({
  fileName: z.string(),
  title: z.string(),
  question: z.string(),
  table: TableAnswerSchema.nullable(),
  passages: z.array(PassageSchema),
});
export type DocumentAnswer = z.infer<typeof DocumentAnswerOutput>;

const CLAUSE = /^((?:\d+\.)*\d+)[.)]?\s+\S/;
/** Words people use for what policies write otherwise: "keep" for "retain". */
const SYNONYMS: Array<[RegExp, string]> = [
  [/\b(keep|kept|store|hold)\b/i, 'retain retention kept period'],
  [/\b(delete|destroy|get rid)\b/i, 'deletion destroyed disposal'],
  [/\b(approve|sign off|authori[sz]e|ok)\b/i, 'approval approver authorise'],
  [/\bcvs?\b|\bresumes?\b/i, 'applicant candidate unsuccessful recruitment'],
  [/\b(report|raise|speak up)\b/i, 'concern report'],
  [/\b(who)\b/i, ''],
  [/\bhow (long|often)\b/i, 'period'],
];

function passagesOf(textContent: string): Passage[] {
  const out: Passage[] = [];
  let heading = '';
  let headingClause: string | null = null;
  for (const raw of textContent.split('\n')) {
    const line = raw.trim();
    if (!line || line.includes(CELL_SEPARATOR)) continue;
    const num = CLAUSE.exec(line)?.[1] ?? null;
    const short = line.split(/\s+/).length <= 9 && !/[.;:]$/.test(line);
    if (short) {
      heading = line.replace(CLAUSE.exec(line) ? /^((?:\d+\.)*\d+)[.)]?\s+/ : /^$/, '');
      headingClause = num;
      continue;
    }
    out.push({ clause: num ?? headingClause, heading, text: line });
  }
  return out;
}

const words = (s: string) => contentWords(s);

/** A threshold cell as a range: "Up to £10,000", "£10,001 to £50,000", "Over £50,000". */
export function rangeOf(cell: string): [number, number] | null {
  const nums = [...cell.matchAll(/(\d[\d,]*(?:\.\d+)?)\s*(k|m|million|thousand)?\b/gi)].map((m) => {
    const n = Number(m[1]!.replace(/,/g, ''));
    const unit = (m[2] ?? '').toLowerCase();
    return unit === 'k' || unit === 'thousand' ? n * 1000 : unit ? n * 1_000_000 : n;
  });
  if (!nums.length) return null;
  if (
    /\b(over|above|more than|exceed\w*|greater than|from)\b|>|\+\s*$/i.test(cell) &&
    nums.length === 1
  )
    return [nums[0]! + (/\bfrom\b/i.test(cell) ? 0 : 0.01), Infinity];
  if (
    /\b(up to|under|below|less than|not exceeding|maximum|max)\b|<|≤/i.test(cell) ||
    nums.length === 1
  )
    return [0, nums[0]!];
  return [nums[0]!, nums[1]!];
}

function clauseOfTable(textContent: string, t: DocumentTable): string | null {
  const first = t.rows[0]!.join(CELL_SEPARATOR);
  let clause: string | null = null;
  for (const raw of textContent.split('\n')) {
    const line = raw.trim();
    if (line === first) return clause;
    const n = CLAUSE.exec(line)?.[1];
    if (n && !line.includes(CELL_SEPARATOR)) clause = n;
  }
  return clause;
}

/**
 * Answers a direct question about a document from the document: a table that answers it (an
 * approval matrix for "who can approve a purchase over 50,000?", every level for "what are the
 * approval levels?"), else the paragraphs that answer it, each with its clause number.
 */
export const documentAnswer = withOutput(
  DocumentAnswerOutput,
  defineTool({
    name: 'document_answer',
    description:
      "Answer a direct question about an attached document from its content: reads its tables (approval matrices, thresholds, schedules: the matching rows, or every row when the question asks for the whole table) and its clauses (the paragraphs that answer, with clause numbers). Use for 'who can approve…', 'how long do we keep…', 'what are the approval levels…'.",
    input: z.object({
      question: z.string().min(1).max(2000),
      file: fileInput,
    }),
    async run(ctx, { question, file }): Promise<DocumentAnswer> {
      const doc = await readDocument(ctx, file);
      const expanded = `${question} ${SYNONYMS.filter(([re]) => re.test(question))
        .map(([, w]) => w)
        .join(' ')}`;
      const q = words(expanded);
      const amountMatch = /(?:£|€|\$|\b)(\d[\d,]*(?:\.\d+)?)\s*(k|m|million|thousand)?\b/i.exec(
        question.replace(/\b(19|20)\d\d\b/g, ''),
      );
      const amount = amountMatch
        ? (rangeOf(`${amountMatch[1]}${amountMatch[2] ?? ''}`)?.[1] ?? null)
        : null;
      const above = /\b(over|above|more than|exceed\w*|greater than)\b/i.test(question);

      let table: TableAnswer | null = null;
      let best = 0;
      for (const t of doc.tables) {
        const tw = words(`${t.caption} ${t.rows[0]!.join(' ')}`);
        const cellWords = words(t.rows.slice(1).flat().join(' '));
        let score = 0;
        for (const w of q) score += tw.has(w) ? 2 : cellWords.has(w) ? 1 : 0;
        if (score <= best) continue;
        best = score;
        const [header, ...rows] = t.rows as [string[], ...string[][]];
        let matched = rows;
        const rangeCol = header.findIndex(
          (h, i) =>
            /threshold|limit|value|amount|spend|range|up to|£|€|\$/i.test(h) ||
            (i > 0 &&
              rows.filter((r) => rangeOf(r[i] ?? '')).length === rows.length &&
              /\d{3}/.test(rows.map((r) => r[i]).join(''))),
        );
        if (amount !== null && rangeCol >= 0) {
          matched = rows.filter((r) => {
            const range = rangeOf(r[rangeCol] ?? '');
            if (!range) return false;
            return above ? range[1] > amount : range[0] <= amount && amount <= range[1];
          });
        } else {
          // Rows named in the question ("CVs"): the rows whose first cells share its words.
          const named = rows.filter((r) => {
            const rw = words(r.slice(0, 2).join(' '));
            return [...q].some((w) => rw.has(w) && !tw.has(w));
          });
          if (named.length && named.length < rows.length) matched = named;
        }
        table = {
          caption: t.caption,
          clause: clauseOfTable(doc.text, t),
          header,
          rows,
          matched,
          amount: amount !== null ? amountMatch![0].trim() : null,
        };
      }

      const scored = passagesOf(doc.text)
        .map((p) => {
          const pw = words(p.text);
          const hw = words(p.heading);
          let score = 0;
          for (const w of q) score += pw.has(w) ? 2 : hw.has(w) ? 1 : 0;
          if (
            /\bhow (long|often)\b/i.test(question) &&
            /\b\d+\s+(years?|months?|weeks?|days?)\b|\b(one|two|three|four|five|six|seven|ten|twelve)\s+(years?|months?|weeks?|days?)\b/i.test(
              p.text,
            )
          )
            score += 3;
          if (
            /^\s*who\b/i.test(question) &&
            /\b(director|manager|officer|board|head of|committee|chief|ceo|cfo)\b/i.test(p.text)
          )
            score += 2;
          return { p, score };
        })
        .filter((s) => s.score >= 3)
        .sort((a, b) => b.score - a.score);
      const top = scored[0]?.score ?? 0;
      const passages = scored
        .filter((s) => s.score >= top * 0.6)
        .slice(0, 3)
        .map((s) => ({ ...s.p, text: truncate(s.p.text, 400) }));
      // A table that shares few words with the question is not its answer when a clause is.
      if (table && best < 3 && passages.length) table = null;
      return { fileName: doc.fileName, title: doc.title, question, table, passages };
    },
  }),
);
