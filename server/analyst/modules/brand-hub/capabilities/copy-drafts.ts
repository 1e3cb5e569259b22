import { z } from 'zod';
import { defineCapability } from '../../../capability';
import { laidOut, section, type Section } from '../../../report/section';
import { defineTool } from '../../../tools/tool';
import { reviewCopy } from '../copy-review';
import { BrandRulesSchema, rulesFrom, rulesLine } from '../guidelines';
import { readDocs } from '../read';

const Output = z.object({
  kind: z.string(),
  subject: z.string(),
  drafts: z.array(z.object({ text: z.string(), findings: z.array(z.string()) })),
  rules: BrandRulesSchema,
  /** True when attached guidelines were applied. */
  guided: z.boolean(),
});
export type CopyDrafts = z.infer<typeof Output>;

const NUMBERS: Record<string, number> = {
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  a: 1,
  one: 1,
};

const TEMPLATES: Record<string, Array<(s: string) => string>> = {
  tagline: [
    (s) => `${s}, made simple.`,
    (s) => `Everything you need for ${s}.`,
    (s) => `${s} starts here.`,
    (s) => `More ${s}, less fuss.`,
    (s) => `Your ${s}, sorted.`,
  ],
  headline: [
    (s) => `${s} is here: see what is new`,
    (s) => `Get ready for ${s}`,
    (s) => `${s}: the best of it, in one place`,
    (s) => `Five things to love about ${s}`,
    (s) => `Make the most of ${s}`,
  ],
  'social post': [
    (s) => `${s} is on. See what is new and pick your favourites before they go. Link in bio.`,
    (s) => `Ready for ${s}? We have picked the highlights for you. Take a look.`,
    (s) => `${s} in three words: simple, warm, yours. What are you choosing first?`,
    (s) => `Good news: ${s} starts today. Tell us what you are looking forward to.`,
  ],
  'subject line': [
    (s) => `${s} starts today`,
    (s) => `Your first look at ${s}`,
    (s) => `Don't miss ${s}`,
    (s) => `${s}: picked for you`,
  ],
};

function kindOf(request: string): string {
  if (/\bheadlines?\b/i.test(request)) return 'headline';
  if (/\bsubject lines?\b/i.test(request)) return 'subject line';
  if (/\bposts?\b/i.test(request)) return 'social post';
  return 'tagline';
}

/** Short drafts from fixed patterns on the subject asked for, each checked against the brand's rules. */
const tool = defineTool({
  name: 'copy_drafts',
  description:
    'Draft short copy from a request (taglines, headlines, social posts, subject lines): the number asked for (default 3) on the subject named ("for the winter sale"), each checked against attached brand guidelines or the voice asked for, and labelled as drafts.',
  input: z.object({ request: z.string().min(1).max(4000) }),
  async run(ctx, { request }): Promise<CopyDrafts> {
    const { docs } = await readDocs(ctx);
    const guide = docs.find((d) => d.guidelines) ?? null;
    const rules = rulesFrom(guide?.text ?? null, request, guide ? guide.fileName : 'your message');
    const kind = kindOf(request);
    const n = /\b(\d|two|three|four|five|six)\b/i.exec(request)?.[1]?.toLowerCase();
    const count = Math.min(5, Math.max(1, n ? (NUMBERS[n] ?? Number(n)) : 3));
    const subject =
      /\b(?:for|about|on|promoting)\s+(?:the\s+|our\s+|a\s+)?([^.,;:!?\n]{2,60}?)(?=\s+(?:in|with|that|which|using)\b|[.,;:!?\n]|$)/i
        .exec(request)?.[1]
        ?.trim() ?? 'our new range';
    const subjectCased = subject.charAt(0).toUpperCase() + subject.slice(1);
    const drafts = TEMPLATES[kind]!.slice(0, count).map((t) => {
      let textContent = t(subjectCased).replace(/^(\w)/, (c) => c.toUpperCase());
      // The guidelines' limits apply to drafts too: no exclamation marks where they allow none.
      if (rules.maxExclamations === 0) textContent = textContent.replace(/!/g, '.');
      const review = reviewCopy(textContent, rules, 'draft');
      const findings = review.lines.flatMap((l) => l.findings);
      return { text: review.rewritten, findings };
    });
    return { kind, subject, drafts, rules, guided: !!guide };
  },
});

const task = {
  key: 'drafts',
  title: 'Draft copy',
  words:
    /\b(write|give|draft|come up with|suggest|need|brainstorm)\b[^.\n]{0,60}\b(taglines?|headlines?|slogans?|straplines?|subject lines?|social (?:media )?posts?|(?:linkedin|instagram) posts?)\b/i,
} as const;

function render(d: CopyDrafts): Section {
  const plural = d.drafts.length === 1 ? '' : 's';
  return section(`Draft ${d.kind}${plural}: ${d.subject}`, {
    answer: [
      `**Draft ${d.kind}${plural} for ${d.subject}** (drafts to edit, not final copy), written in ${d.rules.voiceFrom === 'message' ? 'the voice you asked for' : 'the voice'} (${d.rules.traits.join(', ')})${d.guided ? ` and checked against ${d.rules.source}` : ''}:`,
      '',
      ...d.drafts.map(
        (x, i) =>
          `${i + 1}. Draft: ${x.text}${x.findings.length ? ` _(check: ${x.findings.join('; ')})_` : ''}`,
      ),
    ],
    content: laidOut([rulesLine(d.rules)]),
  });
}

export const copyDrafts = defineCapability({
  task,
  tool: { ...tool, output: Output },
  // Drafts are written from the words of their own part of the request.
  plan: (_ctx, request) => [{ tool: tool.name, input: { request: request.slice(0, 4000) } }],
  render,
});
