import { z } from 'zod';
import { payColumnsSql } from '../../tables/pay';
import { roleFromHeader } from '../../tables/roles';
import { currentSource } from '../../tables/shape';
import type { ColumnInfo, ColumnRole, LoadedTable, SqlRow, TableSet } from '../../tables/types';
import { ToolError, type ToolContext } from '../../tools/tool';
import {
  containsAny,
  foldSql,
  GENDER_LETTERS,
  GENDER_WORDS,
  LEAVING,
  sqlList,
  normalizeHeader,
  STATUS_WORDS,
  YES_NO,
} from '../../tables/vocabulary';

/**
 * One normalised view of the people in the attachments: every staff and leavers table (a
 * leavers sheet feeds attrition) mapped by its column roles onto the same columns, so each TI
 * tool is one SQL query over `people` and no definition is written twice.
 */

/** What a tool result says about the data it stood on, for the report's "How I read" part. */
export const basisSchema = z.object({
  tables: z.array(z.object({ source: z.string(), role: z.string(), rows: z.number() })),
  asOf: z.string(),
  asOfSource: z.string(),
  /** Roles found, as "hire date → Start Date (t1)". */
  mapping: z.array(z.string()),
  warnings: z.array(z.string()),
});
export type Basis = z.infer<typeof basisSchema>;
/**
 * A result over the people (ADR 0098): the definition it states, the as-of date and how the file
 * was read (the report's "Definitions used" and "How I read your file" take them from every
 * result), around the figures of its own.
 */
export const peopleResult = <F extends z.ZodRawShape>(figures: F) =>
  z.object({ definition: z.string(), asOf: z.string(), basis: basisSchema }).extend(figures);

/** A result over the people `p` (see `peopleResult`): its own figures inside the shared envelope. */
export const resultOver = <F extends object>(p: People, definition: string, figures: F) => ({
  definition,
  asOf: p.asOf,
  ...figures,
  basis: p.basis,
});

/** The basis of a result that reads one table (no as-of date, no people mapping). */
export const tablesBasisSchema = basisSchema.pick({ tables: true });

/**
 * A breakdown as a tool returns it (ADR 0047): its dimension, or `column` for a column the request
 * named by its header; the header it read, the others that could hold it, and its groups.
 */
export const splitOf = <D extends z.ZodType, G extends z.ZodType>(dimension: D, group: G) =>
  z.object({
    /** `column`: a column the request named by its header (see `column`). */
    dimension: z.union([dimension, z.literal('column')]),
    /** The header the breakdown reads, as the file spells it. */
    column: z.string().nullable().optional(),
    /** Other headers that could hold the same dimension, offered as a next step. */
    others: z.array(z.string()).optional(),
    /** Why another dimension is shown ("no country column: by location instead"). */
    note: z.string().optional(),
    groups: z.array(group),
  });

export interface People {
  /** `WITH people AS (...)`: prefix of every query. */
  cte: string;
  asOf: string;
  /** Which roles at least one people table has. */
  has: Set<ColumnRole>;
  basis: Basis;
  /** Why pay figures cannot be stated (the reading doubts the pay basis), or null. */
  payDoubt: string | null;
  /** Whether pay was converted (hours, FTE or a basis other than annual): hourly pay differs. */
  payConverted: boolean;
  /** The pay conversion and the hours assumed, in words, for the report. */
  payMethod: string | null;
}

export const ROLE_WORDS: Partial<Record<ColumnRole, string>> = {
  employeeId: 'employee id',
  department: 'department',
  costCentre: 'cost centre',
  location: 'location',
  country: 'country',
  level: 'grade or level',
  jobTitle: 'job title',
  hireDate: 'hire date',
  exitDate: 'exit date',
  exitReason: 'exit reason',
  exitType: 'exit type',
  status: 'status',
  rating: 'rating',
  previousRating: 'previous rating',
  salary: 'salary',
  bonus: 'bonus',
  gender: 'gender',
  managerId: 'manager id',
  birthDate: 'birth date',
  age: 'age',
  ageBand: 'age band',
  partTime: 'part-time',
  fte: 'FTE',
  source: 'hiring source',
  timeInLevel: 'time in level',
};

