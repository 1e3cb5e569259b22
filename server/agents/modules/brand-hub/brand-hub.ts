import { tool, type ToolSet } from 'ai';
import { z } from 'zod';
import type { ContentItem } from '@contract/structured-response';
import { commonTools, fileArg, toolResult, TurnFiles } from '../../tools/attachments';
import { barChart, doughnutChart } from '../../tools/charts';
import { file, finishReport, markdownTable, text } from '../../tools/reports';
import { countBy, sortedCounts } from '../../tools/stats';
import { tableOverview } from '../../tools/table-overview';
import { tableKindOf } from '../../tools/tables';
import {
  callTool,
  HONESTY_NOTE,
  mentions,
  type Analysis,
  type AnalysisContext,
  type ModuleAgent,
} from '../module';
import {
  readingEaseBand,
  reviewCopy,
  voiceFromMessage,
  words,
  type BrandVoice,
  type CopyReview,
} from './copy-review';
import { briefInputFrom, campaignBrief, contentCalendar, wantsHtml } from './generators';

const INSTRUCTIONS = `You are the Brand Hub assistant of Atrium. You review copy against the brand voice (given by the user,
or a default: clear, confident, human; plain English; no hype words), measuring readability (Flesch reading ease, sentence
length), passive voice and banned or preferred terms, with line-by-line findings. You also write campaign briefs and content
calendars as markdown or HTML files. Use the tools for measurements; quote the copy when you point at a problem.`;

/**
 * The copy to review in a message: a fenced or quoted block, the text after a "Copy:" line, or the
 * lines after a first instruction line. Null when the message is only a request.
 */
export function copyFromMessage(message: string): string | null {
  const fenced = /```[a-z]*\n?([\s\S]+?)```|"""([\s\S]+?)"""/.exec(message);
  if (fenced) return (fenced[1] ?? fenced[2])!.trim();
  const marker = /^(?:.*\b)?(?:copy|text|draft|here is|here's)\b[^\n]*:\s*\n([\s\S]+)$/im.exec(
    message,
  );
  if (marker && words(marker[1]!).length >= 5) return marker[1]!.trim();
  // A template's "Help me with: ..." describes the task; it holds no copy of its own.
  if (/^help me with:/i.test(message.trim())) return null;
  const inline = /\b(?:copy|text)\s*:\s*(.{20,})$/is.exec(message);
  if (inline && words(inline[1]!).length >= 5) return inline[1]!.trim();
  const lines = message
    .trim()
    .split(/\r?\n/)
    .filter((l) => l.trim());
  if (lines.length >= 3 && words(lines.slice(1).join(' ')).length >= 20)
    return lines.slice(1).join('\n');
  return null;
}

function reviewContent(source: string, review: CopyReview, voice: BrandVoice): ContentItem[] {
  const flagged = review.lines.filter((l) => l.findings.length);
  const summary = [
    `### Copy review: ${source}`,
    '',
    `Brand voice: **${voice.traits.join(', ')}**${voice.fromMessage ? ' (from your message)' : ' (default voice: tell me yours to review against it)'}.`,
    '',
    markdownTable(
      ['Measure', 'Result', 'Target'],
      [
        [
          'Flesch reading ease',
          `${review.readingEase} (${readingEaseBand(review.readingEase)})`,
          `${voice.targetReadingEase} or more`,
        ],
        ['Average sentence length', `${review.avgSentenceWords} words`, `20 words or fewer`],
        [
          'Long sentences',
          `${review.longSentences} of ${review.sentenceCount}`,
          `none over ${voice.maxSentenceWords} words`,
        ],
        [
          'Passive sentences',
          `${review.passiveSentences} of ${review.sentenceCount}`,
          'as few as possible',
        ],
        [
          'Banned terms',
          review.bannedHits.length
            ? review.bannedHits.map((h) => `${h.term} (${h.count})`).join(', ')
            : 'none',
          'none',
        ],
        [
          'Wording to replace',
          review.preferredHits.length
            ? review.preferredHits.map((h) => `${h.avoid} → ${h.preferred}`).join(', ')
            : 'none',
          'none',
        ],
        ['Overall score', `${review.scores.overall}/100`, '80 or more'],
      ],
    ),
  ].join('\n');
  const findings = flagged.length
    ? `### Line-by-line findings\n\n${markdownTable(
        ['Line', 'Text', 'Findings', 'Suggested edit'],
        flagged.map((l) => [
          l.line,
          l.text.length > 120 ? `${l.text.slice(0, 119)}…` : l.text,
          l.findings.join('; '),
          l.suggestion ?? '—',
        ]),
      )}`
    : '### Line-by-line findings\n\nNo line breaks the brand voice rules.';
  return [
    text(summary),
    barChart(
      'Brand voice scorecard',
      ['Readability', 'Sentence length', 'Active voice', 'Word choice', 'Overall'],
      [
        {
          label: 'Score (0-100)',
          data: [
            review.scores.readability,
            review.scores.sentenceLength,
            review.scores.activeVoice,
            review.scores.wordChoice,
            review.scores.overall,
          ],
        },
      ],
      { max: 100 },
    ),
    text(findings),
  ];
}

