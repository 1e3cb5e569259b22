import { z } from 'zod';
import { defineCapability } from '../../../capability';
import { laidOut, section, table, type Column, type Section } from '../../../report/section';
import { list } from '../../report-parts';
import { money, n0, pc } from '../figures';
import { onTables } from '../request';
import { defineTool, ToolError } from '../../../tools/tool';
import { num, pct, tableOf } from '../read';

const Figures = {
  spend: z.number().nullable(),
  impressions: z.number().nullable(),
  clicks: z.number().nullable(),
  conversions: z.number().nullable(),
  target: z.number().nullable(),
  ctr: z.number().nullable(),
  conversionRate: z.number().nullable(),
  costPerConversion: z.number().nullable(),
  againstTarget: z.number().nullable(),
};
const Output = z.object({
  source: z.string(),
  channels: z.array(
    z.object({
      channel: z.string(),
      ...Figures,
      /** Rows whose conversions were missing (N/A, blank): not counted as zero. */
      missingConversions: z.number(),
    }),
  ),
  total: z.object(Figures),
  changes: z.array(z.string()),
});
export type CampaignResults = z.infer<typeof Output>;
export type ChannelResult = CampaignResults['channels'][number];

/**
 * Campaign performance by channel, summed in SQL: spend, impressions (reach), clicks and
 * conversions; click-through = clicks / impressions, conversion rate = conversions / clicks,
 * cost per conversion = spend / conversions, and conversions against target. Channel names are
 * grouped without case or spaces ("LinkedIn" = "linkedin ").
 */
const tool = defineTool({
  name: 'campaign_results',
  description:
    'Campaign results by channel from an attached export (CSV/XLSX): spend, impressions, clicks, conversions, click-through rate, conversion rate, cost per conversion and conversions against target; missing values are not zero. Suggests what to change next time from the figures.',
  input: z.object({}),
  async run(ctx): Promise<CampaignResults> {
    const { set, table, col } = await tableOf(
      ctx,
      'the campaign results',
      /channel|spend|impression|click|conversion/i,
    );
    const c = {
      channel: col(/channel|source|medium|platform/i),
      spend: col(/spend|cost|budget/i, /per|cpa|cpc/i),
      impressions: col(/impression|reach|views/i),
      clicks: col(/click/i, /rate|ctr/i),
      conversions: col(
        /conversion|signups?|sign-ups?|leads|sales|purchases/i,
        /rate|target|goal|cost/i,
      ),
      target: col(/target|goal|plan/i),
    };
    if (!c.channel) throw new ToolError(`${table.source} has no channel column.`);
    const sum = (x: typeof c.spend) => (x ? `SUM(${x.sql})` : 'NULL');
    const rows = await set.query(
      `SELECT MIN(TRIM(CAST(${c.channel.sql} AS VARCHAR))) AS channel, ${sum(c.spend)} AS spend, ${sum(c.impressions)} AS impressions, ${sum(c.clicks)} AS clicks, ${sum(c.conversions)} AS conversions, ${sum(c.target)} AS target, ${c.conversions ? `COUNT(*) - COUNT(${c.conversions.sql})` : '0'} AS missing
       FROM ${table.sql} WHERE ${c.channel.sql} IS NOT NULL GROUP BY LOWER(TRIM(CAST(${c.channel.sql} AS VARCHAR))) ORDER BY 2 DESC NULLS LAST`,
    );
    const derive = (r: {
      spend: number | null;
      impressions: number | null;
      clicks: number | null;
      conversions: number | null;
      target: number | null;
    }) => ({
      ...r,
      ctr: r.clicks !== null && r.impressions ? pct(r.clicks, r.impressions) : null,
      conversionRate: r.conversions !== null && r.clicks ? pct(r.conversions, r.clicks) : null,
      costPerConversion:
        r.spend !== null && r.conversions
          ? Math.round((r.spend / r.conversions) * 100) / 100
          : null,
      againstTarget: r.conversions !== null && r.target ? pct(r.conversions, r.target) : null,
    });
    const val = (v: unknown) => (v === null || v === undefined ? null : num(v));
    const channels: ChannelResult[] = rows.map((r) => ({
      channel: String(r.channel),
      ...derive({
        spend: val(r.spend),
        impressions: val(r.impressions),
        clicks: val(r.clicks),
        conversions: val(r.conversions),
        target: val(r.target),
      }),
      missingConversions: num(r.missing),
    }));
    const tot = (k: 'spend' | 'impressions' | 'clicks' | 'conversions' | 'target') =>
      channels.some((x) => x[k] !== null) ? channels.reduce((s, x) => s + (x[k] ?? 0), 0) : null;
    const total = derive({
      spend: tot('spend'),
      impressions: tot('impressions'),
      clicks: tot('clicks'),
      conversions: tot('conversions'),
      target: tot('target'),
    });
    const changes: string[] = [];
    const withCpa = channels.filter((x) => x.costPerConversion !== null);
    if (withCpa.length >= 2) {
      const best = withCpa.reduce((a, b) => (a.costPerConversion! <= b.costPerConversion! ? a : b));
      const worst = withCpa.reduce((a, b) =>
        a.costPerConversion! >= b.costPerConversion! ? a : b,
      );
      changes.push(
        `Move budget from ${worst.channel} (cost per conversion ${worst.costPerConversion}) towards ${best.channel} (${best.costPerConversion}).`,
      );
    }
    for (const x of channels.filter((y) => y.againstTarget !== null && y.againstTarget < 80))
      changes.push(
        `${x.channel} reached ${x.againstTarget}% of its conversion target: review its audience and offer before the next flight.`,
      );
    for (const x of channels.filter(
      (y) => y.ctr !== null && total.ctr !== null && y.ctr < total.ctr / 2,
    ))
      changes.push(
        `${x.channel} click-through (${x.ctr}%) is under half the campaign's (${total.ctr}%): test new creative or headlines.`,
      );
    for (const x of channels.filter((y) => y.missingConversions))
      changes.push(
        `${x.channel} has ${x.missingConversions} row(s) with no conversions recorded: fix the tracking, its figures are understated.`,
      );
    return { source: table.source, channels, total, changes };
  },
});