/** A SQL string literal. */
export const lit = (value: string) => `'${value.replace(/'/g, "''")}'`;

/** The parts of a column the SQL builders need. */
export type ColumnInfoLike = Pick<ColumnInfo, 'sql'>;

export const colOf = (t: LoadedTable, role: ColumnRole): ColumnInfo | undefined =>
  t.columns.find((c) => c.role === role);

/** Cleaned text of a column: trimmed, blank as NULL. */
const textOf = (c: ColumnInfo | undefined) =>
  !c
    ? 'CAST(NULL AS VARCHAR)'
    : c.type === 'number'
      ? // A rating or grade stored as a number reads "4", not "4.0".
        `regexp_replace(CAST(${c.sql} AS VARCHAR), '\\.0$', '')`
      : `NULLIF(TRIM(CAST(${c.sql} AS VARCHAR)), '')`;
const numOf = (c: ColumnInfo | undefined) =>
  c ? `TRY_CAST(${c.sql} AS DOUBLE)` : 'CAST(NULL AS DOUBLE)';
const dateOf = (c: ColumnInfo | undefined) =>
  c ? `TRY_CAST(${c.sql} AS DATE)` : 'CAST(NULL AS DATE)';

/** A text expression folded for comparison with the vocabularies: lower case, no accents. */
const folded = (expr: string) => foldSql(expr);
const re = (words: readonly string[]) => lit(containsAny(words));

/** Status words that mean the person has left, every language; "notice" is still employed. */
const LEFT_STATUS = lit(`(^|[^a-z])(${containsAny(STATUS_WORDS.left)})([^a-z]|$)`);
// Who gave notice decides, checked before the English stems: "Kündigung durch Arbeitnehmer" is a
// resignation, "ontslag" alone a dismissal, "eigen ontslag" a resignation again (vocabulary/).
const MUTUAL = re(LEAVING.mutual);
const OTHER_EXIT = re(LEAVING.other);
const VOLUNTARY_FIRST = re(LEAVING.voluntaryFirst);
const INVOLUNTARY_FIRST = re(LEAVING.involuntaryFirst);
const VOLUNTARY_NAMED = re(LEAVING.voluntaryPhrases);
const INVOLUNTARY_NAMED = re(LEAVING.involuntaryPhrases);
const INVOLUNTARY = re(LEAVING.involuntaryStems);
const VOLUNTARY = re(LEAVING.voluntaryStems);

/**
 * Women / Men / Other from a gender column, in every language: words first, then one-letter
 * codes, read per column: most languages' letters agree (F, W, V, K women; M, H men), but a
 * column of only H and M is Spanish (hombre / mujer).
 */
function genderSql(t: LoadedTable, c: ColumnInfo | undefined): string {
  if (!c) return 'CAST(NULL AS VARCHAR)';
  const g = folded(textOf(c));
  const defaults = GENDER_LETTERS.filter((p) => p.lang === 'en' || p.women !== 'm');
  const women = [...new Set(defaults.map((p) => p.women))];
  const men = [...new Set(defaults.map((p) => p.men))];
  const letters = `(SELECT list(DISTINCT ${folded(textOf(c))}) FILTER (WHERE length(trim(${c.sql}::VARCHAR)) = 1) FROM ${t.sql})`;
  const special = GENDER_LETTERS.filter((p) => p.women === 'm' || men.includes(p.women));
  return `CASE WHEN ${g} IS NULL THEN NULL
      WHEN ${g} IN ${sqlList(GENDER_WORDS.women)} THEN 'Women'
      WHEN ${g} IN ${sqlList(GENDER_WORDS.men)} THEN 'Men'
      ${special
        .map(
          (p) =>
            `WHEN length(${g}) = 1 AND list_sort(${letters}) = list_sort(['${p.women}', '${p.men}']) THEN (CASE ${g} WHEN '${p.women}' THEN 'Women' WHEN '${p.men}' THEN 'Men' END)`,
        )
        .join('\n      ')}
      WHEN ${g} IN ${sqlList(women)} THEN 'Women'
      WHEN ${g} IN ${sqlList(men)} THEN 'Men'
      ELSE 'Other or not stated' END`;
}