function reviewFile(source: string, review: CopyReview, voice: BrandVoice): string {
  return [
    `# Copy review: ${source}`,
    '',
    `Voice: ${voice.traits.join(', ')}. Reading ease ${review.readingEase}; average sentence ${review.avgSentenceWords} words; ${review.passiveSentences} passive sentence(s); overall ${review.scores.overall}/100.`,
    '',
    '## Findings',
    '',
    markdownTable(
      ['Line', 'Findings', 'Suggested edit'],
      review.lines
        .filter((l) => l.findings.length)
        .map((l) => [l.line, l.findings.join('; '), l.suggestion ?? '—']),
    ),
    '',
    '## Copy with the preferred wording applied',
    '',
    review.suggestedCopy.trim(),
    '',
    '_Banned terms are marked in the findings: rewrite those lines by saying what the product does._',
    '',
  ].join('\n');
}

function voiceGuide(voice: BrandVoice): string {
  return [
    '# Brand voice guide',
    '',
    `Our voice is ${voice.traits.join(', ')}.`,
    '',
    '## Rules',
    '',
    `- Aim for a Flesch reading ease of ${voice.targetReadingEase} or more: plain words, short sentences.`,
    `- Keep sentences under ${voice.maxSentenceWords} words; average about 15–20.`,
    '- Prefer the active voice: "We send your invoice", not "Your invoice is sent".',
    '- Say what the product does instead of hype.',
    '',
    '## Banned terms',
    '',
    voice.banned.map((b) => `- ${b}`).join('\n'),
    '',
    '## Preferred wording',
    '',
    markdownTable(
      ['Instead of', 'Write'],
      voice.preferred.map((p) => [p.avoid, p.preferred]),
    ),
    '',
    '## Tell the assistant your voice',
    '',
    'Add lines like these to your message and they replace or extend the defaults:',
    '',
    '```',
    'Voice: warm, witty, direct',
    'Banned terms: cheap, guarantee',
    'Use "team" instead of "staff"',
    '```',
    '',
  ].join('\n');
}

