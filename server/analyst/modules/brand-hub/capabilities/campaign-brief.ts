import { z } from 'zod';
import { defineCapability } from '../../../capability';
import { laidOut, section, table, type Section } from '../../../report/section';
import { doughnutChart } from '../../../tools/charts';
import { file } from '../../../tools/reports';
import { list } from '../../report-parts';
import { defineTool } from '../../../tools/tool';
import { briefInputFrom, budgetSplit, campaignBrief as briefFile } from '../generators';

const Output = z.object({
  subject: z.string(),
  audience: z.string().nullable(),
  goal: z.string().nullable(),
  proposition: z.string().nullable(),
  channels: z.array(z.string()),
  weeks: z.number(),
  budget: z.object({ written: z.string(), value: z.number() }).nullable(),
  split: z.array(z.object({ channel: z.string(), percent: z.number() })),
  filename: z.string(),
  data: z.string(),
});
export type CampaignBrief = z.infer<typeof Output>;

const tool = defineTool({
  name: 'campaign_brief',
  description:
    'Write a campaign brief file (markdown, or HTML) from the campaign as described: objective, audience, single-minded proposition, key messages, channels, budget split by channel, timeline, how success is measured, approvals. Unstated parts are left as [placeholders], never invented.',
  input: z.object({
    description: z.string().min(1).max(4000),
    format: z.enum(['markdown', 'html']).default('markdown'),
    voice: z.array(z.string().max(40)).max(8).default(['clear', 'confident', 'human']),
  }),
  async run(_ctx, { description, format, voice }): Promise<CampaignBrief> {
    const input = briefInputFrom(description);
    const brief = briefFile(input, voice, format === 'html');
    return {
      subject: input.subject,
      audience: input.audience,
      goal: input.goal,
      proposition: input.proposition,
      channels: input.channels,
      weeks: input.weeks,
      budget: input.budget,
      split: budgetSplit(input.channels),
      filename: brief.filename,
      data: brief.data,
    };
  },
});

const task = {
  key: 'brief',
  title: 'Campaign brief',
  words: /\b(brief|go-to-market|campaign plan)\b/i,
} as const;

function render(b: CampaignBrief): Section {
  const missing = [
    !b.goal && 'objective',
    !b.audience && 'audience',
    !b.proposition && 'proposition',
    !b.budget && 'total budget',
  ].filter((x): x is string => !!x);
  const split = table<CampaignBrief['split'][number]>(
    [
      { header: 'Channel', value: (s) => s.channel },
      { header: 'Share', value: (s) => s.percent, shown: (s) => `${s.percent}%` },
    ],
    b.split,
  );
  return section(`${task.title}: ${b.subject}`, {
    answer: [
      `**Here is the campaign brief for ${b.subject}**, with the objective, audience, single-minded proposition, key messages, channels (${b.channels.join(', ')}), budget split, a ${b.weeks}-week timeline and how we will measure success. ${missing.length ? `Your message does not state the ${list(missing)}: those parts are [placeholders] to fill in.` : ''}`,
    ],
    content: [
      ...laidOut([
        '### Budget split',
        '',
        split.markdown(),
        '',
        'Paid channels carry most of the budget, owned channels less, with 10% kept back; adjust to your costs.',
      ]),
      doughnutChart(
        'Budget split by channel',
        split.labels('Channel'),
        split.series('Share').data,
        '% of budget',
      ),
      file(b.filename, b.data),
    ],
    nextSteps: ['Plan a content calendar for the campaign channels'],
  });
}

export const campaignBrief = defineCapability({
  task,
  tool: { ...tool, output: Output },
  plan: (ctx) => [{ tool: tool.name, input: { description: ctx.request.slice(0, 4000) } }],
  render,
});
