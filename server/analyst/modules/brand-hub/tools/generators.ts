import { z } from 'zod';
import { defineTool } from '../../../tools/tool';
import { briefInputFrom, budgetSplit, campaignBrief, contentCalendar } from '../generators';

/** Campaign brief and content calendar as tools: files built from what the request states. */

export const campaignBriefTool = defineTool({
  name: 'campaign_brief',
  description:
    'Write a campaign brief file (markdown, or HTML) from the campaign as described: objective, audience, single-minded proposition, key messages, channels, budget split by channel, timeline, how success is measured, approvals. Unstated parts are left as [placeholders], never invented.',
  input: z.object({
    description: z.string().min(1).max(4000),
    format: z.enum(['markdown', 'html']).default('markdown'),
    voice: z.array(z.string().max(40)).max(8).default(['clear', 'confident', 'human']),
  }),
  async run(_ctx, { description, format, voice }) {
    const input = briefInputFrom(description);
    const brief = campaignBrief(input, voice, format === 'html');
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

export const contentCalendarTool = defineTool({
  name: 'content_calendar',
  description:
    'Write a content calendar (weeks x channels: theme, format, hook, key dates) as a shareable table file, from a description naming channels and the number of weeks (a quarter is 13 weeks).',
  input: z.object({
    description: z.string().min(1).max(4000),
    weeks: z.number().int().min(1).max(13).optional(),
    format: z.enum(['markdown', 'html', 'csv']).default('csv'),
  }),
  async run(_ctx, { description, weeks, format }) {
    const input = briefInputFrom(description);
    if (weeks) input.weeks = weeks;
    const cal = contentCalendar(input, format === 'html');
    const csv = `Week,Week of,Key date,Day,Channel,Theme,Format,Hook\n${cal.rows
      .map((r) =>
        [r.week, r.weekOf, r.keyDate ?? '', r.day, r.channel, r.theme, r.format, r.hook]
          .map((v) => `"${String(v).replace(/"/g, '""')}"`)
          .join(','),
      )
      .join('\n')}\n`;
    return {
      subject: input.subject,
      channels: input.channels,
      weeks: input.weeks,
      rows: cal.rows,
      filename: format === 'csv' ? 'content-calendar.csv' : cal.filename,
      data: format === 'csv' ? csv : cal.data,
    };
  },
});