async function* analyze(ctx: AnalysisContext): Analysis {
  const files = new TurnFiles(ctx.attachments);
  const voice = yield* callTool('brand_voice', () => voiceFromMessage(ctx.request));
  const html = wantsHtml(ctx.request);
  const wantsCalendar = mentions(ctx.request, [
    'calendar',
    'schedule',
    'posting plan',
    'editorial plan',
    'content plan',
    'social media plan',
    'posting schedule',
    'social media posts',
    'month of posts',
  ]);
  // "Campaign" alone also appears in results reviews and teardowns, which need data or copy instead.
  const wantsBrief =
    mentions(ctx.request, ['brief', 'go-to-market', 'go to market']) ||
    (!wantsCalendar &&
      mentions(ctx.request, ['launch', 'campaign', 'messaging']) &&
      !mentions(ctx.request, [
        'results',
        'performed',
        'performance',
        'teardown',
        'competitor',
        'competitors',
      ]));
  const content: ContentItem[] = [];
  const nextSteps: string[] = [];
  const problems: string[] = [];
  const titles: string[] = [];

  const copies: Array<{ source: string; copy: string }> = [];
  let tables = 0;
  for (const att of ctx.attachments.slice(0, 5)) {
    yield `Reading ${att.fileName}`;
    if (tableKindOf(att)) {
      // Campaign results, survey answers, mention counts: summarised as data, not reviewed as copy.
      const parsed = yield* callTool('profile_table', () => files.table(att.fileName));
      if (parsed.ok) {
        content.push(...tableOverview(parsed.table));
        tables++;
      } else problems.push(parsed.error);
      continue;
    }
    const doc = yield* callTool('read_document', () => files.document(att.fileName));
    if (doc.ok) copies.push({ source: att.fileName, copy: doc.text });
    else problems.push(doc.error);
  }
  const pasted = copyFromMessage(ctx.request);
  if (pasted) copies.push({ source: 'the copy in your message', copy: pasted });
  ctx.signal.throwIfAborted();

  if (problems.length)
    content.push(
      text(`**Some files could not be read:**\n\n${problems.map((p) => `- ${p}`).join('\n')}`),
    );

  for (const { source, copy } of copies) {
    const review = yield* callTool('readability_review', () => reviewCopy(copy, voice));
    yield `${source}: reading ease ${review.readingEase}, ${review.passiveSentences} passive sentence(s), ${review.bannedHits.length} banned term(s)`;
    content.push(...reviewContent(source, review, voice));
    content.push(
      file(
        copies.length > 1
          ? `copy-review-${copies.indexOf(copies.find((c) => c.source === source)!) + 1}.md`
          : 'copy-review.md',
        reviewFile(source, review, voice),
      ),
    );
    titles.push('Brand voice review');
    if (review.bannedHits.length)
      nextSteps.push(
        `Rewrite the lines that use ${review.bannedHits
          .map((h) => `"${h.term}"`)
          .slice(0, 3)
          .join(', ')}`,
      );
    if (review.passiveSentences) nextSteps.push('Turn the passive sentences into active ones');
  }

  const input = briefInputFrom(ctx.request);
  if (wantsBrief) {
    const brief = yield* callTool('campaign_brief', () => campaignBrief(input, voice.traits, html));
    content.push(
      text(
        `### Campaign brief: ${input.subject}\n\nA brief with objective, audience, key message, proof points, tone of voice, channels (${input.channels.join(', ')}), deliverables, a ${input.weeks}-week timeline, budget, KPIs and approvals. Fill in the bracketed parts.`,
      ),
      file(brief.filename, brief.data),
    );
    titles.push(`Campaign brief: ${input.subject}`);
    nextSteps.push('Fill in the objective and proof points, then ask me to review the brief copy');
  }
  if (wantsCalendar) {
    const calendar = yield* callTool('content_calendar', () => contentCalendar(input, html));
    const perChannel = sortedCounts(countBy(calendar.rows, (r) => r.channel));
    content.push(
      text(
        `### Content calendar: ${input.weeks} weeks, ${calendar.rows.length} posts\n\n${markdownTable(
          ['Week', 'Day', 'Channel', 'Theme', 'Format'],
          calendar.rows.slice(0, 12).map((r) => [r.week, r.day, r.channel, r.theme, r.format]),
        )}${calendar.rows.length > 12 ? `\n\nThe file holds all ${calendar.rows.length} entries.` : ''}`,
      ),
      doughnutChart(
        'Posts per channel',
        perChannel.map(([k]) => k),
        perChannel.map(([, n]) => n),
        'Posts',
      ),
      file(calendar.filename, calendar.data),
    );
    titles.push(`Content calendar: ${input.subject}`);
    nextSteps.push(
      'Assign an owner to each calendar entry',
      'Draft the copy for week 1 and ask me to review it',
    );
  }

  if (tables) {
    titles.push('Brand data summary');
    nextSteps.push('Tell me which measure matters most and I will break it down further');
  }

  if (!copies.length && !wantsBrief && !wantsCalendar && !tables) {
    yield 'No copy to review: sharing the brand voice rules and a guide';
    content.push(
      text(
        [
          '### What I need',
          '',
          'Paste the copy into your message (after a line such as "Copy:") or attach it as text, markdown, HTML, PDF or DOCX. I will check it against the brand voice for:',
          '',
          '- **Readability**: Flesch reading ease and sentence length',
          '- **Active voice**: passive sentences, line by line',
          '- **Word choice**: banned terms and preferred wording',
          '',
          'I can also write a **campaign brief** or a **content calendar** (markdown, or HTML if you ask): say what it is for, the audience, the channels and how many weeks.',
          '',
          'For campaign results, survey answers, share-of-voice or content performance data, attach the table (CSV, XLSX or JSON): I will profile it and chart each measure by channel, segment or month.',
          '',
          `The voice guide below holds the default rules (${voice.traits.join(', ')}); change them in your message and I will use yours.`,
        ].join('\n'),
      ),
      file('brand-voice-guide.md', voiceGuide(voice)),
    );
    titles.push(
      problems.length ? 'Brand voice review: file problem' : 'Brand voice review: copy needed',
    );
    nextSteps.push(
      'Paste the copy you want reviewed',
      'Write a campaign brief for our next launch',
      'Create a 4-week content calendar for LinkedIn and email',
    );
  } else {
    nextSteps.push('Save the files to this chat');
  }
  content.push(text(HONESTY_NOTE));
  return finishReport({
    taskName: titles.length > 1 ? titles.join(' and ').slice(0, 255) : titles[0]!,
    content,
    nextSteps: [...new Set(nextSteps)].slice(0, 5),
  });
}

