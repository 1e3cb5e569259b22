import { z } from 'zod';
import { defineCapability } from '../../../capability';
import { laidOut, section, table, type Section } from '../../../report/section';
import { plural } from '../../../report/words';
import type { ContentItem } from '@contract/structured-response';
import { barChart } from '../../../tools/charts';
import { file } from '../../../tools/reports';
import { list } from '../../report-parts';
import { copyFromMessage, hasDocuments } from '../request';
import { defineTool, ToolError } from '../../../tools/tool';
import { CopyReviewSchema, readingEaseBand, reviewCopy } from '../copy-review';
import { BrandRulesSchema, rulesFrom, rulesLine } from '../guidelines';
import { readDocs } from '../read';

const Output = z.object({
  rules: BrandRulesSchema,
  reviews: z.array(CopyReviewSchema),
  /**
   * The company library's guidelines (ADR 0069): applied when none is attached; when one is,
   * the attachment wins (`applied` false) and the report says so.
   */
  library: z
    .object({
      source: z.string(),
      applied: z.boolean(),
      passages: z.array(z.object({ citation: z.string(), link: z.string(), text: z.string() })),
    })
    .optional(),
});
export type CopyReviewResult = z.infer<typeof Output>;

/**
 * Reviews copy against the brand's own rules: the attached guidelines (applied, not reviewed) and
 * any rules in the message, defaults only for what neither states. Banned words match every
 * inflection; passive voice comes from the tagger; readability and word lists only for English.
 */