/**
 * The rating as its step on the table's one scale (ADR 0043): every spelling of a step
 * ("Exceeds", "3 - Exceeds", "EXCEEDS", "3") gives the same label and rank.
 */
export function ratingOf(t: LoadedTable, what: 'label' | 'rank'): string {
  const c = colOf(t, 'rating');
  if (!t.ratingScale?.length || !c) return what === 'label' ? textOf(c) : numOf(c);
  const cell = `regexp_replace(trim(CAST(${c.sql} AS VARCHAR)), '\\.0$', '')`;
  const cases = t.ratingScale.flatMap((s) =>
    s.spellings.map((sp) => `WHEN ${lit(sp)} THEN ${what === 'label' ? lit(s.label) : s.rank}`),
  );
  return `CASE ${cell} ${cases.join(' ')} ELSE ${what === 'label' ? 'CAST(NULL AS VARCHAR)' : 'CAST(NULL AS DOUBLE)'} END`;
}

/**
 * The rank of a rating group's label on the people tables' scale (ADR 0043): a step's label
 * ("Exceeds") its rank, a number ("4") itself; null for "Not stated" or a label off the scale.
 */
export function ratingRankOf(set: TableSet): (label: string) => number | null {
  const ranks = new Map(
    peopleTables(set).flatMap((t) => (t.ratingScale ?? []).map((s) => [s.label, s.rank] as const)),
  );
  return (label) => ranks.get(label) ?? (/^\d+(\.\d+)?$/.test(label) ? Number(label) : null);
}

