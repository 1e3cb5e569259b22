import { z } from 'zod';
import { defineCapability } from '../../../capability';
import { laidOut, section, table, type Section } from '../../../report/section';
import { doughnutChart } from '../../../tools/charts';
import { defineTool, ToolError } from '../../../tools/tool';
import { onTables } from '../request';
import { num, pct, tableOf } from '../read';

const Output = z.object({
  source: z.string(),
  respondents: z.number(),
  awareness: z.number(),
  consideration: z.number(),
  /** Consideration among those aware of the brand. */
  considerationAmongAware: z.number(),
  segments: z.array(
    z.object({
      segment: z.string(),
      respondents: z.number(),
      awareness: z.number(),
      consideration: z.number(),
    }),
  ),
  attributes: z.array(z.object({ attribute: z.string(), mentions: z.number(), share: z.number() })),
  unanswered: z.number(),
});
export type BrandSurvey = z.infer<typeof Output>;

const YES = `IN ('yes', 'y', 'true', '1', 'aware', 'likely', 'very likely', 'definitely')`;

/**
 * A brand perception survey: awareness and consideration (share answering yes, or 4-5 on a
 * five-point scale) overall and by segment; the attributes people associate with the brand
 * (multi-choice answers split on ; , or |), as a share of respondents.
 */
const tool = defineTool({
  name: 'brand_survey',
  description:
    'Analyse a brand perception survey (CSV/XLSX, one row per respondent): awareness and consideration overall and by segment (yes answers, or 4-5 on a 1-5 scale), consideration among the aware, and the attributes associated with the brand as a share of respondents.',
  input: z.object({}),
  async run(ctx): Promise<BrandSurvey> {
    const { set, table, col } = await tableOf(
      ctx,
      'the survey results',
      /aware|consider|segment|attribute|describe/i,
    );
    const c = {
      segment: col(/segment|group|customer type|age|region|persona/i),
      aware: col(/aware|heard of|know/i),
      consider: col(/consider|likely to|would use|intent/i),
      attributes: col(/attribute|describe|words|associat|perception/i),
    };
    if (!c.aware) throw new ToolError(`${table.source} has no awareness column.`);
    const flag = (x: NonNullable<typeof c.aware>) =>
      x.type === 'number' ? `(${x.sql} >= 4)` : `(LOWER(TRIM(CAST(${x.sql} AS VARCHAR))) ${YES})`;
    const aware = flag(c.aware);
    const consider = c.consider ? flag(c.consider) : 'FALSE';
    const stats = async (by: string | null) =>
      set.query(
        `SELECT ${by ?? "'All'"} AS seg, COUNT(*) AS n, SUM(CASE WHEN ${aware} THEN 1 ELSE 0 END) AS a, SUM(CASE WHEN ${consider} THEN 1 ELSE 0 END) AS c, SUM(CASE WHEN ${aware} AND ${consider} THEN 1 ELSE 0 END) AS ac FROM ${table.sql} GROUP BY 1 ORDER BY 1`,
      );
    const all = (await stats(null))[0]!;
    const segments = c.segment
      ? (await stats(c.segment.sql)).map((r) => ({
          segment: String(r.seg),
          respondents: num(r.n),
          awareness: pct(num(r.a), num(r.n)),
          consideration: pct(num(r.c), num(r.n)),
        }))
      : [];
    const attributes = c.attributes
      ? (
          await set.query(
            `SELECT TRIM(a) AS attribute, COUNT(*) AS k FROM (SELECT UNNEST(regexp_split_to_array(CAST(${c.attributes.sql} AS VARCHAR), '[;,|]')) AS a FROM ${table.sql} WHERE ${c.attributes.sql} IS NOT NULL) WHERE TRIM(a) <> '' GROUP BY 1 ORDER BY 2 DESC, 1`,
          )
        ).map((r) => ({
          attribute: String(r.attribute),
          mentions: num(r.k),
          share: pct(num(r.k), num(all.n)),
        }))
      : [];
    const unanswered = c.attributes
      ? num(
          (
            await set.query(
              `SELECT COUNT(*) AS k FROM ${table.sql} WHERE ${c.attributes.sql} IS NULL`,
            )
          )[0]!.k,
        )
      : 0;
    return {
      source: table.source,
      respondents: num(all.n),
      awareness: pct(num(all.a), num(all.n)),
      consideration: pct(num(all.c), num(all.n)),
      considerationAmongAware: pct(num(all.ac), num(all.a)),
      segments,
      attributes,
      unanswered,
    };
  },
});

const task = {
  key: 'survey',
  title: 'Brand perception survey analysis',
  words: /\b(survey|perception|awareness and consideration)\b/i,
  needs: 'the survey results (CSV or XLSX, one row per respondent)',
  sample: [
    'survey-template.csv',
    'Respondent,Segment,Aware of brand,Would consider,Words that describe the brand\n',
  ],
} as const;

function render(s: BrandSurvey): Section {
  const segments = table<BrandSurvey['segments'][number]>(
    [
      { header: 'Segment', value: (g) => g.segment },
      { header: 'Respondents', value: (g) => g.respondents },
      { header: 'Awareness', value: (g) => g.awareness, shown: (g) => `${g.awareness}%` },
      {
        header: 'Consideration',
        value: (g) => g.consideration,
        shown: (g) => `${g.consideration}%`,
      },
    ],
    s.segments,
  );
  const attributes = table<BrandSurvey['attributes'][number]>(
    [
      { header: 'Attribute', value: (a) => a.attribute },
      { header: 'Mentions', value: (a) => a.mentions },
      { header: 'Share of respondents', value: (a) => a.share, shown: (a) => `${a.share}%` },
    ],
    s.attributes,
  );
  const lines = [
    '### By segment',
    '',
    segments.markdown(),
    '',
    '### Attributes associated with the brand',
    '',
    attributes.markdown(),
    '',
    `Awareness and consideration count "yes" answers (or 4-5 on a five-point scale) over all respondents. ${s.unanswered} respondent(s) named no attribute.`,
  ];
  return section(task.title, {
    answer: [
      `**${s.awareness}% of ${s.respondents} respondents know the brand and ${s.consideration}% would consider it** (${s.considerationAmongAware}% of those who know it). ${s.attributes[0] ? `The attribute most associated with it: ${s.attributes[0].attribute} (${s.attributes[0].share}% of respondents).` : ''}`,
    ],
    content: [
      ...laidOut(lines),
      segments.bar(
        'Awareness and consideration by segment (%)',
        'Segment',
        ['Awareness', 'Consideration'],
        { max: 100 },
      ),
      doughnutChart(
        'Attributes associated with the brand',
        attributes.labels('Attribute'),
        attributes.series('Mentions').data,
        'Mentions',
      ),
    ],
  });
}

export const brandSurvey = defineCapability({
  task,
  tool: { ...tool, output: Output },
  plan: (ctx) => onTables(ctx, { tool: tool.name, input: {} }),
  render,
});