function tools(attachments: AnalysisContext['attachments']): ToolSet {
  const files = new TurnFiles(attachments);
  const voiceArgs = {
    voice: z
      .string()
      .max(4000)
      .optional()
      .describe(
        'The brand voice as the user stated it: "Voice: ...", "Banned terms: ...", "Use x instead of y"',
      ),
  };
  return {
    ...commonTools(files),
    readability_review: tool({
      description:
        'Review copy against the brand voice: Flesch reading ease, sentence length, passive voice, banned and preferred terms, line-by-line findings and scores (0-100).',
      inputSchema: z.object({
        text: z
          .string()
          .max(200_000)
          .optional()
          .describe('The copy; omit to review an attached file'),
        file: fileArg,
        ...voiceArgs,
      }),
      execute: ({ text: copy, file: name, voice }) =>
        toolResult(async () =>
          reviewCopy(copy ?? (await files.textOrThrow(name)), voiceFromMessage(voice ?? '')),
        ),
    }),
    campaign_brief: tool({
      description:
        'Write a campaign brief file (markdown, or HTML when format is html) from a one-line description of the campaign.',
      inputSchema: z.object({
        description: z.string().min(1).max(2000),
        format: z.enum(['markdown', 'html']).default('markdown'),
        ...voiceArgs,
      }),
      execute: ({ description, format, voice }) =>
        campaignBrief(
          briefInputFrom(description),
          voiceFromMessage(voice ?? '').traits,
          format === 'html',
        ),
    }),
    content_calendar: tool({
      description:
        'Write a content calendar file (weeks × channels, themes, formats, hooks) from a one-line description naming channels and the number of weeks.',
      inputSchema: z.object({
        description: z.string().min(1).max(2000),
        format: z.enum(['markdown', 'html']).default('markdown'),
      }),
      execute: ({ description, format }) => {
        const c = contentCalendar(briefInputFrom(description), format === 'html');
        return { filename: c.filename, data: c.data };
      },
    }),
  };
}

export const brandHubAgent: ModuleAgent = {
  key: 'brand-hub',
  instructions: INSTRUCTIONS,
  tools,
  analyze,
};
