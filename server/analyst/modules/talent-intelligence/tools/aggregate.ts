import type { ChartItem } from '@contract/structured-response';
import { grouped, plural } from '../../../report/words';
import { barChart } from '../../../tools/charts';
import { laidOut, section, type Section } from '../../../report/section';
import { groupsTable } from '../render';
import { z } from 'zod';
import type { LoadedTable, TableSet } from '../../../tables/types';
import { colOf, num, peopleTables, round1 } from '../people';

/**
 * Headcount and attrition of an aggregated table (ADR 0045): rows are groups (a business unit in
 * a country) with their own headcount, leavers and attrition rate. Totals add the groups' counts;
 * a rate over several groups is their leavers ÷ their headcount, or their rates weighted by
 * headcount when only rates are given. Never a count of rows as people.
 */

export const AGGREGATE_DEFINITION =
  "From an aggregated table: headcount is the sum of the groups' headcounts; attrition over several groups is their leavers ÷ their headcount (or, when only rates are given, the rates weighted by headcount), as the groups' own figures define them.";

export const aggregateGroup = z.object({
  group: z.string(),
  headcount: z.number().nullable(),
  leavers: z.number().nullable(),
  /** Attrition in %, or null when neither leavers nor a rate is given. */
  rate: z.number().nullable(),
});
export type AggregateGroup = z.infer<typeof aggregateGroup>;

export const aggregateResult = z.object({
  aggregate: z.literal(true),
  definition: z.string(),
  source: z.string(),
  asOf: z.string().nullable(),
  groups: z.number(),
  headcount: z.number().nullable(),
  leavers: z.number().nullable(),
  rate: z.number().nullable(),
  /** How the overall rate was found, in words. */
  rateFrom: z.string().nullable(),
  by: z.array(z.object({ dimension: z.string(), groups: z.array(aggregateGroup) })),
  /** What needs a person-level export. */
  personLevel: z.string(),
});
export type AggregateResult = z.infer<typeof aggregateResult>;

/** The aggregated table of the set, when no table holds people. */
export function aggregateTableOf(set: TableSet): LoadedTable | null {
  if (peopleTables(set).length) return null;
  return set.tables.find((t) => t.shape === 'aggregate') ?? null;
}

export async function aggregateOf(set: TableSet, t: LoadedTable): Promise<AggregateResult> {
  const hc = colOf(t, 'headcount');
  const lv = colOf(t, 'leavers');
  const rt = colOf(t, 'attritionRate');
  const n = (c: typeof hc) => (c ? `TRY_CAST(${c.sql} AS DOUBLE)` : 'CAST(NULL AS DOUBLE)');
  // A rate column of fractions (0.125) or of percents (12.5): the largest value tells.
  let scale = 1;
  if (rt) {
    const [m] = await set.query(`SELECT max(abs(${n(rt)})) AS m FROM ${t.sql}`);
    scale = num(m?.m) <= 1 ? 100 : 1;
  }
  const rateSql = `CASE WHEN sum(${n(hc)}) FILTER (WHERE ${n(lv)} IS NOT NULL) > 0 AND ${lv ? 'TRUE' : 'FALSE'}
      THEN 100 * sum(${n(lv)}) / sum(${n(hc)}) FILTER (WHERE ${n(lv)} IS NOT NULL)
    WHEN sum(${n(hc)}) FILTER (WHERE ${n(rt)} IS NOT NULL) > 0
      THEN ${scale} * sum(${n(rt)} * ${n(hc)}) / sum(${n(hc)}) FILTER (WHERE ${n(rt)} IS NOT NULL)
    WHEN count(${n(rt)}) = 1 THEN ${scale} * any_value(${n(rt)}) END`;
  const stats = `sum(${n(hc)}) AS hc, sum(${n(lv)}) AS lv, ${rateSql} AS rate`;
  const [o] = await set.query(`SELECT ${stats} FROM ${t.sql}`);
  const dims = t.columns.filter(
    (c) =>
      c.type === 'text' &&
      ['department', 'costCentre', 'country', 'location', 'level', 'jobTitle', 'gender'].includes(
        c.role ?? '',
      ),
  );
  const by: AggregateResult['by'] = [];
  for (const d of dims) {
    const rows = await set.query(
      `SELECT coalesce(NULLIF(TRIM(CAST(${d.sql} AS VARCHAR)), ''), 'Not stated') AS g, ${stats} FROM ${t.sql} GROUP BY 1 ORDER BY hc DESC NULLS LAST, g`,
    );
    by.push({
      dimension: d.name,
      groups: rows.map((r) => ({
        group: String(r.g),
        headcount: r.hc === null ? null : num(r.hc),
        leavers: r.lv === null ? null : num(r.lv),
        rate: r.rate === null ? null : round1(num(r.rate)),
      })),
    });
  }
  return {
    aggregate: true,
    definition: AGGREGATE_DEFINITION,
    source: t.source,
    asOf: set.asOf,
    groups: t.rows,
    headcount: o?.hc === null ? null : num(o?.hc),
    leavers: o?.lv === null ? null : num(o?.lv),
    rate: o?.rate === null ? null : round1(num(o?.rate)),
    rateFrom:
      lv && hc
        ? "the groups' leavers ÷ their headcount"
        : rt && hc
          ? "the groups' attrition rates weighted by their headcount"
          : rt
            ? 'the attrition rate given'
            : null,
    by,
    personLevel:
      'Person-level figures (pay, the gender pay gap, tenure, ratings, voluntary versus involuntary exits) need a person-level export with one row per employee.',
  };
}

// ---------------------------------------------------------------------------------------------
// The capability (ADR 0084): the task it answers, its plan and its report section.

/** Headcount and attrition from an aggregated table: the groups' own counts and rates. */
export function aggregateSection(r: AggregateResult, title: string): Section {
  const answer: string[] = [];
  const lines: string[] = [];
  const charts: ChartItem[] = [];
  answer.push(
    `${r.source} holds ${plural(r.groups, 'group')}, not people, so these figures are the groups' own counts and rates.`,
  );
  if (r.headcount !== null)
    answer.push(`Headcount: **${grouped(r.headcount)}** (the sum of the groups' headcounts).`);
  if (r.rate !== null)
    answer.push(
      `Attrition: **${r.rate}%**${r.leavers !== null ? ` (${plural(r.leavers, 'leaver')})` : ''}, from ${r.rateFrom}.`,
    );
  answer.push(r.personLevel);
  const stated = (v: number | null, unit = '') => (v === null ? 'not stated' : `${v}${unit}`);
  const tables = r.by.map((b) => {
    const t = groupsTable<AggregateGroup>(
      b.dimension,
      [
        { header: 'Headcount', value: (g) => g.headcount, shown: (g) => stated(g.headcount) },
        { header: 'Leavers', value: (g) => g.leavers, shown: (g) => stated(g.leavers) },
        { header: 'Attrition', value: (g) => g.rate, shown: (g) => stated(g.rate, '%') },
      ],
      b.groups,
    );
    lines.push(`### By ${b.dimension}`, '', t.markdown(), '');
    return t;
  });
  const [first] = tables;
  if (first)
    charts.push(
      barChart(
        `Attrition by ${r.by[0]!.dimension}`,
        first.labels(first.headers[0]!),
        [first.series('Attrition', 'Attrition (%)')],
        { yTitle: '%' },
      ),
    );
  return section(title, {
    answer,
    content: laidOut(lines, charts),
    nextSteps: [
      'Attach a person-level export (one row per employee) for pay, tenure and the gender pay gap',
    ],
  });
}
