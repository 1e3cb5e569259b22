import { z } from 'zod';
import { aggregateOf, aggregateTableOf, type AggregateResult } from './aggregate';
import { defineTool, ToolError } from '../../../tools/tool';
import {
  countryOrSite,
  splitsOf,
  columnSplitsOf,
  dimensionSource,
  DIMENSIONS,
  employedOn,
  hasDimension,
  need,
  num,
  peopleOf,
  peopleQuery,
  round1,
  tenureBandOf,
  TENURE_BANDS,
  yearsBetween,
  type Dimension,
  basisSchema,
} from '../people';

export const ATTRITION_DEFINITION =
  'Attrition: leavers in the 12 months up to the as-of date ÷ the average headcount over those months (the mean of the headcounts on the as-of date and on the same day of each of the 11 months before), in %; an exit by mutual agreement (Aufhebungsvertrag, rupture conventionnelle) counts as involuntary, as the employer usually initiates it.';

/** Below this average headcount a group's rate swings on one leaver: it is flagged, not ranked. */
export const SMALL_GROUP = 5;

export const attritionDimension = z.enum([
  'department',
  'location',
  'country',
  'costCentre',
  'level',
  'job',
  'gender',
  'manager',
  'source',
  'rating',
  'ageBand',
  'partTime',
  'tenureBand',
]);
export type AttritionDimension = z.infer<typeof attritionDimension>;

export const rateRow = z.object({
  group: z.string(),
  leavers: z.number(),
  voluntary: z.number(),
  involuntary: z.number(),
  averageHeadcount: z.number(),
  rate: z.number(),
  voluntaryRate: z.number(),
  /** True when the average headcount is under SMALL_GROUP. */
  small: z.boolean(),
});
export type RateRow = z.infer<typeof rateRow>;

export const attritionResult = z.object({
  definition: z.string(),
  asOf: z.string(),
  from: z.string(),
  leavers: z.number(),
  voluntary: z.number(),
  involuntary: z.number(),
  /** Leavers whose exit type or reason does not say voluntary or involuntary. */
  unknownType: z.number(),
  /** Whether the file says which exits were voluntary. */
  typeKnown: z.boolean(),
  averageHeadcount: z.number(),
  rate: z.number(),
  voluntaryRate: z.number(),
  involuntaryRate: z.number(),
  /** Leavers marked as left with no exit date: not in the rate. */
  leftWithoutDate: z.number(),
  monthly: z.array(
    z.object({ month: z.string(), leavers: z.number(), voluntary: z.number(), rate: z.number() }),
  ),
  /** Exit reasons of the leavers in the window, most common first. */
  reasons: z.array(
    z.object({ reason: z.string(), type: z.string().nullable(), leavers: z.number() }),
  ),
  by: z.array(
    z.object({
      /** `column`: a column the request named by its header (see `column`). */
      dimension: z.union([attritionDimension, z.literal('column')]),
      /** The header the breakdown reads, as the file spells it. */
      column: z.string().nullable().optional(),
      /** Other headers that could hold the same dimension, offered as a next step. */
      others: z.array(z.string()).optional(),
      /** Why another dimension is shown ("no country column: by location instead"). */
      note: z.string().optional(),
      groups: z.array(rateRow),
    }),
  ),
  basis: basisSchema,
});
export type AttritionResult = z.infer<typeof attritionResult>;

const ASOF = '(SELECT d FROM ref_date)';
export const POINTS = `points AS (SELECT CAST(${ASOF} - to_months(k::INTEGER) AS DATE) AS pt, k FROM range(0, 13) r(k))`;
export const IN_WINDOW = `(exit > CAST(${ASOF} - INTERVAL 12 MONTH AS DATE) AND exit <= ${ASOF})`;

function dimensionSql(d: AttritionDimension | 'column', at: string, column = ''): string {
  if (d === 'column') return column;
  return d === 'tenureBand' ? tenureBandOf(yearsBetween('hire', at)) : DIMENSIONS[d as Dimension];
}

