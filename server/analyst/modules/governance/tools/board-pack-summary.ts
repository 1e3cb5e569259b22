import { z } from 'zod';
import { documentTool } from '../capabilities/output';
import { truncate } from '../sections';

const BoardDecisionSchema = z.object({
  /** "approve", "note", "agree" ...: what the board is asked to do. */
  ask: z.string(),
  text: z.string(),
  paper: z.string().nullable(),
});
export type BoardDecision = z.infer<typeof BoardDecisionSchema>;
const KeyFigureSchema = z.object({
  /** The figure as written: "£4.2m", "12%", "38 FTE". */
  value: z.string(),
  context: z.string(),
  paper: z.string().nullable(),
});
export type KeyFigure = z.infer<typeof KeyFigureSchema>;
const RaisedRiskSchema = z.object({ text: z.string(), paper: z.string().nullable() });
export type RaisedRisk = z.infer<typeof RaisedRiskSchema>;
export const BoardPackSummaryOutput = z.object({
  fileName: z.string(),
  title: z.string(),
  papers: z.array(z.string()),
  decisions: z.array(BoardDecisionSchema),
  figures: z.array(KeyFigureSchema),
  risks: z.array(RaisedRiskSchema),
  questions: z.array(z.string()),
  /** The two-page briefing as markdown (at most about 1,000 words). */
  briefing: z.string(),
  briefingWords: z.number(),
});
export type BoardPackSummary = z.infer<typeof BoardPackSummaryOutput>;

const DECISION =
  /\b(?:the (?:board|committee|directors?) (?:is|are) (?:also )?(?:asked|invited|requested|recommended) to|(?:board|committee) (?:is asked|approval is sought|is invited) to|recommendation\s*:|we recommend that the (?:board|committee)|decision (?:required|sought|requested)\s*:?|for (?:approval|decision)\s*:)\s*(?:to\s+)?(approve|note|agree|endorse|ratify|authori[sz]e|consider|adopt|confirm|delegate|review|discuss)?/i;
const ASK_VERB =
  /\b(approve|note|agree|endorse|ratify|authori[sz]e|consider|adopt|confirm|delegate)\b/i;
/** Money, percentages and counted units, as board papers write them. */
const FIGURE =
  /(?:[£$€]\s?\d[\d,]*(?:\.\d+)?\s?(?:m|bn|k|million|billion|thousand)?\b|\b\d[\d,]*(?:\.\d+)?\s?(?:%|per ?cent|pp|percentage points?|m\b|bn\b|fte\b|headcount\b|days\b|months\b|customers\b|employees\b|staff\b))/gi;
const RISK =
  /\b(risks?|concern\w*|exposure|threats?|breach(?:es)?|shortfall|overruns?|delays?|covenant|adverse|uncertain(?:ty)?|vulnerab\w+|litigation|claims?|downgrade|headroom|material weakness|non-compliance|attrition|cyber|incident)\b/i;

