import { z } from 'zod';
import { tablesIn } from '../../../tools/documents';
import { defineTool } from '../../../tools/tool';
import { withOutput } from '../capabilities/output';
import { CHECKLIST_KEYS, CHECKLISTS } from '../checklists';
import { detectLanguage } from '../../../tools/language';
import { fileInput, readDocument, type ReadDocument } from '../read';
import { splitDocument } from '../sections';
import { ConceptResultSchema, coverageScore, judgeConcepts } from '../sections';

export const ChecklistOutput = z.object({
  fileName: z.string(),
  title: z.string(),
  checklist: z.enum(CHECKLIST_KEYS),
  checklistLabel: z.string(),
  language: z.string(),
  score: z.number(),
  applicable: z.number(),
  items: z.array(ConceptResultSchema),
  notes: z.array(z.string()),
});
export type ChecklistResult = z.infer<typeof ChecklistOutput>;

/**
 * Checks a document against a governance checklist by meaning: each item is covered when a
 * section's heading names it in any usual wording or its content does what the item asks,
 * partial when only mentioned, missing otherwise; with the section and a quote as evidence.
 */
export const checklistCoverage = withOutput(
  ChecklistOutput,
  defineTool({
    name: 'checklist_coverage',
    description:
      'Check an attached document against a governance checklist (policy sections, acceptable use topics, committee terms of reference, GDPR readiness, anti-bribery controls, AI governance). Sections are judged by their content, not only their headings. Returns each item as covered, partial (mentioned only), missing or not applicable, with the section and a quote, and a coverage score (covered 1, partial 0.5).',
    input: z.object({
      checklist: z.enum(CHECKLIST_KEYS).default('policy'),
      file: fileInput,
      text: z
        .string()
        .max(400_000)
        .optional()
        .describe('A policy pasted in the message, when no file holds it'),
    }),
    async run(ctx, { checklist, file, text }): Promise<ChecklistResult> {
      const doc: ReadDocument = text
        ? {
            ...splitDocument(text),
            fileName: 'the text of your message',
            language: detectLanguage(text),
            tables: tablesIn(text),
            notes: [],
          }
        : await readDocument(ctx, file);
      const list = CHECKLISTS[checklist];
      const items = judgeConcepts(doc, list.concepts);
      const notes = [...doc.notes];
      if (!doc.language.english)
        notes.push(
          `${doc.fileName} reads as ${doc.language.name}: the checklist's cues are English, so items may show as missing when the text covers them in ${doc.language.name}. Check the gaps by hand or attach the English version.`,
        );
      return {
        fileName: doc.fileName,
        title: doc.title,
        checklist,
        checklistLabel: list.label,
        language: doc.language.name,
        ...coverageScore(items),
        items,
        notes,
      };
    },
  }),
);