function selectOf(t: LoadedTable, asOf: string, extra: string[] = []): string {
  const c = (role: ColumnRole) => colOf(t, role);
  // One row per person on the as-of date, whatever the table's shape (ADR 0045).
  const cur = currentSource(t, asOf);
  const pay = payColumnsSql(t, t.pay);
  const dept = c('department') ?? c('costCentre');
  // A country is a dimension of its own; "by location" falls back to it when no site is given.
  const loc = c('location') ?? c('country');
  const status = textOf(c('status'));
  const exitType = textOf(c('exitType'));
  const exitReason = cur.exitReason ?? textOf(c('exitReason'));
  const partTime = folded(textOf(c('partTime')));
  const fte = numOf(c('fte'));
  const ageNum = numOf(c('age'));
  return `SELECT
    ${textOf(c('employeeId'))} AS id,
    ${textOf(c('name'))} AS name,
    ${textOf(dept)} AS department,
    ${textOf(loc)} AS location,
    ${textOf(c('country'))} AS country,
    ${textOf(c('costCentre'))} AS cost_centre,
    ${textOf(c('level'))} AS level,
    ${textOf(c('jobTitle'))} AS job,
    ${cur.hire ?? dateOf(c('hireDate'))} AS hire,
    ${cur.exit ?? dateOf(c('exitDate'))} AS exit,
    ${exitReason} AS exit_reason,
    CASE
      WHEN regexp_matches(${folded(`coalesce(${exitType}, ${exitReason}, '')`)}, ${INVOLUNTARY_FIRST}) THEN 'involuntary'
      WHEN regexp_matches(${folded(`coalesce(${exitType}, ${exitReason}, '')`)}, ${VOLUNTARY_FIRST}) THEN 'voluntary'
      WHEN regexp_matches(lower(coalesce(${exitType}, '')), 'invol') THEN 'involuntary'
      WHEN regexp_matches(lower(coalesce(${exitType}, '')), 'vol') THEN 'voluntary'
      WHEN regexp_matches(${folded(`coalesce(${exitType}, ${exitReason}, '')`)}, ${MUTUAL}) THEN 'involuntary'
      WHEN regexp_matches(${folded(`coalesce(${exitType}, ${exitReason}, '')`)}, ${OTHER_EXIT}) THEN NULL
      WHEN regexp_matches(${folded(`coalesce(${exitType}, ${exitReason}, '')`)}, ${VOLUNTARY_NAMED}) THEN 'voluntary'
      WHEN regexp_matches(${folded(`coalesce(${exitType}, ${exitReason}, '')`)}, ${INVOLUNTARY_NAMED}) THEN 'involuntary'
      WHEN regexp_matches(lower(coalesce(${exitType}, ${exitReason}, '')), ${INVOLUNTARY}) THEN 'involuntary'
      WHEN regexp_matches(lower(coalesce(${exitType}, ${exitReason}, '')), ${VOLUNTARY}) THEN 'voluntary'
      ELSE NULL END AS exit_type,
    ${status} AS status,
    (${t.role === 'leavers' ? 'TRUE' : 'FALSE'} OR regexp_matches(${folded(`coalesce(${status}, '')`)}, ${LEFT_STATUS})${cur.left ? ` OR coalesce(${cur.left}, FALSE)` : ''}) AS left_flag,
    ${ratingOf(t, 'label')} AS rating,
    ${ratingOf(t, 'rank')} AS rating_num,
    ${numOf(c('previousRating'))} AS prev_rating_num,
    ${pay.annualFte} AS salary,
    ${pay.hourly} AS pay_hourly,
    ${numOf(c('bonus'))} AS bonus,
    upper(${textOf(c('currency'))}) AS currency,
    ${genderSql(t, c('gender'))} AS gender,
    ${textOf(c('managerId'))} AS manager,
    ${c('birthDate') ? `${dateOf(c('birthDate'))}` : 'CAST(NULL AS DATE)'} AS birth,
    ${ageNum} AS age_value,
    ${textOf(c('ageBand'))} AS age_band_value,
    CASE
      WHEN ${partTime} IN ${sqlList([...YES_NO.yes, ...YES_NO.partTime])} THEN TRUE
      WHEN ${partTime} IN ${sqlList([...YES_NO.no, ...YES_NO.fullTime])} THEN FALSE
      WHEN ${fte} IS NOT NULL THEN ${fte} < 1
      ELSE NULL END AS part_time,
    ${textOf(c('source'))} AS source,
    ${numOf(c('timeInLevel'))} AS time_in_level,
    ${numOf(t.columns.find((x) => !x.role && x.type === 'number' && /skill|competenc/i.test(x.name)))} AS skills_score,
    ${extra.map((name, i) => `${textOf(columnNamed(t, name))} AS extra_${i}`).join(',\n    ')}${extra.length ? ',' : ''}
    ${lit(t.source)} AS src
  FROM ${cur.from}`;
}

/** A column of a table by its header, as the file or a request spells it (case, accents, spaces ignored). */
export function columnNamed(t: LoadedTable, name: string): ColumnInfo | undefined {
  const want = normalizeHeader(name);
  return want ? t.columns.find((c) => normalizeHeader(c.name) === want) : undefined;
}

export const PEOPLE_ROLES: ReadonlyArray<LoadedTable['role']> = ['staff', 'leavers'];