const task = {
  key: 'results',
  title: 'Campaign results review',
  words:
    /\b(campaign (performed|results)|how a campaign performed|results review|click-through|cost per (conversion|acquisition))\b/i,
  needs:
    'the campaign results (CSV or XLSX with channel, date, spend, impressions, clicks and conversions)',
  sample: [
    'campaign-results-template.csv',
    'Date,Channel,Spend,Impressions,Clicks,Conversions,Target conversions\n',
  ],
} as const;

type Channel = CampaignResults['channels'][number];

function render(r: CampaignResults): Section {
  const best = [...r.channels]
    .filter((c) => c.costPerConversion !== null)
    .sort((a, b) => a.costPerConversion! - b.costPerConversion!)[0];
  const behind = r.channels.filter((c) => c.againstTarget !== null && c.againstTarget < 100);
  // A figure's column: the value, shown as written, and the campaign's total shown last.
  const total: Channel = { ...r.total, channel: '**Total**', missingConversions: 0 };
  const figure = (
    header: string,
    value: (c: Channel) => number | null,
    shown: (n: number | null) => string,
  ): Column<Channel> => ({
    header,
    value,
    shown: (c) => shown(value(c)),
    total: shown(value(total)),
  });
  const channels = table<Channel>(
    [
      { header: 'Channel', value: (c) => c.channel, total: total.channel },
      figure('Spend', (c) => c.spend, money),
      figure('Impressions', (c) => c.impressions, n0),
      figure('Clicks', (c) => c.clicks, n0),
      figure('Click-through', (c) => c.ctr, pc),
      figure('Conversions', (c) => c.conversions, n0),
      figure('Conversion rate', (c) => c.conversionRate, pc),
      figure('Cost per conversion', (c) => c.costPerConversion, money),
      figure('Target', (c) => c.target, n0),
      figure('Against target', (c) => c.againstTarget, pc),
    ],
    r.channels,
  );
  const lines = [
    '### By channel against target',
    '',
    channels.markdown(),
    '',
    'Click-through = clicks ÷ impressions; conversion rate = conversions ÷ clicks; cost per conversion = spend ÷ conversions. Missing conversions (N/A, blank) are left out, not counted as zero.',
    '',
    '### What to change next time',
    '',
    r.changes.map((c) => `- ${c}`).join('\n') || '- Keep the mix: no channel stands out.',
  ];
  return section(task.title, {
    answer: [
      `**The campaign spent ${money(r.total.spend)} for ${n0(r.total.conversions)} conversions (${pc(r.total.againstTarget)} of target), ${money(r.total.costPerConversion)} each.** ${best ? `${best.channel} converted cheapest (${money(best.costPerConversion)} a conversion).` : ''} ${behind.length ? `Behind target: ${list(behind.map((c) => `${c.channel} (${c.againstTarget}%)`))}.` : 'Every channel met its target.'}`,
    ],
    content: [
      ...laidOut(lines),
      channels.bar('Conversions against target by channel', 'Channel', ['Conversions', 'Target']),
      channels.bar('Cost per conversion by channel (£)', 'Channel', [
        { header: 'Cost per conversion', label: '£ per conversion' },
      ]),
    ],
  });
}

export const campaignResults = defineCapability({
  task,
  tool: { ...tool, output: Output },
  plan: (ctx) => onTables(ctx, { tool: tool.name, input: {} }),
  render,
});
