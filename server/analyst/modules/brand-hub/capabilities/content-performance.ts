import { z } from 'zod';
import { defineCapability } from '../../../capability';
import { laidOut, section, table, type Section } from '../../../report/section';
import { barChart } from '../../../tools/charts';
import { n0, pc } from '../figures';
import { onTables } from '../request';
import { defineTool, ToolError } from '../../../tools/tool';
import { num, tableOf } from '../read';

const Group = z.object({
  group: z.string(),
  items: z.number(),
  engagementRate: z.number(),
  conversions: z.number(),
});
const Output = z.object({
  source: z.string(),
  ranked: z.array(
    z.object({
      title: z.string(),
      topic: z.string().nullable(),
      format: z.string().nullable(),
      channel: z.string().nullable(),
      engagementRate: z.number().nullable(),
      conversions: z.number().nullable(),
    }),
  ),
  byTopic: z.array(Group),
  byFormat: z.array(Group),
  byDay: z.array(Group),
  moreOf: z.array(z.string()),
  lessOf: z.array(z.string()),
});
export type ContentPerformance = z.infer<typeof Output>;
type GroupStat = z.infer<typeof Group>;

/**
 * Which content works: each item's engagement rate (engagements / impressions) and conversions,
 * ranked; the same by topic, format and weekday of publishing (summed in SQL, rate over the
 * group's totals); what to do more and less of.
 */
const tool = defineTool({
  name: 'content_performance',
  description:
    'Rank content from an analytics export (CSV/XLSX) by engagement rate (engagements / impressions) and conversions; the best topics, formats and publishing weekdays; what to do more and less of.',
  input: z.object({}),
  async run(ctx): Promise<ContentPerformance> {
    const { set, table, col } = await tableOf(
      ctx,
      'the content analytics export',
      /title|topic|format|engagement|impression/i,
    );
    const c = {
      title: col(/title|post|content|name|headline/i),
      topic: col(/topic|theme|category|pillar/i),
      format: col(/format|type|media/i),
      channel: col(/channel|platform|network/i),
      date: col(/date|published|posted/i),
      impressions: col(/impression|reach|views/i),
      engagements: col(/engagement|interactions|likes/i, /rate/i),
      conversions: col(/conversion|signups?|leads/i, /rate/i),
    };
    if (!c.title || !c.impressions || !c.engagements)
      throw new ToolError(`${table.source} needs a title, impressions and engagements column.`);
    const conv = c.conversions ? `SUM(${c.conversions.sql})` : 'NULL';
    const rate = `ROUND(100.0 * SUM(${c.engagements.sql}) / NULLIF(SUM(${c.impressions.sql}), 0), 1)`;
    const ranked = await set.query(
      `SELECT ${c.title.sql} AS title, ${c.topic ? c.topic.sql : 'NULL'} AS topic, ${c.format ? c.format.sql : 'NULL'} AS format, ${c.channel ? c.channel.sql : 'NULL'} AS channel, ${rate} AS rate, ${conv} AS conversions
       FROM ${table.sql} GROUP BY 1, 2, 3, 4 ORDER BY rate DESC NULLS LAST, conversions DESC NULLS LAST`,
    );
    const group = async (expr: string | null): Promise<GroupStat[]> =>
      expr
        ? (
            await set.query(
              `SELECT ${expr} AS g, COUNT(*) AS n, ${rate} AS rate, COALESCE(${conv}, 0) AS conv FROM ${table.sql} WHERE ${expr} IS NOT NULL GROUP BY 1 ORDER BY rate DESC, conv DESC`,
            )
          ).map((r) => ({
            group: String(r.g),
            items: num(r.n),
            engagementRate: num(r.rate),
            conversions: num(r.conv),
          }))
        : [];
    const byTopic = await group(c.topic?.sql ?? null);
    const byFormat = await group(c.format?.sql ?? null);
    const byDay = c.date && c.date.type === 'date' ? await group(`dayname(${c.date.sql})`) : [];
    const moreOf: string[] = [];
    const lessOf: string[] = [];
    const bestConv = [...byTopic].sort((a, b) => b.conversions - a.conversions)[0];
    if (byTopic[0])
      moreOf.push(
        `${byTopic[0].group} content: the highest engagement rate (${byTopic[0].engagementRate}%).`,
      );
    if (bestConv && bestConv !== byTopic[0])
      moreOf.push(`${bestConv.group} content: the most conversions (${bestConv.conversions}).`);
    if (byFormat[0])
      moreOf.push(
        `The ${byFormat[0].group.toLowerCase()} format (${byFormat[0].engagementRate}% engagement).`,
      );
    if (byDay[0])
      moreOf.push(`Publishing on ${byDay[0].group} (${byDay[0].engagementRate}% engagement).`);
    const worstTopic = byTopic.at(-1);
    if (worstTopic && byTopic.length > 1)
      lessOf.push(
        `${worstTopic.group} content: ${worstTopic.engagementRate}% engagement and ${worstTopic.conversions} conversions.`,
      );
    const zero = ranked.filter((r) => r.conversions !== null && num(r.conversions) === 0);
    for (const z0 of zero)
      lessOf.push(
        `"${z0.title}": no conversions despite ${z0.rate}% engagement; keep it only for reach.`,
      );
    return {
      source: table.source,
      ranked: ranked.map((r) => ({
        title: String(r.title),
        topic: r.topic === null ? null : String(r.topic),
        format: r.format === null ? null : String(r.format),
        channel: r.channel === null ? null : String(r.channel),
        engagementRate: r.rate === null ? null : num(r.rate),
        conversions: r.conversions === null ? null : num(r.conversions),
      })),
      byTopic,
      byFormat,
      byDay,
      moreOf,
      lessOf,
    };
  },
});