/** The tables that hold people: staff and leavers, else any table with a person-level role. */
export function peopleTables(set: TableSet): LoadedTable[] {
  // Rows of an aggregate are groups, never people (ADR 0045).
  const tables = set.tables.filter((t) => t.shape !== 'aggregate');
  const tagged = tables.filter((t) => PEOPLE_ROLES.includes(t.role));
  if (tagged.length) return tagged;
  // Reference tables (a market survey, salary bands) are tagged 'other' by the loader: never people.
  return tables.filter(
    (t) =>
      t.role !== 'other' &&
      t.columns.some((c) =>
        ['hireDate', 'salary', 'department', 'managerId', 'rating'].includes(c.role ?? ''),
      ),
  );
}

/** The as-of date: the loader's, else the latest hire or exit date up to today. */
async function asOfOf(set: TableSet, cte: string): Promise<{ asOf: string; source: string }> {
  if (set.asOf)
    return {
      asOf: set.asOf,
      source: set.asOfFrom ? `from ${set.asOfFrom}` : (set.asOfSource ?? 'export date'),
    };
  const rows = await set.query(
    `${cte} SELECT CAST(max(d) AS VARCHAR) AS d FROM (SELECT greatest(hire, exit) AS d FROM people) WHERE d <= current_date`,
  );
  const d = rows[0]?.d;
  return typeof d === 'string'
    ? { asOf: d.slice(0, 10), source: 'latest date in the file' }
    : // No date anywhere in the files: nothing depends on a date but ages from birth dates.
      {
        asOf: new Date().toISOString().slice(0, 10),
        source: 'no date in the file: figures are as the file stands',
      };
}

/** The normalised people of a table set; a ToolError names what to attach when there are none. */
export async function peopleOf(set: TableSet, extra: string[] = []): Promise<People> {
  const tables = peopleTables(set);
  const aggregate = set.tables.find((t) => t.shape === 'aggregate');
  if (!tables.length && aggregate)
    throw new ToolError(
      `${aggregate.source} holds groups with counts and rates, not people: this figure needs a person-level export with one row per employee (headcount and attrition are reported from the groups' own counts).`,
    );
  if (!tables.length)
    throw new ToolError(
      'No workforce table among the attachments: attach an HR export (CSV or XLSX) with one row per employee.',
      set.tables.length ? ['employeeId'] : undefined,
    );
  const asOfDay = set.asOf ?? new Date().toISOString().slice(0, 10);
  const union = tables.map((t) => selectOf(t, asOfDay, extra)).join('\nUNION ALL\n');
  // A person on two sheets (a leaver still listed with the staff) counts once: the row with the
  // exit date wins. Repeated ids within one table are the engine's conflicts, left as they are.
  const cte =
    tables.length > 1
      ? `WITH people AS MATERIALIZED (SELECT * EXCLUDE (keep) FROM (SELECT u.*, CASE
          WHEN u.id IS NOT NULL AND min(u.src) OVER (PARTITION BY u.id) <> max(u.src) OVER (PARTITION BY u.id)
          THEN row_number() OVER (PARTITION BY u.id ORDER BY u.exit IS NULL, u.exit DESC) ELSE 1 END AS keep
        FROM (${union}) u) WHERE keep = 1)`
      : `WITH people AS MATERIALIZED (${union})`;
  const { asOf, source } = await asOfOf(set, cte);
  const has = new Set<ColumnRole>();
  const mapping: string[] = [];
  for (const t of tables)
    for (const c of t.columns)
      if (c.role) {
        has.add(c.role);
        // An hourly rate is pay; a history's events and a snapshot's absences give hires and exits.
        if (c.role === 'hourlyRate') has.add('salary');
        if (c.role === 'eventType' && t.shape === 'history') {
          has.add('hireDate');
          has.add('exitDate');
        }
        if (c.role === 'asOfDate' && t.shape === 'snapshots') has.add('exitDate');
        mapping.push(`${ROLE_WORDS[c.role] ?? c.role} → ${c.name} (${t.source})`);
      }
  const payTables = tables.filter((t) => t.pay);
  return {
    cte,
    asOf,
    has,
    payDoubt: payTables.map((t) => t.pay!.doubt).find((d) => d !== null) ?? null,
    payConverted: payTables.some((t) => t.pay!.converted),
    payMethod: payTables.map((t) => t.pay!.method).join(' ') || null,
    basis: {
      tables: tables.map((t) => ({ source: t.source, role: t.role, rows: t.rows })),
      asOf,
      asOfSource: source,
      mapping,
      warnings: tables.flatMap((t) => t.warnings),
    },
  };
}

