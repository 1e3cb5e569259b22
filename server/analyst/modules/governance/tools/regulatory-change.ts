import { z } from 'zod';
import { defineTool, ToolError } from '../../../tools/tool';
import { withOutput } from '../capabilities/output';
import { contentWords, DATE_PATTERN, readDocuments, type ReadDocument } from '../read';
import { truncate } from '../sections';

const ObligationSchema = z.object({
  id: z.string(),
  text: z.string(),
  deadline: z.string().nullable(),
  /** The best-matching existing policy section, with how many key words they share. */
  mappedTo: z.object({ document: z.string(), section: z.string(), shared: z.number() }).nullable(),
  coverage: z.enum(['covered', 'partly covered', 'gap']),
  change: z.string(),
  ownerRole: z.string(),
});
export type Obligation = z.infer<typeof ObligationSchema>;
export const RegulatoryImpactOutput = z.object({
  regulation: z.string(),
  policies: z.array(z.string()),
  effectiveDate: z.string().nullable(),
  obligations: z.array(ObligationSchema),
  gaps: z.number(),
});
export type RegulatoryImpact = z.infer<typeof RegulatoryImpactOutput>;

const OBLIGATION =
  /\b(must|shall|are required to|is required to|are obliged to|has to|have to|no later than|is prohibited|are prohibited|must not|shall not)\b/i;
const OWNERS: Array<[RegExp, string]> = [
  [/\b(personal data|privacy|data subject|processing)\b/i, 'Data Protection Officer'],
  [/\b(security|cyber|incident|ict|resilien\w*)\b/i, 'Chief Information Security Officer'],
  [/\b(employee|staff|worker|pay|training|whistleblow\w*)\b/i, 'HR Director'],
  [/\b(financ\w*|capital|reporting|accounts?|audit)\b/i, 'Chief Financial Officer'],
  [/\b(supplier|outsourc\w*|third part\w*|contract)\b/i, 'Procurement lead'],
  [/\b(customer|consumer|complaint|vulnerable)\b/i, 'Customer operations director'],
];

function isRegulation(d: ReadDocument): boolean {
  return (
    /\b(regulation|directive|act|rules?|guidance|article|statutory instrument|consultation|handbook)\b/i.test(
      `${d.fileName} ${d.title}`,
    ) && !/\bpolicy\b/i.test(d.title)
  );
}

/**
 * Assesses a new regulation against existing policies: lists its obligations (sentences that
 * oblige or prohibit), maps each to the policy section that shares most of its key words, and
 * lists the changes with an owner role and the deadline the text gives.
 */
export const regulatoryChangeImpact = withOutput(
  RegulatoryImpactOutput,
  defineTool({
    name: 'regulatory_change_impact',
    description:
      "Assess a new regulation's impact: extract its obligations, map each to the closest section of the attached policies (shared key words), and list the changes needed with owner role and deadline. The regulation may be an attachment or text pasted in the message.",
    input: z.object({
      regulationText: z
        .string()
        .max(200_000)
        .optional()
        .describe('Regulation text pasted in the message'),
    }),
    async run(ctx, { regulationText }): Promise<RegulatoryImpact> {
      const { docs, problems } = await readDocuments(ctx);
      let regulation: { name: string; text: string } | null = null;
      let policies = docs;
      if (regulationText && regulationText.split(/\s+/).length >= 30)
        regulation = { name: 'the text in your message', text: regulationText };
      else {
        const reg =
          docs.find(isRegulation) ??
          (docs.length > 1 ? docs[0]! : null) ??
          (docs.length === 1 ? docs[0]! : null);
        if (reg) {
          regulation = { name: reg.fileName, text: reg.text };
          policies = docs.filter((d) => d !== reg);
        }
      }
      if (!regulation)
        throw new ToolError(
          problems[0] ??
            'No regulation text: paste its key text in the message or attach it as PDF, DOCX or text.',
        );
      const sentences = regulation.text
        .split(/(?<=[.;])\s+|\n/)
        .map((s) => s.trim())
        .filter((s) => s.length > 20 && OBLIGATION.test(s));
      const effective =
        /\b(?:comes? into (?:force|effect)|applies|apply|effective|in force)\s+(?:on|from)\s+([^.,;\n]{4,30})/i
          .exec(regulation.text)?.[1]
          ?.trim() ?? null;
      const sections = policies.flatMap((d) =>
        d.sections.map((s) => ({
          document: d.title || d.fileName,
          section: s.heading || '(untitled section)',
          words: contentWords(`${s.heading} ${s.body}`),
        })),
      );
      const obligations: Obligation[] = sentences.slice(0, 25).map((s, i) => {
        const words = contentWords(s);
        let best: Obligation['mappedTo'] = null;
        for (const sec of sections) {
          let shared = 0;
          for (const w of words) if (sec.words.has(w)) shared++;
          if (!best || shared > best.shared)
            best = { document: sec.document, section: sec.section, shared };
        }
        const ratio = best && words.size ? best.shared / words.size : 0;
        const coverage: Obligation['coverage'] =
          best && best.shared >= 4 && ratio >= 0.4
            ? 'covered'
            : best && best.shared >= 2
              ? 'partly covered'
              : 'gap';
        const deadline = DATE_PATTERN.exec(s)?.[0] ?? effective;
        return {
          id: `O${i + 1}`,
          text: truncate(s, 240),
          deadline,
          mappedTo: best && best.shared >= 2 ? best : null,
          coverage,
          change:
            coverage === 'covered'
              ? `Confirm that "${best!.section}" meets it; cite the regulation there`
              : coverage === 'partly covered'
                ? `Extend "${best!.section}" (${best!.document}) to cover it fully`
                : policies.length
                  ? 'Add a new section or procedure: no existing policy covers it'
                  : 'Write the policy wording: no policy was attached to map it to',
          ownerRole: OWNERS.find(([re]) => re.test(s))?.[1] ?? 'Compliance lead',
        };
      });
      return {
        regulation: regulation.name,
        policies: policies.map((p) => p.fileName),
        effectiveDate: effective,
        obligations,
        gaps: obligations.filter((o) => o.coverage !== 'covered').length,
      };
    },
  }),
);
