import { z } from 'zod';
import { defineCapability } from '../../../capability';
import { laidOut, section, table, type Section } from '../../../report/section';
import { barChart, lineChart } from '../../../tools/charts';
import { list } from '../../report-parts';
import { n0 } from '../figures';
import { onTables } from '../request';
import { defineTool, ToolError } from '../../../tools/tool';
import { num, tableOf } from '../read';

const Cell = z.object({ key: z.string(), ours: z.number(), total: z.number(), share: z.number() });
const Output = z.object({
  source: z.string(),
  brand: z.string(),
  brands: z.array(z.string()),
  measure: z.string(),
  overall: z.number(),
  byChannel: z.array(Cell),
  byMonth: z.array(Cell),
  /** Month-on-month change of our share, in percentage points. */
  moments: z.array(
    z.object({
      month: z.string(),
      change: z.number(),
      direction: z.enum(['gained', 'lost']),
      drivers: z.string(),
    }),
  ),
  matrix: z.array(z.object({ brand: z.string(), month: z.string(), share: z.number() })),
});
export type ShareOfVoice = z.infer<typeof Output>;
type SovCell = z.infer<typeof Cell>;

/**
 * Share of voice: our brand's share of the total reach (or of mentions, when there is no reach
 * column) by channel and by month, from a mentions export; the months where we gained or lost
 * most ground, with the channel that moved.
 */
const tool = defineTool({
  name: 'share_of_voice',
  description:
    'Share of voice from a mentions or media monitoring export (CSV/XLSX with brand, channel, date and reach): our share of total reach by channel and by month, every brand by month, and the months where we gained or lost ground. `brand` is ours (default: the first brand in the file).',
  input: z.object({ brand: z.string().max(100).optional() }),
  async run(ctx, { brand }): Promise<ShareOfVoice> {
    const { set, table, col } = await tableOf(
      ctx,
      'the mentions export',
      /brand|channel|date|reach/i,
    );
    const c = {
      brand: col(/brand|company|competitor|name/i),
      channel: col(/channel|media|source|type/i),
      date: col(/date|published|month/i),
      reach: col(/reach|impressions|audience|circulation|views/i),
    };
    if (!c.brand) throw new ToolError(`${table.source} has no brand column.`);
    const measure = c.reach ? `SUM(${c.reach.sql})` : 'COUNT(*)';
    const brands = (
      await set.query(
        `SELECT ${c.brand.sql} AS b, MIN(rowid) AS first FROM ${table.sql} WHERE ${c.brand.sql} IS NOT NULL GROUP BY 1 ORDER BY 2`,
      )
    ).map((r) => String(r.b));
    const ours = brand
      ? (brands.find((b) => b.toLowerCase() === brand.toLowerCase()) ?? brand)
      : brands[0]!;
    const shareBy = async (expr: string): Promise<SovCell[]> =>
      (
        await set.query(
          `SELECT ${expr} AS k, SUM(CASE WHEN ${c.brand!.sql} = ? THEN m ELSE 0 END) AS ours, SUM(m) AS total FROM (SELECT *, ${c.reach ? c.reach.sql : '1'} AS m FROM ${table.sql}) WHERE ${expr} IS NOT NULL GROUP BY 1 ORDER BY 1`,
          [ours],
        )
      ).map((r) => ({
        key: String(r.k),
        ours: num(r.ours),
        total: num(r.total),
        share: num(r.total) ? Math.round((num(r.ours) / num(r.total)) * 1000) / 10 : 0,
      }));
    const month = c.date && c.date.type === 'date' ? `strftime(${c.date.sql}, '%Y-%m')` : null;
    const byChannel = c.channel ? await shareBy(c.channel.sql) : [];
    const byMonth = month ? await shareBy(month) : [];
    const totalRow = await set.query(
      `SELECT SUM(CASE WHEN ${c.brand.sql} = ? THEN m ELSE 0 END) AS ours, SUM(m) AS total FROM (SELECT *, ${c.reach ? c.reach.sql : '1'} AS m FROM ${table.sql})`,
      [ours],
    );
    const overall = num(totalRow[0]?.total)
      ? Math.round((num(totalRow[0]!.ours) / num(totalRow[0]!.total)) * 1000) / 10
      : 0;
    const matrix = month
      ? (
          await set.query(
            `SELECT ${c.brand.sql} AS b, ${month} AS mo, ${measure} AS v, SUM(${measure}) OVER (PARTITION BY ${month}) AS t FROM ${table.sql} GROUP BY 1, 2 ORDER BY 2, 1`,
          )
        ).map((r) => ({
          brand: String(r.b),
          month: String(r.mo),
          share: num(r.t) ? Math.round((num(r.v) / num(r.t)) * 1000) / 10 : 0,
        }))
      : [];
    const moments: ShareOfVoice['moments'] = [];
    for (let i = 1; i < byMonth.length; i++) {
      const change = Math.round((byMonth[i]!.share - byMonth[i - 1]!.share) * 10) / 10;
      if (Math.abs(change) < 5) continue;
      let drivers = '';
      if (c.channel) {
        const per = await set.query(
          `SELECT ${c.channel.sql} AS ch, SUM(CASE WHEN ${month} = ? AND ${c.brand.sql} = ? THEN m ELSE 0 END) - SUM(CASE WHEN ${month} = ? AND ${c.brand.sql} = ? THEN m ELSE 0 END) AS d FROM (SELECT *, ${c.reach ? c.reach.sql : '1'} AS m FROM ${table.sql}) GROUP BY 1 ORDER BY ABS(d) DESC LIMIT 1`,
          [byMonth[i]!.key, ours, byMonth[i - 1]!.key, ours],
        );
        if (per[0])
          drivers = `our ${String(per[0].ch)} reach ${num(per[0].d) >= 0 ? 'rose' : 'fell'} by ${Math.abs(num(per[0].d)).toLocaleString('en-GB')}`;
      }
      moments.push({
        month: byMonth[i]!.key,
        change,
        direction: change > 0 ? 'gained' : 'lost',
        drivers,
      });
    }
    return {
      source: table.source,
      brand: ours,
      brands,
      measure: c.reach ? `reach ("${c.reach.name}")` : 'number of mentions',
      overall,
      byChannel,
      byMonth,
      moments,
      matrix,
    };
  },
});