/** Runs a query over `people` with the CTE `ref_date` (column d) holding the as-of date. */
export async function peopleQuery(set: TableSet, p: People, sql: string): Promise<SqlRow[]> {
  const rows = await set.query(`${p.cte}, ref_date AS (SELECT DATE ${lit(p.asOf)} AS d) ${sql}`);
  return rows;
}

/** Employed on the date expression `d`: hired by then, not left by then (notice = employed). */
export const employedOn = (d: string, alias = 'people') =>
  `((${alias}.hire IS NULL OR ${alias}.hire <= ${d}) AND (${alias}.exit IS NULL OR ${alias}.exit > ${d}) AND NOT (${alias}.exit IS NULL AND ${alias}.left_flag))`;

/** Tenure bands (years as of a date), in order. */
export const TENURE_BANDS = ['Under 1 year', '1–2 years', '2–5 years', '5–10 years', '10+ years'];
export const tenureBandOf = (years: string) =>
  `CASE WHEN ${years} IS NULL THEN NULL WHEN ${years} < 1 THEN '${TENURE_BANDS[0]}' WHEN ${years} < 2 THEN '${TENURE_BANDS[1]}' WHEN ${years} < 5 THEN '${TENURE_BANDS[2]}' WHEN ${years} < 10 THEN '${TENURE_BANDS[3]}' ELSE '${TENURE_BANDS[4]}' END`;
/** Years between two date expressions. */
export const yearsBetween = (from: string, to: string) =>
  `(date_diff('day', ${from}, ${to}) / 365.25)`;

export const AGE_BANDS = ['Under 30', '30–39', '40–49', '50+'];
/** The person's age band as of the as-of date: the file's band, else from age or birth date. */
export const ageBandSql = `coalesce(age_band_value, CASE
  WHEN coalesce(age_value, ${yearsBetween('birth', '(SELECT d FROM ref_date)')}) IS NULL THEN NULL
  WHEN coalesce(age_value, ${yearsBetween('birth', '(SELECT d FROM ref_date)')}) < 30 THEN '${AGE_BANDS[0]}'
  WHEN coalesce(age_value, ${yearsBetween('birth', '(SELECT d FROM ref_date)')}) < 40 THEN '${AGE_BANDS[1]}'
  WHEN coalesce(age_value, ${yearsBetween('birth', '(SELECT d FROM ref_date)')}) < 50 THEN '${AGE_BANDS[2]}'
  ELSE '${AGE_BANDS[3]}' END)`;

/** Dimensions a tool can group people by, with their SQL over `people`. */
export const DIMENSIONS = {
  department: 'department',
  location: 'location',
  country: 'country',
  costCentre: 'cost_centre',
  level: 'level',
  job: 'job',
  gender: 'gender',
  manager: 'manager',
  source: 'source',
  rating: 'rating',
  ageBand: ageBandSql,
  partTime: `CASE WHEN part_time THEN 'Part-time' WHEN NOT part_time THEN 'Full-time' END`,
} as const;
export type Dimension = keyof typeof DIMENSIONS;
export const DIMENSION_ROLES: Record<Dimension, ColumnRole[]> = {
  department: ['department', 'costCentre'],
  location: ['location', 'country'],
  country: ['country'],
  costCentre: ['costCentre'],
  level: ['level'],
  job: ['jobTitle'],
  gender: ['gender'],
  manager: ['managerId'],
  source: ['source'],
  rating: ['rating'],
  ageBand: ['ageBand', 'age', 'birthDate'],
  partTime: ['partTime', 'fte'],
};
export const hasDimension = (p: People, d: Dimension) =>
  DIMENSION_ROLES[d].some((r) => p.has.has(r));

