import { z } from 'zod';
import { defineTool } from '../../../tools/tool';
import { withOutput } from '../capabilities/output';
import { fileInput, readDocument } from '../read';
import { REGULATIONS, regulationNamed, unknownRegulationNamed } from '../regulations';
import { ConceptResultSchema, judgeConcepts } from '../sections';

const RegulationGapSchema = ConceptResultSchema.extend({
  /** The article (or section, or principle) it comes from. */
  ref: z.string(),
});
export type RegulationGap = z.infer<typeof RegulationGapSchema>;
export const RegulationCheckOutput = z.discriminatedUnion('known', [
  z.object({
    known: z.literal(true),
    regulation: z.object({
      id: z.string(),
      name: z.string(),
      citation: z.string(),
      scope: z.string(),
    }),
    fileName: z.string(),
    title: z.string(),
    items: z.array(RegulationGapSchema),
    met: z.number(),
    partly: z.number(),
    gaps: z.number(),
    notes: z.array(z.string()),
  }),
  z.object({ known: z.literal(false), asked: z.string(), held: z.array(z.string()) }),
]);
export type RegulationCheck = z.infer<typeof RegulationCheckOutput>;

/**
 * A policy compared with a named regulation's key obligations (held as data with their article
 * numbers, ADR 0061). An obligation counts as met when a section of the policy says what it
 * requires (its content, not its heading: a "Scope" heading does not list who is protected);
 * a heading that names it without the content is "partly". A regulation not held is said so.
 */
export const regulationCheck = withOutput(
  RegulationCheckOutput,
  defineTool({
    name: 'regulation_check',
    description: `Compare an attached policy with a named regulation's key obligations, each with its article number: met, partly met or a gap. Holds: ${REGULATIONS.map((r) => `${r.name} (${r.citation})`).join('; ')}. For another regulation it says it does not hold it.`,
    input: z.object({
      regulation: z.string().min(1).max(400).describe('The regulation as the user names it'),
      file: fileInput,
    }),
    async run(ctx, { regulation, file }): Promise<RegulationCheck> {
      const reg = regulationNamed(regulation);
      if (!reg)
        return {
          known: false,
          asked: unknownRegulationNamed(regulation) ?? regulation.slice(0, 80),
          held: REGULATIONS.map((r) => r.name),
        };
      const doc = await readDocument(ctx, file);
      const judged = judgeConcepts(
        doc,
        reg.obligations.map((o, i) => ({
          key: `${i}`,
          label: o.label,
          guidance: o.requirement,
          names: [],
          cues: o.cues,
          minCues: o.minCues ?? 1,
        })),
      );
      const items: RegulationGap[] = judged.map((r, i) => {
        const o = reg.obligations[i]!;
        const ref = o.ref;
        if (r.status !== 'missing') return { ...r, ref };
        const named = doc.sections.find((s) => {
          const h = ` ${s.heading.toLowerCase().replace(/[^a-z0-9]+/g, ' ')} `;
          return o.names.some((n) => h.includes(` ${n} `));
        });
        return named
          ? {
              ...r,
              ref,
              status: 'partial' as const,
              section: named.heading,
              matchedBy: 'heading' as const,
            }
          : { ...r, ref };
      });
      return {
        known: true,
        regulation: { id: reg.id, name: reg.name, citation: reg.citation, scope: reg.scope },
        fileName: doc.fileName,
        title: doc.title,
        items,
        met: items.filter((i) => i.status === 'covered').length,
        partly: items.filter((i) => i.status === 'partial').length,
        gaps: items.filter((i) => i.status === 'missing').length,
        notes: doc.notes,
      };
    },
  }),
);
