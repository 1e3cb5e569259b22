import { z } from 'zod';
import { defineTool, ToolError } from '../../../tools/tool';
import { reviewCopy, type CopyReview } from '../copy-review';
import { rulesFrom, type BrandRules } from '../guidelines';
import { readDocs } from '../read';

export interface CopyReviewResult {
  rules: BrandRules;
  reviews: CopyReview[];
  /**
   * The company library's guidelines (ADR 0069): applied when none is attached; when one is,
   * the attachment wins (`applied` false) and the report says so.
   */
  library?: {
    source: string;
    applied: boolean;
    passages: Array<{ citation: string; link: string; text: string }>;
  };
}

/**
 * Reviews copy against the brand's own rules: the attached guidelines (applied, not reviewed) and
 * any rules in the message, defaults only for what neither states. Banned words match every
 * inflection; passive voice comes from the tagger; readability and word lists only for English.
 */
export const copyReview = defineTool({
  name: 'copy_review',
  description:
    "Review copy against the brand's rules: applies attached brand guidelines (banned words in every inflection, preferred wording in any phrasing, sentence length, voice) plus rules stated in `voice`; readability, passive voice and jargon for English copy only. Returns measures, line-by-line findings, scores and a rewritten version.",
  input: z.object({
    text: z.string().max(200_000).optional().describe('Copy pasted in the message'),
    voice: z
      .string()
      .max(4000)
      .optional()
      .describe('Rules stated in the message: voice, banned words, preferences'),
    library: z
      .object({
        source: z.string().max(300),
        text: z.string().max(200_000),
        passages: z
          .array(z.object({ citation: z.string(), link: z.string(), text: z.string() }))
          .max(50),
      })
      .optional()
      .describe("The company library's guidelines (search_knowledge), used when none is attached"),
  }),
  async run(ctx, { text, voice, library }): Promise<CopyReviewResult> {
    const { docs, problems } = await readDocs(ctx);
    const guide = docs.find((d) => d.guidelines) ?? null;
    const fromLibrary = !guide && library ? library : null;
    const rules = rulesFrom(
      guide?.text ?? fromLibrary?.text ?? null,
      voice ?? '',
      guide
        ? guide.fileName
        : fromLibrary
          ? `${fromLibrary.source} (company library)`
          : voice
            ? 'your message'
            : 'the default voice',
    );
    const copies = [
      ...docs.filter((d) => d !== guide).map((d) => ({ source: d.fileName, text: d.text })),
      ...(text ? [{ source: 'the copy in your message', text }] : []),
    ];
    if (!copies.length)
      throw new ToolError(
        problems[0] ??
          (guide
            ? `Only the guidelines (${guide.fileName}) are attached: attach or paste the copy to check against them.`
            : 'No copy to review: paste it in the message or attach it.'),
      );
    return {
      rules,
      reviews: copies.slice(0, 5).map((c) => reviewCopy(c.text, rules, c.source)),
      ...(library
        ? {
            library: {
              source: library.source,
              applied: fromLibrary !== null,
              passages: library.passages,
            },
          }
        : {}),
    };
  },
});