/** The currencies of the salaries of current people, when the file states them per row. */
export async function currenciesOf(set: TableSet, p: People): Promise<string[]> {
  // Without a currency column, the currency the loader read from the salary header or symbols.
  if (!p.has.has('currency'))
    return [
      ...new Set(
        peopleTables(set)
          .map((t) => t.currency)
          .filter((c): c is string => c !== null),
      ),
    ].sort();
  const rows = await peopleQuery(
    set,
    p,
    `SELECT DISTINCT currency FROM people WHERE ${employedOn('(SELECT d FROM ref_date)')} AND salary IS NOT NULL AND currency IS NOT NULL ORDER BY 1`,
  );
  return rows.map((r) => String(r.currency));
}

/** The warning for pay figures that mix currencies, or null. */
export const mixedCurrencies = (currencies: string[]) =>
  currencies.length > 1
    ? `salaries are in ${currencies.length} currencies (${currencies.join(', ')}): these figures mix them; convert to one currency or ask per currency before relying on them`
    : null;

/** Throws the user-facing error when a needed column is absent. */
export function need(p: People, roles: ColumnRole[], what: string): void {
  if (!roles.some((r) => p.has.has(r)))
    throw new ToolError(
      `No ${roles.map((r) => ROLE_WORDS[r] ?? r).join(' or ')} column in the file, so ${what} cannot be computed. Add it and attach the file again.`,
      // The answer asks for the column in the reading card (ADR 0051).
      roles.slice(0, 1),
    );
}

/**
 * The people of a tool's attachments and the table set they come from, with every column the
 * tool cannot do without (`roles`, each required); a ToolError names the first one missing.
 */
export async function peopleWith(
  ctx: Pick<ToolContext, 'tables'>,
  roles: ColumnRole[],
  what: string,
): Promise<{ set: TableSet; p: People }> {
  const set = await ctx.tables();
  const p = await peopleOf(set);
  for (const role of roles) need(p, [role], what);
  return { set, p };
}

export const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0));
export const numOrNull = (v: unknown): number | null =>
  v === null || v === undefined || Number.isNaN(Number(v)) ? null : Number(v);
export const round1 = (v: number) => Math.round(v * 10) / 10;
export const round2 = (v: number) => Math.round(v * 100) / 100;

/** A column of a non-people table found by its header (market data, bands, pipelines...). */
export function headerColumn(t: LoadedTable, patterns: RegExp[]): ColumnInfo | undefined {
  for (const re of patterns) {
    const c = t.columns.find((col) => re.test(col.name.toLowerCase().trim()));
    if (c) return c;
  }
  return undefined;
}

/** The first table (other than the people tables) with a column for every pattern group. */
export function tableWith(
  set: TableSet,
  groups: RegExp[][],
  exclude: LoadedTable[] = [],
): { table: LoadedTable; columns: ColumnInfo[] } | null {
  for (const t of set.tables) {
    if (exclude.includes(t)) continue;
    const columns = groups.map((g) => headerColumn(t, g));
    if (columns.every(Boolean)) return { table: t, columns: columns as ColumnInfo[] };
  }
  return null;
}

/** Cleaned text of a column for joins: trimmed, lower-case. */
export const keyOf = (c: ColumnInfo | undefined) =>
  c ? `lower(NULLIF(TRIM(CAST(${c.sql} AS VARCHAR)), ''))` : 'CAST(NULL AS VARCHAR)';
export const numberOf = (c: ColumnInfo | undefined) =>
  c ? `TRY_CAST(${c.sql} AS DOUBLE)` : 'CAST(NULL AS DOUBLE)';
