import { z } from 'zod';
import type { TableSet } from '../../tables/types';
import {
  countryOrSite,
  dimensionSource,
  DIMENSIONS,
  hasDimension,
  numOrNull,
  peopleQuery,
  ratingRankOf,
  tenureBandOf,
  yearsBetween,
  type Dimension,
  type People,
  type Split,
} from './people';

/**
 * Dimension × measure (ADR 0088): the one grouped query of the Talent Intelligence tools. A
 * measure names SQL aggregates over people (a count, an average salary, leavers against the
 * average headcount); a breakdown runs it once per dimension (or per column named by its header)
 * and hands back typed rows, with the header the dimension read and the others that could hold it.
 */

/** The as-of date in SQL: the default date a dimension is read at. */
const AS_OF = '(SELECT d FROM ref_date)';

/** Figures by name: SQL aggregates over the rows measured. */
export interface Measure<K extends string> {
  /** The aggregates, by the name each row carries them under (never `grp`). */
  values: Record<K, string>;
  /** Which rows count, in SQL (e.g. employed on the as-of date). */
  where?: string;
  /**
   * The rows measured when they are not simply people: a query with a `grp` column, written
   * with the group's SQL at a date (attrition reads a department on each month's end and at exit).
   */
  rows?: (groupAt: (date: string) => string) => string;
  /** The table measured when it is a CTE of people (`with`) rather than `people` itself. */
  from?: string;
  /** Common table expressions the query needs (`scale AS (...)`), after people and ref_date. */
  with?: string[];
  /** Order of the groups, in SQL over `grp` and the values' names; by group by default. */
  order?: string;
  /** People with no value: a "Not stated" group (the default), or left out. */
  unstated?: 'group' | 'leave out';
}

/** One group of a breakdown with its figures (null where SQL gives none, e.g. an empty average). */
export type Group<K extends string> = { group: string } & Record<K, number | null>;

/** A dimension a breakdown can use: a people dimension, tenure band, or a named column. */
type Any = Dimension | 'tenureBand' | 'column';
/** What a breakdown asks for: a dimension, or a split (which may be a named column). */
type Asked = Any | Split<Dimension | 'tenureBand'>;
/** The dimension a breakdown of an ask carries. */
type DimensionOf<S> = S extends { dimension: infer D } ? D : S;
const isDimension = (d: string): d is Dimension => d in DIMENSIONS;

/** The SQL of a dimension's value at a date (a tenure band depends on it). */
function sqlAt(d: string, column: string, at: string): string {
  if (d === 'column') return column;
  if (d === 'tenureBand') return tenureBandOf(yearsBetween('hire', at));
  if (isDimension(d)) return DIMENSIONS[d];
  throw new Error(`No dimension ${d}`);
}

/** Whether the people have a column for a dimension. */
function present(p: People, d: string): boolean {
  if (d === 'column') return true;
  if (d === 'tenureBand') return p.has.has('hireDate');
  return isDimension(d) && hasDimension(p, d);
}

/** Runs a measure grouped by one SQL expression over `people` (or by its value at a date). */
export async function measureBy<K extends string>(
  set: TableSet,
  p: People,
  group: string | ((date: string) => string),
  m: Measure<K>,
): Promise<Array<Group<K>>> {
  const at = typeof group === 'string' ? () => group : group;
  const expr = m.rows ? 'grp' : at(AS_OF);
  const names = Object.keys(m.values) as K[];
  const where = [
    ...(m.where ? [m.where] : []),
    ...(m.unstated === 'leave out' ? [`(${expr}) IS NOT NULL`] : []),
  ];
  const rows = await peopleQuery(
    set,
    p,
    `${(m.with ?? []).map((c) => `, ${c}`).join('')}
    SELECT coalesce(${expr}, 'Not stated') AS grp, ${names.map((k) => `${m.values[k]} AS ${k}`).join(', ')}
    FROM ${m.rows ? `(${m.rows(at)}) AS measured` : (m.from ?? 'people')}
    ${where.length ? `WHERE ${where.join(' AND ')}` : ''} GROUP BY 1 ORDER BY ${m.order ?? 'grp'}`,
  );
  return rows.map(
    (r) =>
      ({
        group: String(r.grp),
        ...Object.fromEntries(names.map((k) => [k, numOrNull(r[k])])),
      }) as Group<K>,
  );
}