const tool = defineTool({
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

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const cite = (p: { citation: string; link: string }) =>
  `[${p.citation.replace(/[[\]]/g, '')}](${p.link})`;

/**
 * Where the guidelines came from when the company library answered (ADR 0069): the document and
 * version applied, each banned word found with the passage that bans it, or that the attached
 * guidelines won over the library.
 */
function libraryLine(res: CopyReviewResult): string | null {
  const lib = res.library;
  if (!lib) return null;
  if (!lib.applied)
    return `The guidelines attached in this chat (${res.rules.source}) were applied: an attachment wins over the company library, so **${lib.source}** in the library was not used.`;
  const banned = [
    ...new Set(res.reviews.flatMap((r) => r.bannedHits.map((h) => h.term.toLowerCase()))),
  ];
  const bans = banned.flatMap((term) => {
    const p = lib.passages.find((x) =>
      new RegExp(`(^|[^\\p{L}])${escapeRe(term)}($|[^\\p{L}])`, 'iu').test(x.text),
    );
    return p ? [`"${term}" (${cite(p)})`] : [];
  });
  return [
    `No guidelines are attached in this chat, so the company library's **${lib.source}** was applied (${lib.passages.map(cite).join('; ')}).`,
    bans.length ? `Banned by the library: ${bans.join(', ')}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

const task = {
  key: 'review',
  title: 'Brand voice review',
  words:
    /\b(?:review|check|proofread|edit|rewrite|score|audit)\b[^.?!;,\n]{0,40}?\b(?:copy|text|wording|email|page|post)\b/i,
  needs:
    'the copy: paste it after a line such as "Copy:" or attach it (DOCX, markdown, HTML or text), with your brand guidelines if you have them',
  sample: [
    'brand-voice-checklist.md',
    '# What the review checks\n\n- Readability (English)\n- Sentence length\n- Active voice (English)\n- Banned words in every form, preferred wording\n- Jargon\n',
  ],
} as const;

function render(res: CopyReviewResult): Section {
  const content: ContentItem[] = [];
  const nextSteps: string[] = [];
  const lead = res.reviews.map((r) => {
    const issues: string[] = [];
    if (r.bannedHits.length)
      issues.push(
        `${r.bannedHits.reduce((s, h) => s + h.count, 0)} banned words (${r.bannedHits
          .flatMap((h) => h.forms)
          .map((f) => `"${f}"`)
          .join(', ')})`,
      );
    if (r.preferredHits.length)
      issues.push(
        `${r.preferredHits.reduce((s, h) => s + h.count, 0)} words the guidelines replace (${r.preferredHits.map((h) => `"${h.forms[0]}" → "${h.preferred}"`).join(', ')})`,
      );
    if (r.passives?.length) issues.push(plural(r.passives.length, 'passive sentence'));
    if (r.longSentences)
      issues.push(
        `${plural(r.longSentences, 'sentence')} over ${res.rules.maxSentenceWords} words`,
      );
    const lang = r.englishChecks
      ? ''
      : ` It reads as ${r.language}: the readability score, passive voice and English word lists do not apply to ${r.language} and are not given; sentence length, exclamation marks and capitals are checked.`;
    return `**${r.source} scores ${r.scores.overall}/100 against the brand voice.** ${issues.length ? `To fix: ${list(issues)}.` : 'It follows the rules.'}${lang}`;
  });
  const fromLibrary = libraryLine(res);
  for (const r of res.reviews) {
    // Each measure's row: what it is, the copy's result, the brand's target.
    const summary = table<[string, string, string]>(
      [
        { header: 'Measure', value: (m) => m[0] },
        { header: 'Result', value: (m) => m[1] },
        { header: 'Target', value: (m) => m[2] },
      ],
      [
        ['Language', r.language, 'English for every check'],
        [
          'Reading level (Flesch reading ease)',
          r.readingEase === null
            ? `not given (${r.language})`
            : `${r.readingEase} (${readingEaseBand(r.readingEase)})`,
          `${res.rules.targetReadingEase} or more`,
        ],
        [
          'Average sentence length',
          `${r.avgSentenceWords} words`,
          `${res.rules.maxSentenceWords} or fewer`,
        ],
        ['Long sentences', `${r.longSentences} of ${r.sentenceCount}`, 'none'],
        [
          'Active voice',
          r.passives === null
            ? `not given (${r.language})`
            : `${r.passives.length} passive of ${r.sentenceCount}${r.passives.length ? `: ${r.passives.map((p) => `"${p}"`).join(', ')}` : ''}`,
          'no passive',
        ],
        [
          'Banned words',
          r.englishChecks
            ? r.bannedHits.map((h) => `${h.term} (${h.forms.join(', ')})`).join('; ') || 'none'
            : 'not checked (English list)',
          'none',
        ],
        [
          'Preferred wording',
          r.englishChecks
            ? r.preferredHits.map((h) => `${h.forms.join(', ')} → ${h.preferred}`).join('; ') ||
              'followed'
            : 'not checked (English list)',
          'followed',
        ],
        [
          'Jargon',
          r.englishChecks
            ? r.jargonHits.map((h) => h.term).join(', ') || 'none'
            : 'not checked (English list)',
          'none',
        ],
        [
          'Tone marks',
          `${r.exclamations} exclamation mark(s)${r.shouting.length ? `; capitals: ${r.shouting.join(', ')}` : ''}`,
          'at most one; no capitals for emphasis',
        ],
        ['Overall', `${r.scores.overall}/100`, '80 or more'],
      ],
    );
    content.push(...laidOut([`### Scored summary: ${r.source}`, '', summary.markdown()]));
    const labels = ['Readability', 'Sentence length', 'Active voice', 'Word choice'];
    const vals = [
      r.scores.readability,
      r.scores.sentenceLength,
      r.scores.activeVoice,
      r.scores.wordChoice,
    ];
    content.push(
      barChart(
        `Brand voice scores: ${r.source}`,
        labels.filter((_, i) => vals[i] !== null),
        [{ label: 'Score (0-100)', data: vals.filter((v): v is number => v !== null) }],
        { max: 100 },
      ),
    );
    const flagged = r.lines.filter((l) => l.findings.length);
    type Line = (typeof flagged)[number];
    const suggestions = table<Line>(
      [
        { header: 'Line', value: (l) => l.line },
        {
          header: 'Text',
          value: (l) => (l.text.length > 120 ? `${l.text.slice(0, 119)}…` : l.text),
        },
        { header: 'Findings', value: (l) => l.findings.join('; ') },
        { header: 'Suggested edit', value: (l) => l.suggestion ?? 'Rewrite as noted' },
      ],
      flagged,
    );
    // The review file's findings: no text column, and no edit when none is suggested.
    const findings = table<Line>(
      [
        { header: 'Line', value: (l) => l.line },
        { header: 'Findings', value: (l) => l.findings.join('; ') },
        { header: 'Suggested edit', value: (l) => l.suggestion ?? '—' },
      ],
      flagged,
    );
    content.push(
      ...laidOut([
        '### Line-by-line suggestions',
        '',
        flagged.length ? suggestions.markdown() : 'No line breaks the rules.',
      ]),
    );
    if (r.englishChecks)
      content.push(
        ...laidOut([
          '### Rewritten version',
          '',
          'The preferred wording applied and banned words replaced (or marked where the guidelines give no replacement); passive sentences are flagged above for you to recast.',
          '',
          ...r.rewritten
            .trim()
            .split('\n')
            .map((l) => `> ${l}`),
        ]),
      );
    content.push(
      file(
        `${
          r.source
            .replace(/\.[a-z0-9]+$/i, '')
            .replace(/[^a-z0-9]+/gi, '-')
            .toLowerCase() || 'copy'
        }-review.md`,
        `# Copy review: ${r.source}\n\n${rulesLine(res.rules)}\n\nOverall ${r.scores.overall}/100.\n\n## Findings\n\n${findings.markdown()}\n\n## Rewritten version\n\n${r.rewritten.trim()}\n`,
      ),
    );
  }
  nextSteps.push('Write a tone of voice guide from our best copy');
  return section(`${task.title}: ${res.reviews.map((r) => r.source).join(', ')}`, {
    answer: [
      `${lead.join('\n\n')}\n\n${rulesLine(res.rules)}${fromLibrary ? `\n\n${fromLibrary}` : ''}`,
    ],
    content,
    nextSteps,
  });
}

/**
 * The copy review is also what a request naming no other task asks for: it is last in the
 * module's list, and its words only find a review among the parts of a request.
 */
export const copyReview = defineCapability({
  task,
  tool: { ...tool, output: Output },
  plan(ctx) {
    const pasted = copyFromMessage(ctx.request);
    return hasDocuments(ctx) || pasted
      ? [
          {
            tool: tool.name,
            input: { ...(pasted ? { text: pasted } : {}), voice: ctx.request.slice(0, 4000) },
          },
        ]
      : [];
  },
  render,
});