/** Column headers a request names as splits: described for models and the planner alike. */
export const COLUMNS_INPUT = z
  .array(z.string().min(1).max(255))
  .max(4)
  .optional()
  .describe(
    'Columns of the file to break down by, named by their header as the file spells it (e.g. "Supervisory Organization", "Cost Center"); a name that is no header is ignored.',
  );

export const attritionTool = defineTool({
  name: 'ti_attrition',
  description: `${ATTRITION_DEFINITION} Split voluntary / involuntary when the exit type or reason says so; by department, location, level, tenure band (tenure at exit), rating and other dimensions; and the monthly attrition series. Leavers of all time ÷ everyone in the file is NOT an attrition rate and is never returned.`,
  input: z.object({
    by: z
      .array(attritionDimension)
      .max(8)
      .default(['department', 'location', 'tenureBand', 'rating']),
    columns: COLUMNS_INPUT,
  }),
  async run(ctx, input): Promise<AttritionResult | AggregateResult> {
    const set = await ctx.tables();
    const aggregate = aggregateTableOf(set);
    if (aggregate) return aggregateOf(set, aggregate);
    const named = columnSplitsOf(
      set,
      input.columns ?? [],
      input.by.filter((d): d is Dimension => d !== 'tenureBand'),
    );
    const p = await peopleOf(set, named);
    need(p, ['exitDate', 'status'], 'attrition');
    if (!p.has.has('exitDate'))
      throw new ToolError(
        'The file marks leavers by status but has no exit date, so leavers in the last 12 months cannot be told apart from earlier ones. Add an exit or termination date column.',
      );
    const [totals] = await peopleQuery(
      set,
      p,
      `, ${POINTS}
      SELECT
        (SELECT count(*) FROM people WHERE ${IN_WINDOW})::INTEGER AS leavers,
        (SELECT count(*) FROM people WHERE ${IN_WINDOW} AND exit_type = 'voluntary')::INTEGER AS vol,
        (SELECT count(*) FROM people WHERE ${IN_WINDOW} AND exit_type = 'involuntary')::INTEGER AS invol,
        (SELECT count(*) FROM people WHERE exit IS NULL AND left_flag)::INTEGER AS nodate,
        (SELECT count(*) FROM people WHERE exit_type IS NOT NULL)::INTEGER AS typed,
        (SELECT count(*) FROM points JOIN people ON ${employedOn('points.pt')} WHERE k < 12)::DOUBLE / 12 AS avg_hc,
        CAST(CAST(${ASOF} - INTERVAL 12 MONTH AS DATE) AS VARCHAR) AS from_date`,
    );
    const leavers = num(totals?.leavers);
    const voluntary = num(totals?.vol);
    const involuntary = num(totals?.invol);
    const avg = num(totals?.avg_hc);
    const pct = (n: number, d: number) => (d > 0 ? round1((n / d) * 100) : 0);
    const typeKnown = num(totals?.typed) > 0;

    const monthlyRows = await peopleQuery(
      set,
      p,
      `, ${POINTS},
      hc AS (SELECT k, pt, count(people.src)::INTEGER AS n
             FROM points LEFT JOIN people ON ${employedOn('points.pt')} GROUP BY k, pt)
      SELECT strftime(e.pt, '%b %Y') AS month, e.k,
        (SELECT count(*) FROM people WHERE exit > s.pt AND exit <= e.pt)::INTEGER AS leavers,
        (SELECT count(*) FROM people WHERE exit > s.pt AND exit <= e.pt AND exit_type = 'voluntary')::INTEGER AS vol,
        (s.n + e.n) / 2.0 AS avg_hc
      FROM hc e JOIN hc s ON s.k = e.k + 1
      ORDER BY e.k DESC`,
    );
    const monthly = monthlyRows.map((r) => ({
      month: String(r.month),
      leavers: num(r.leavers),
      voluntary: num(r.vol),
      rate: pct(num(r.leavers), num(r.avg_hc)),
    }));

    const reasonRows = p.has.has('exitReason')
      ? await peopleQuery(
          set,
          p,
          `SELECT coalesce(exit_reason, 'Not stated') AS reason, any_value(exit_type) AS type, count(*)::INTEGER AS n
           FROM people WHERE ${IN_WINDOW} GROUP BY 1 ORDER BY n DESC, reason LIMIT 12`,
        )
      : [];
    const reasons = reasonRows.map((r) => ({
      reason: String(r.reason),
      type: r.type === null ? null : String(r.type),
      leavers: num(r.n),
    }));
    const by: AttritionResult['by'] = [];
    const splits = splitsOf<AttritionDimension>(input.by, named);
    for (const split of splits) {
      const { dimension, note } = countryOrSite(split.dimension, p);
      if (
        dimension !== 'column' &&
        (dimension === 'tenureBand'
          ? !p.has.has('hireDate')
          : !hasDimension(p, dimension as Dimension))
      )
        continue;
      if (by.some((b) => b.dimension === dimension && dimension !== 'column')) continue;
      const source =
        dimension === 'column' || dimension === 'tenureBand'
          ? { column: dimension === 'column' ? split.header : null, others: [] }
          : dimensionSource(set, dimension as Dimension);
      const rows = await peopleQuery(
        set,
        p,
        `, ${POINTS},
        snap AS (SELECT coalesce(${dimensionSql(dimension, 'points.pt', split.sql)}, 'Not stated') AS grp, count(*)::DOUBLE / 12 AS avg_hc
                 FROM points JOIN people ON ${employedOn('points.pt')} WHERE k < 12 GROUP BY 1),
        gone AS (SELECT coalesce(${dimensionSql(dimension, 'exit', split.sql)}, 'Not stated') AS grp,
                   count(*)::INTEGER AS leavers,
                   count(*) FILTER (WHERE exit_type = 'voluntary')::INTEGER AS vol,
                   count(*) FILTER (WHERE exit_type = 'involuntary')::INTEGER AS invol
                 FROM people WHERE ${IN_WINDOW} GROUP BY 1)
        SELECT coalesce(snap.grp, gone.grp) AS grp, coalesce(leavers, 0) AS leavers, coalesce(vol, 0) AS vol,
          coalesce(invol, 0) AS invol, coalesce(avg_hc, 0) AS avg_hc
        FROM snap FULL JOIN gone ON snap.grp = gone.grp`,
      );
      const groups = rows
        .map((r) => {
          const a = num(r.avg_hc);
          return {
            group: String(r.grp),
            leavers: num(r.leavers),
            voluntary: num(r.vol),
            involuntary: num(r.invol),
            averageHeadcount: round1(a),
            rate: pct(num(r.leavers), a),
            voluntaryRate: pct(num(r.vol), a),
            small: a < SMALL_GROUP,
          };
        })
        .sort((x, y) =>
          dimension === 'tenureBand'
            ? TENURE_BANDS.indexOf(x.group) - TENURE_BANDS.indexOf(y.group)
            : Number(x.small) - Number(y.small) ||
              y.rate - x.rate ||
              x.group.localeCompare(y.group),
        );
      by.push({
        dimension,
        column: source.column,
        ...(source.others.length ? { others: source.others } : {}),
        ...(note ? { note } : {}),
        groups,
      });
    }
    return {
      definition: ATTRITION_DEFINITION,
      asOf: p.asOf,
      from: String(totals?.from_date),
      leavers,
      voluntary,
      involuntary,
      unknownType: leavers - voluntary - involuntary,
      typeKnown,
      averageHeadcount: round1(avg),
      rate: pct(leavers, avg),
      voluntaryRate: pct(voluntary, avg),
      involuntaryRate: pct(involuntary, avg),
      leftWithoutDate: num(totals?.nodate),
      monthly,
      reasons,
      by,
      basis: p.basis,
    };
  },
});
