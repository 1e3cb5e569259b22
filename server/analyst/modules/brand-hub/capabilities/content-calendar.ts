import { z } from 'zod';
import { defineCapability, resultOf } from '../../../capability';
import { laidOut, section, table, type Section } from '../../../report/section';
import { doughnutChart } from '../../../tools/charts';
import { file } from '../../../tools/reports';
import { list } from '../../report-parts';
import { onTables } from '../request';
import { contentPerformance, contentSection } from './content-performance';
import { defineTool } from '../../../tools/tool';
import { briefInputFrom, contentCalendar as calendarFile } from '../generators';

const Output = z.object({
  subject: z.string(),
  channels: z.array(z.string()),
  weeks: z.number(),
  rows: z.array(
    z.object({
      week: z.number(),
      weekOf: z.string(),
      keyDate: z.string().nullable(),
      day: z.string(),
      channel: z.string(),
      theme: z.string(),
      format: z.string(),
      hook: z.string(),
    }),
  ),
  filename: z.string(),
  data: z.string(),
});
export type ContentCalendar = z.infer<typeof Output>;

const tool = defineTool({
  name: 'content_calendar',
  description:
    'Write a content calendar (weeks x channels: theme, format, hook, key dates) as a shareable table file, from a description naming channels and the number of weeks (a quarter is 13 weeks).',
  input: z.object({
    description: z.string().min(1).max(4000),
    weeks: z.number().int().min(1).max(13).optional(),
    format: z.enum(['markdown', 'html', 'csv']).default('csv'),
  }),
  async run(_ctx, { description, weeks, format }): Promise<ContentCalendar> {
    const input = briefInputFrom(description);
    if (weeks) input.weeks = weeks;
    const cal = calendarFile(input, format === 'html');
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

const task = {
  key: 'calendar',
  title: 'Content calendar',
  words: /\b(content calendar|calendar|editorial plan|posting schedule)\b/i,
} as const;

function calendarSection(c: ContentCalendar): Section {
  const perChannel = c.channels.map((ch) => c.rows.filter((r) => r.channel === ch).length);
  // A week's row: its first post's theme and dates, and every channel's format.
  const themes = table<ContentCalendar['rows']>(
    [
      { header: 'Week', value: (rs) => rs[0]!.week },
      { header: 'Week of', value: (rs) => rs[0]!.weekOf },
      { header: 'Theme', value: (rs) => rs[0]!.theme },
      { header: 'Key date', value: (rs) => rs[0]!.keyDate ?? '' },
      {
        header: 'Formats',
        value: (rs) => [...new Set(rs.map((r) => `${r.channel}: ${r.format}`))].join('; '),
      },
    ],
    [...new Set(c.rows.map((r) => r.week))].map((w) => c.rows.filter((r) => r.week === w)),
  );
  return section(`${task.title}: ${c.weeks} weeks`, {
    answer: [
      `**A ${c.weeks}-week content calendar with a theme each week across ${list(c.channels)}, ${c.rows.length} posts in all**; weeks with a key date are themed around it (${
        c.rows
          .filter((r) => r.keyDate)
          .map((r) => r.keyDate)
          .filter((v, i, a) => a.indexOf(v) === i)
          .join(', ') || 'none fall in this quarter'
      }). The shareable table is the CSV file.`,
    ],
    content: [
      ...laidOut([
        '### Weekly themes',
        '',
        themes.markdown(),
        '',
        'Tie each week to your campaigns by replacing the theme where a campaign runs.',
      ]),
      doughnutChart('Posts per channel', c.channels, perChannel, 'Posts'),
      file(c.filename, c.data),
    ],
  });
}

/**
 * The content calendar; with last quarter's content analytics attached, it is planned with the
 * content performance audit, whose ranking ends the calendar's section (not a section of its own).
 */
export const contentCalendar = {
  ...defineCapability({
    task,
    tool: { ...tool, output: Output },
    plan: (ctx) => [
      { tool: tool.name, input: { description: ctx.request.slice(0, 4000), format: 'csv' } },
      ...onTables(ctx, { tool: contentPerformance.tool.name, input: {} }),
    ],
    render(c, ctx) {
      const calendar = calendarSection(c);
      const perf = resultOf(contentPerformance, ctx.plan.calls);
      if (perf) calendar.content.push(...contentSection(perf, true).content);
      return calendar;
    },
  }),
  includes: [contentPerformance.tool.name],
};