export const textIn = (c: ColumnInfo | undefined) =>
  c ? `NULLIF(TRIM(CAST(${c.sql} AS VARCHAR)), '')` : 'CAST(NULL AS VARCHAR)';
export const dateIn = (c: ColumnInfo | undefined) =>
  c ? `TRY_CAST(${c.sql} AS DATE)` : 'CAST(NULL AS DATE)';

/** A breakdown by a column the request names by its header ("by Supervisory Organization"). */
/** One breakdown a tool draws: a dimension it knows, or a column the user named by its header. */
export interface Split<D extends string> {
  dimension: D | 'column';
  /** A named column's text in `people` (`peopleOf`'s `extra`, in order); '' for a dimension. */
  sql: string;
  /** The header as the file spells it; '' for a dimension. */
  header: string;
}

/**
 * The columns a request names by header, as the file spells them (ADR 0047): a name that is no
 * header of a people table, or the header a dimension already shown reads, is left out.
 */
export function columnSplitsOf(set: TableSet, names: string[], dims: Dimension[]): string[] {
  const tables = peopleTables(set);
  const shown = new Set(
    dims.flatMap((d) => {
      const used = dimensionSource(set, d).column;
      return used ? [normalizeHeader(used)] : [];
    }),
  );
  const out: string[] = [];
  for (const name of names) {
    const c = tables.map((t) => columnNamed(t, name)).find(Boolean);
    if (!c || shown.has(normalizeHeader(c.name)) || out.includes(c.name)) continue;
    out.push(c.name);
  }
  return out.slice(0, 4);
}

/** The breakdowns asked for: the named dimensions, then the columns named by their header. */
export const splitsOf = <D extends string>(by: readonly D[], columns: string[]): Split<D>[] => [
  ...by.map((dimension) => ({ dimension, sql: '', header: '' })),
  ...columns.map((header, i) => ({ dimension: 'column' as const, sql: `extra_${i}`, header })),
];

/**
 * "By country" with no country column: by site instead, and said so in place (ADR 0047). The
 * builtin asks with the reading card first; a real model calling the tool anyway gets this.
 */
export function countryOrSite<D extends string>(
  dimension: D | 'column',
  p: People,
): { dimension: D | 'column'; note?: string } {
  if (dimension === 'country' && !hasDimension(p, 'country') && p.has.has('location'))
    return {
      dimension: 'location' as D,
      note: 'The file has no country column: shown by location instead.',
    };
  return { dimension };
}

/**
 * Which header a dimension reads, and the other headers that could hold it (ADR 0047): a
 * Supervisory Organization or Cost Center beside the Department the report uses, offered as a
 * next step ("Show attrition by Supervisory Organization instead").
 */
export function dimensionSource(
  set: TableSet,
  d: Dimension,
): { column: string | null; others: string[] } {
  const roles = DIMENSION_ROLES[d];
  const tables = peopleTables(set);
  let column: string | null = null;
  for (const role of roles) {
    const c = tables.map((t) => colOf(t, role)).find(Boolean);
    if (c) {
      column = c.name;
      break;
    }
  }
  // A location falls back to the country, a department to the cost centre: neither is offered
  // as another reading of the dimension when it has its own (country, cost centre).
  const own = d === 'location' ? ['location'] : d === 'department' ? ['department'] : roles;
  const others: string[] = [];
  for (const t of tables)
    for (const c of t.columns) {
      if (c.name === column || c.type === 'empty' || others.includes(c.name)) continue;
      // A second-choice header (Supervisory Organization) or a header that is exactly another
      // name of the role (Grade beside Job Level); not one that merely holds a word of it.
      const header = roleFromHeader(c.name);
      const candidate =
        c.role === null &&
        header !== null &&
        own.includes(header.role) &&
        (header.fallback || header.weight >= 1000);
      const centre = d === 'department' && c.role === 'costCentre' && column !== null;
      if (candidate || centre) others.push(c.name);
    }
  return { column, others };
}