/** Our reach against all brands' by channel or by month, and our share of it. */
const cellTable = (name: string, brand: string, cells: SovCell[]) =>
  table<SovCell>(
    [
      { header: name, value: (c) => c.key },
      { header: brand, value: (c) => n0(c.ours) },
      { header: 'All brands', value: (c) => n0(c.total) },
      { header: 'Share of voice', value: (c) => `${c.share}%` },
    ],
    cells,
  ).markdown();

const task = {
  key: 'share-of-voice',
  title: 'Share of voice report',
  words: /\b(share of voice|mentions|media monitoring|sov)\b/i,
  needs: 'the mentions export (CSV or XLSX with brand, channel, date and reach)',
  sample: ['mentions-template.csv', 'Brand,Channel,Date,Reach\n'],
} as const;

function render(s: ShareOfVoice): Section {
  const months = s.byMonth.map((m) => m.key);
  const lines = [
    '### By channel',
    '',
    cellTable('Channel', s.brand, s.byChannel),
    '',
    '### By month',
    '',
    cellTable('Month', s.brand, s.byMonth),
    '',
    '### Where we gained or lost ground',
    '',
    ...(s.moments.length
      ? s.moments.map(
          (m) =>
            `- ${m.month}: ${m.direction} ${Math.abs(m.change)} points${m.drivers ? `; ${m.drivers}` : ''}.`,
        )
      : ['- No month moved our share by 5 points or more.']),
  ];
  return section(task.title, {
    answer: [
      `**${s.brand} has ${s.overall}% share of voice** (${s.measure}, against ${list(s.brands.filter((b) => b !== s.brand))}). ${s.moments.length ? s.moments.map((m) => `We ${m.direction} ${Math.abs(m.change)} points in ${m.month}${m.drivers ? ` (${m.drivers})` : ''}.`).join(' ') : 'No month moved our share by 5 points or more.'}`,
    ],
    content: [
      ...laidOut(lines),
      lineChart(
        'Share of voice by month (%)',
        months,
        s.brands.map((b) => ({
          label: b,
          data: months.map(
            (mo) => s.matrix.find((x) => x.brand === b && x.month === mo)?.share ?? 0,
          ),
        })),
        { max: 100 },
      ),
      barChart(
        'Share of voice by channel (%)',
        s.byChannel.map((c) => c.key),
        [{ label: s.brand, data: s.byChannel.map((c) => c.share) }],
        { max: 100 },
      ),
    ],
  });
}

export const shareOfVoice = defineCapability({
  task,
  tool: { ...tool, output: Output },
  plan(ctx) {
    const brand = /\b(?:our brand is|we are|our brand:)\s*([A-Z][\w ]{1,40}?)(?=[,.;\n]|$)/.exec(
      ctx.request,
    )?.[1];
    return onTables(ctx, { tool: tool.name, input: brand ? { brand } : {} });
  },
  render,
});
