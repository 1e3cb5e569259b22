import { z } from 'zod';
import { defineTool, ToolError } from '../../../tools/tool';
import { num, pick, tablesOf } from '../read';

export interface Ranked {
  title: string;
  topic: string | null;
  format: string | null;
  channel: string | null;
  engagementRate: number | null;
  conversions: number | null;
}
export interface GroupStat {
  group: string;
  items: number;
  engagementRate: number;
  conversions: number;
}
export interface ContentPerformance {
  source: string;
  ranked: Ranked[];
  byTopic: GroupStat[];
  byFormat: GroupStat[];
  byDay: GroupStat[];
  moreOf: string[];
  lessOf: string[];
}

/**
 * Which content works: each item's engagement rate (engagements / impressions) and conversions,
 * ranked; the same by topic, format and weekday of publishing (summed in SQL, rate over the
 * group's totals); what to do more and less of.
 */
export const contentPerformance = defineTool({
  name: 'content_performance',
  description:
    'Rank content from an analytics export (CSV/XLSX) by engagement rate (engagements / impressions) and conversions; the best topics, formats and publishing weekdays; what to do more and less of.',
  input: z.object({}),
  async run(ctx): Promise<ContentPerformance> {
    const set = await tablesOf(ctx, 'the content analytics export');
    const { table, col } = pick(set, /title|topic|format|engagement|impression/i);
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