/** A breakdown as tools return it (ADR 0047): the split, the header it read, and its groups. */
export interface Breakdown<D extends string, G> {
  dimension: D;
  column: string | null;
  /** Other headers that could hold the dimension: present only when there are some. */
  others?: string[];
  /** Why another dimension is shown ("no country column: by location instead"). */
  note?: string;
  groups: G[];
}

/** A split to draw: its breakdown (without groups) and its SQL at a date. */
export interface Drawn<D extends string> {
  split: Omit<Breakdown<D, never>, 'groups'>;
  at: (date: string) => string;
}

/**
 * The splits that can be drawn, in the order asked: a dimension the file has no column for is
 * left out. With `siteForCountry`, "by country" without a country column is drawn by site and
 * said so, once (ADR 0047).
 */
export function drawnSplits<S extends Asked>(
  set: TableSet,
  p: People,
  splits: readonly S[],
  options: { siteForCountry?: boolean } = {},
): Array<Drawn<DimensionOf<S>>> {
  const out: Array<Drawn<DimensionOf<S>>> = [];
  for (const s of splits) {
    const asked: Split<Any> = typeof s === 'string' ? { dimension: s, sql: '', header: '' } : s;
    const { dimension, note } = options.siteForCountry
      ? countryOrSite(asked.dimension, p)
      : { dimension: asked.dimension, note: undefined };
    if (!present(p, dimension)) continue;
    if (
      options.siteForCountry &&
      dimension !== 'column' &&
      out.some((d) => d.split.dimension === dimension)
    )
      continue;
    const source =
      dimension === 'column'
        ? { column: asked.header, others: [] }
        : isDimension(dimension)
          ? dimensionSource(set, dimension)
          : { column: null, others: [] };
    out.push({
      split: {
        dimension: dimension as DimensionOf<S>,
        column: source.column,
        ...(source.others.length ? { others: source.others } : {}),
        ...(note ? { note } : {}),
      },
      at: (date) => sqlAt(dimension, asked.sql, date),
    });
  }
  return out;
}

/**
 * Whether a dimension's groups have an order of their own, the rating scale's (ADR 0098): a
 * breakdown by it keeps that order rather than ranking the groups by their figures.
 */
export const hasScale = (dimension: string) => dimension === 'rating';

/** The groups of a rating breakdown from the top of the scale down, unrated and off-scale last. */
export function topOfScaleFirst<G extends { group: string }>(set: TableSet, groups: G[]): G[] {
  const rank = ratingRankOf(set);
  const key = (g: G) => rank(g.group) ?? -Infinity;
  return [...groups].sort((a, b) => (key(a) === key(b) ? 0 : key(b) > key(a) ? 1 : -1));
}

/**
 * A measure broken down by each split that can be drawn: the dimension × measure table, a
 * rating's groups in the scale's order.
 */
export async function byDimensions<S extends Asked, K extends string>(
  set: TableSet,
  p: People,
  splits: readonly S[],
  m: Measure<K>,
  options: { siteForCountry?: boolean } = {},
): Promise<Array<Breakdown<DimensionOf<S>, Group<K>>>> {
  const out: Array<Breakdown<DimensionOf<S>, Group<K>>> = [];
  for (const { split, at } of drawnSplits(set, p, splits, options)) {
    const groups = await measureBy(set, p, at, m);
    out.push({
      ...split,
      groups: hasScale(split.dimension) ? topOfScaleFirst(set, groups) : groups,
    });
  }
  return out;
}

/** The schema of a breakdown's row: the group's name and its figures, all numbers. */
export function groupRow<K extends string>(...figures: K[]) {
  const shape = Object.fromEntries(figures.map((f) => [f, z.number()])) as Record<K, z.ZodNumber>;
  return z.object({ group: z.string(), ...shape });
}