function sentences(body: string): string[] {
  // PDF text comes as wrapped lines: a line that does not end a sentence continues on the next.
  return body
    .replace(/([^.!?:;])\n(?=[a-z0-9£$€(])/g, '$1 ')
    .split(/(?<=[.!?])\s+(?=[A-Z0-9"“(£$€])|\n/)
    .map((s) => s.replace(/^[-*•–]\s*/, '').trim())
    .filter((s) => s.length > 3);
}

const wordsIn = (s: string) => (s.match(/\S+/g) ?? []).length;

/**
 * Summarises board papers into a briefing: the decisions asked of the board (from "the Board is
 * asked to ...", "Recommendation:", "Decision required"), the key figures (money, percentages,
 * counts, with their sentence), the risks raised, and the questions a non-executive director
 * should ask about each. The text is the papers' own words: nothing is invented.
 */
export const boardPackSummary = documentTool(BoardPackSummaryOutput, {
  name: 'board_pack_summary',
  description:
    'Summarise attached board papers into a two-page briefing: decisions asked of the board, key figures with their context, risks raised, and questions a non-executive director should ask. Quotes the papers; invents nothing.',
  read(doc): BoardPackSummary {
    const decisions: BoardDecision[] = [];
    const figures: KeyFigure[] = [];
    const risks: RaisedRisk[] = [];
    const papers: string[] = [];
    const seenFigures = new Set<string>();
    for (const section of doc.sections) {
      const paper = section.heading || null;
      if (
        paper &&
        /\b(paper|report|update|item|proposal|review|budget|plan|strategy|accounts|risk|finance|people)\b/i.test(
          paper,
        )
      )
        papers.push(paper);
      const lines = sentences(section.body);
      lines.forEach((s, i) => {
        for (const m of s.matchAll(FIGURE)) {
          const value = m[0].trim();
          const key = `${value}|${s}`;
          if (seenFigures.has(key) || /^\d{1,2}\s?(days|months)$/i.test(value)) continue;
          seenFigures.add(key);
          figures.push({ value, context: truncate(s, 200), paper });
        }
        const d = DECISION.exec(s);
        if (d) {
          // "The Board is asked to:" followed by a list: each list line is a decision.
          const rest = s.slice(d.index + d[0].length).trim();
          const ask = (d[1] ?? ASK_VERB.exec(rest)?.[1] ?? 'decide').toLowerCase();
          if (rest.length > 3) decisions.push({ ask, text: truncate(s, 220), paper });
          else
            for (const next of lines.slice(i + 1, i + 6)) {
              if (!ASK_VERB.test(next.split(/\s+/).slice(0, 2).join(' '))) break;
              decisions.push({
                ask: ASK_VERB.exec(next)![1]!.toLowerCase(),
                text: truncate(next, 220),
                paper,
              });
            }
          return;
        }
        if (RISK.test(s) && !/^(risk|risks)$/i.test(s))
          risks.push({ text: truncate(s, 220), paper });
      });
    }
    // One line per sentence: its figures together, the sentence as their context.
    const byContext = new Map<string, KeyFigure>();
    for (const f of figures) {
      const seen = byContext.get(f.context);
      if (seen) seen.value = `${seen.value}, ${f.value}`;
      else byContext.set(f.context, { ...f });
    }
    const keyFigures = [...byContext.values()].slice(0, 12);
    const keyRisks = dedupe(risks).slice(0, 10);
    const questions = questionsFor(decisions, keyFigures, keyRisks);
    const briefing = briefingOf(
      doc.title,
      doc.fileName,
      decisions,
      keyFigures,
      keyRisks,
      questions,
    );
    return {
      fileName: doc.fileName,
      title: doc.title,
      papers,
      decisions,
      figures: keyFigures,
      risks: keyRisks,
      questions,
      briefing,
      briefingWords: wordsIn(briefing),
    };
  },
});

function dedupe<T extends { text: string }>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((i) => !seen.has(i.text) && seen.add(i.text));
}

/** Questions a non-executive director would ask, one per decision, risk and moving figure. */
function questionsFor(
  decisions: BoardDecision[],
  figures: KeyFigure[],
  risks: RaisedRisk[],
): string[] {
  const q: string[] = [];
  for (const d of decisions.slice(0, 4)) {
    const subject = truncate(
      /\b(?:approve|note|agree|endorse|ratify|authori[sz]e|consider|adopt|confirm|delegate)\s+(.+?)[.;]?$/i.exec(
        d.text,
      )?.[1] ?? d.text,
      90,
    );
    q.push(
      d.ask === 'note'
        ? `On "${subject}": what would have to change for this to come back as a decision, and when?`
        : `Before we ${d.ask} "${subject}": what alternatives were considered, what does it cost if it goes wrong, and who is accountable for delivery?`,
    );
  }
  for (const r of risks.slice(0, 4))
    q.push(
      `On the risk "${truncate(r.text, 90)}": who owns it, what is the mitigation, and when will the board see it again?`,
    );
  for (const f of figures
    .filter((x) =>
      /\b(below|above|behind|ahead|down|up|increase|decrease|fell|rose|variance|against (budget|plan|target))\b/i.test(
        x.context,
      ),
    )
    .slice(0, 3))
    q.push(
      `What explains ${f.value} ("${truncate(f.context, 80)}"), and is it a trend or a one-off?`,
    );
  if (!q.length)
    q.push(
      'What decision is the board being asked to take, and by when?',
      'Which risks in these papers are outside appetite, and who owns them?',
    );
  return q;
}

function briefingOf(
  title: string,
  fileName: string,
  decisions: BoardDecision[],
  figures: KeyFigure[],
  risks: RaisedRisk[],
  questions: string[],
): string {
  const where = (p: string | null) => (p ? ` _(${p})_` : '');
  const parts = [
    `# Board briefing: ${title}`,
    '',
    `Two-page briefing prepared from ${fileName}. Every line below quotes or restates the papers.`,
    '',
    '## Decisions asked of the board',
    '',
    ...(decisions.length
      ? decisions.map(
          (d, i) =>
            `${i + 1}. **${d.ask[0]!.toUpperCase()}${d.ask.slice(1)}**: ${d.text}${where(d.paper)}`,
        )
      : ['No paper states a decision for the board: the pack appears to be for noting.']),
    '',
    '## Key figures',
    '',
    ...(figures.length
      ? figures.map((f) => `- **${f.value}**: ${f.context}${where(f.paper)}`)
      : ['- The papers state no figures.']),
    '',
    '## Risks raised',
    '',
    ...(risks.length
      ? risks.map((r) => `- ${r.text}${where(r.paper)}`)
      : ['- The papers raise no risk in words.']),
    '',
    '## Questions a non-executive director should ask',
    '',
    ...questions.map((q, i) => `${i + 1}. ${q}`),
    '',
  ];
  // Two pages is about 1,000 words: trim the longest lists first if the papers are long.
  let out = parts.join('\n');
  while (wordsIn(out) > 1000 && figures.length + risks.length > 4) {
    if (figures.length >= risks.length) figures = figures.slice(0, -1);
    else risks = risks.slice(0, -1);
    out = briefingOf(title, fileName, decisions, figures, risks, questions);
  }
  return out;
}