/** The table of one grouping (topics, formats or days): items, engagement rate, conversions. */
const groupTable = (name: string, groups: GroupStat[]) =>
  table<GroupStat>(
    [
      { header: name, value: (g) => g.group },
      { header: 'Items', value: (g) => g.items },
      { header: 'Engagement rate', value: (g) => `${g.engagementRate}%` },
      { header: 'Conversions', value: (g) => g.conversions },
    ],
    groups,
  ).markdown();

const task = {
  key: 'content-audit',
  title: 'Content performance audit',
  words: /\b(content performance audit|which content works|content audit|rank (posts|content))\b/i,
  needs: 'the content analytics export (CSV or XLSX)',
  sample: [
    'content-analytics-template.csv',
    'Title,Topic,Format,Channel,Published,Impressions,Engagements,Clicks,Conversions\n',
  ],
} as const;

/** The audit; inside a content calendar, only the ranking and what to do more and less of. */
export function contentSection(c: ContentPerformance, inCalendar = false): Section {
  const top = c.ranked[0];
  const ranked = table<ContentPerformance['ranked'][number] & { n: number }>(
    [
      { header: '#', value: (r) => r.n },
      { header: 'Title', value: (r) => r.title },
      { header: 'Topic', value: (r) => r.topic ?? '' },
      { header: 'Format', value: (r) => r.format ?? '' },
      { header: 'Channel', value: (r) => r.channel ?? '' },
      { header: 'Engagement rate', value: (r) => pc(r.engagementRate) },
      { header: 'Conversions', value: (r) => n0(r.conversions) },
    ],
    c.ranked.map((r, i) => ({ n: i + 1, ...r })),
  );
  const lines = [
    `### ${inCalendar ? "Last quarter's content, ranked" : 'Posts and articles ranked by engagement and conversion'}`,
    '',
    ranked.markdown(),
    '',
    '### Best topics, formats and days',
    '',
    groupTable('Topic', c.byTopic),
    '',
    groupTable('Format', c.byFormat),
    '',
    groupTable('Day', c.byDay),
    '',
    "Engagement rate = engagements ÷ impressions, over each group's totals.",
    '',
    `**Do more of:** ${c.moreOf.join(' ')}`,
    '',
    `**Do less of:** ${c.lessOf.join(' ') || 'nothing stands out as weak.'}`,
  ];
  if (inCalendar) return section(task.title, { content: laidOut(lines) });
  return section(task.title, {
    answer: [
      `**Best performer: "${top?.title}" (${top?.engagementRate}% engagement, ${top?.conversions ?? '—'} conversions).** Best topic ${c.byTopic[0]?.group ?? '—'}, best format ${c.byFormat[0]?.group ?? '—'}, best day ${c.byDay[0]?.group ?? '—'}.`,
    ],
    content: [
      ...laidOut(lines),
      barChart(
        'Engagement rate by topic (%)',
        c.byTopic.map((g) => g.group),
        [{ label: 'Engagement %', data: c.byTopic.map((g) => g.engagementRate) }],
      ),
    ],
    nextSteps: ["Plan next quarter's content calendar around the best topics"],
  });
}

export const contentPerformance = defineCapability({
  task,
  tool: { ...tool, output: Output },
  plan: (ctx) => onTables(ctx, { tool: tool.name, input: {} }),
  render: (c) => contentSection(c),
});
