import type { PayBasis } from '@contract/reading';
import { sqlString } from './cells';
import { normalizeHeader } from './roles';
import type { ColumnInfo, ColumnRole, LoadedTable, PayReading, SqlRow } from './types';

/**
 * Pay on one basis (ADR 0046): every pay amount becomes annual full-time-equivalent pay (for pay
 * statistics by grade) and hourly pay (for the gender pay gap, the UK method: annual pay ÷
 * (weekly hours × 52.14), or the hourly rate itself). The basis comes from a pay-frequency column,
 * an hourly-rate column beside a salary column, the header, or the size of each amount; hours
 * from weekly hours, FTE or a working-time percentage. The same formulas run as SQL over a table
 * (`payColumnsSql`) and in TypeScript (`convertPay`, property-tested against the SQL).
 */

/** Weeks in a year, as the UK gender pay gap regulations use. */
export const WEEKS_PER_YEAR = 52.14;
/** Amounts per year of each basis other than hourly (a working day is a fifth of a week). */
export const PERIODS_PER_YEAR: Record<Exclude<PayBasis, 'hourly' | 'perRow'>, number> = {
  annual: 1,
  monthly: 12,
  weekly: WEEKS_PER_YEAR,
  daily: WEEKS_PER_YEAR * 5,
};
/** Full-time hours assumed when the file states none. */
export const DEFAULT_FULL_TIME_HOURS = 40;
/** Amounts under this are hourly rates, and from MIN_ANNUAL up annual, when the size decides. */
export const MAX_HOURLY = 300;
export const MIN_ANNUAL = 10_000;

export interface PayInput {
  amount: number;
  basis: Exclude<PayBasis, 'perRow'>;
  /** The person's contractual weekly hours; null: full time. */
  weeklyHours: number | null;
  fullTimeHours: number;
  /** The amount is already full-time equivalent (an "FTE salary"). */
  alreadyFte: boolean;
}

/** Annual full-time-equivalent pay and hourly pay of one amount. */
export function convertPay(p: PayInput): { annualFte: number; hourly: number } {
  const hours = p.weeklyHours && p.weeklyHours > 0 ? p.weeklyHours : p.fullTimeHours;
  if (p.basis === 'hourly')
    return { annualFte: p.amount * p.fullTimeHours * WEEKS_PER_YEAR, hourly: p.amount };
  const annual = p.amount * PERIODS_PER_YEAR[p.basis];
  // An FTE amount is what a full-timer earns; an actual amount is for the person's own hours.
  const annualFte = p.alreadyFte ? annual : (annual * p.fullTimeHours) / hours;
  return { annualFte, hourly: annualFte / (p.fullTimeHours * WEEKS_PER_YEAR) };
}

const col = (t: Pick<LoadedTable, 'columns'>, role: ColumnRole): ColumnInfo | undefined =>
  t.columns.find((c) => c.role === role);

/** A pay-frequency cell as a basis: the SQL CASE (lower-cased text in, basis out). */
const BASIS_WORDS: Array<[Exclude<PayBasis, 'perRow'>, string]> = [
  [
    'hourly',
    '^(h|hr|hrly|hour|hours|hourly|per hour|stunde|stündlich|stundenlohn|horaire|por hora)',
  ],
  ['weekly', '^(w|wk|week|weekly|per week|wöchentlich|hebdomadaire|semanal)'],
  ['daily', '^(d|day|daily|per day|täglich|journalier|diario)'],
  ['monthly', '^(m|mo|mth|month|monthly|per month|monatlich|monat|mensuel|mensual)'],
  [
    'annual',
    '^(a|y|yr|year|yearly|annual|annually|per annum|pa|p\\.a\\.|salary|salaried|jährlich|jahr|annuel|anual)',
  ],
];

/** The row's basis as SQL text ('hourly', 'annual' ...), given how the reading found it. */
function basisSql(t: Pick<LoadedTable, 'columns'>, r: PayReading): string {
  const freq = col(t, 'payFrequency');
  const hourly = col(t, 'hourlyRate');
  const salary = col(t, 'salary');
  if (r.basis === 'perRow' && freq)
    return `CASE ${BASIS_WORDS.map(
      ([b, re]) =>
        `WHEN regexp_matches(lower(trim(CAST(${freq.sql} AS VARCHAR))), ${sqlString(re)}) THEN '${b}'`,
    ).join(' ')} END`;
  if (r.basis === 'perRow' && hourly && salary)
    return `CASE WHEN ${hourly.sql} IS NOT NULL THEN 'hourly' WHEN ${salary.sql} IS NOT NULL THEN 'annual' END`;
  if (r.basis === 'perRow' && salary)
    return `CASE WHEN ${salary.sql} < ${MAX_HOURLY} THEN 'hourly' WHEN ${salary.sql} >= ${MIN_ANNUAL} THEN 'annual' END`;
  return `'${r.basis ?? 'annual'}'`;
}

/** The person's weekly hours: the hours column, else FTE (or a working-time %) × full time. */
function hoursSql(t: Pick<LoadedTable, 'columns'>, r: PayReading): string {
  const hours = col(t, 'weeklyHours');
  const fte = col(t, 'fte');
  const fteHours = fte
    ? `(CASE WHEN TRY_CAST(${fte.sql} AS DOUBLE) > 1.5 THEN TRY_CAST(${fte.sql} AS DOUBLE) / 100 ELSE TRY_CAST(${fte.sql} AS DOUBLE) END) * ${r.fullTimeHours}`
    : 'NULL';
  const raw = hours ? `coalesce(TRY_CAST(${hours.sql} AS DOUBLE), ${fteHours})` : fteHours;
  return `CASE WHEN ${raw} > 0 THEN ${raw} ELSE ${r.fullTimeHours} END`;
}

/** SQL expressions over the table's columns: annual FTE pay and hourly pay (null without pay). */
export function payColumnsSql(
  t: Pick<LoadedTable, 'columns'>,
  r: PayReading | null,
): { annualFte: string; hourly: string; raw: string } {
  const salary = col(t, 'salary');
  const hourlyRate = col(t, 'hourlyRate');
  const amount =
    salary && hourlyRate
      ? `coalesce(TRY_CAST(${hourlyRate.sql} AS DOUBLE), TRY_CAST(${salary.sql} AS DOUBLE))`
      : salary
        ? `TRY_CAST(${salary.sql} AS DOUBLE)`
        : hourlyRate
          ? `TRY_CAST(${hourlyRate.sql} AS DOUBLE)`
          : 'CAST(NULL AS DOUBLE)';
  if (!r || !r.converted)
    return {
      annualFte: amount,
      hourly: `(${amount}) / (${r?.fullTimeHours ?? DEFAULT_FULL_TIME_HOURS} * ${WEEKS_PER_YEAR})`,
      raw: amount,
    };
  const basis = basisSql(t, r);
  const hours = hoursSql(t, r);
  const ft = r.fullTimeHours;
  const annual = `(${amount}) * CASE ${basis} ${Object.entries(PERIODS_PER_YEAR)
    .map(([b, n]) => `WHEN '${b}' THEN ${n}`)
    .join(' ')} END`;
  const annualFte = `CASE WHEN ${basis} = 'hourly' THEN (${amount}) * ${ft} * ${WEEKS_PER_YEAR}
    ELSE ${r.alreadyFte ? annual : `${annual} * ${ft} / (${hours})`} END`;
  return {
    annualFte,
    hourly: `CASE WHEN ${basis} = 'hourly' THEN (${amount}) ELSE (${annualFte}) / (${ft} * ${WEEKS_PER_YEAR}) END`,
    raw: amount,
  };
}

type Run = (sql: string) => Promise<SqlRow[]>;
const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

/** How a table's pay is read: its basis, the full-time hours, and any doubt. Null without pay. */
export async function readPay(run: Run, t: LoadedTable): Promise<PayReading | null> {
  const salary = col(t, 'salary');
  const hourlyRate = col(t, 'hourlyRate');
  const freq = col(t, 'payFrequency');
  const hours = col(t, 'weeklyHours');
  const fte = col(t, 'fte');
  if (!salary && !hourlyRate) return null;
  let fullTimeHours = DEFAULT_FULL_TIME_HOURS;
  let hoursFrom = `${DEFAULT_FULL_TIME_HOURS} hours a week assumed for full time (the file states no hours)`;
  if (hours) {
    const [m] = await run(
      `SELECT mode(TRY_CAST(${hours.sql} AS DOUBLE)) AS h FROM ${t.sql} WHERE TRY_CAST(${hours.sql} AS DOUBLE) >= 30 AND TRY_CAST(${hours.sql} AS DOUBLE) <= 60`,
    );
    if (m?.h !== null && m?.h !== undefined) {
      fullTimeHours = Number(m.h);
      hoursFrom = `full time is ${fmt(fullTimeHours)} hours a week (the most common full-time value in ${hours.name}); each person's own hours from ${hours.name}`;
    } else
      hoursFrom = `each person's hours from ${hours.name}; ${DEFAULT_FULL_TIME_HOURS} hours a week assumed for full time`;
  } else if (fte)
    hoursFrom = `each person's hours as ${fte.name} × ${DEFAULT_FULL_TIME_HOURS} hours a week (full time assumed at ${DEFAULT_FULL_TIME_HOURS})`;
  const alreadyFte = !!salary && /\bfte\b|full time equivalent/.test(normalizeHeader(salary.name));
  const reading: PayReading = {
    basis: 'annual',
    basisFrom: '',
    fullTimeHours,
    hoursFrom,
    alreadyFte,
    converted: false,
    doubt: null,
    method: '',
  };
  const header = salary ? normalizeHeader(salary.name) : '';
  if (freq) {
    reading.basis = 'perRow';
    reading.basisFrom = `the ${freq.name} column, row by row`;
    const r = await run(
      `SELECT count(*) AS n, count(*) FILTER (WHERE (${basisSql(t, reading)}) IS NULL) AS unknown FROM ${t.sql} WHERE ${freq.sql} IS NOT NULL`,
    );
    const unknown = Number(r[0]?.unknown ?? 0);
    if (unknown)
      reading.doubt = `${unknown} row(s) of ${freq.name} name no pay period the reading knows, so their pay is left out`;
  } else if (salary && hourlyRate) {
    reading.basis = 'perRow';
    reading.basisFrom = `${hourlyRate.name} where filled (hourly), else ${salary.name} (annual)`;
  } else if (hourlyRate && !salary) {
    reading.basis = 'hourly';
    reading.basisFrom = `the header ${hourlyRate.name}`;
  } else if (/hourly|per hour|stundenlohn/.test(header)) {
    reading.basis = 'hourly';
    reading.basisFrom = `the header ${salary!.name}`;
  } else if (/monthly|per month|monat|mensuel|mensual/.test(header)) {
    reading.basis = 'monthly';
    reading.basisFrom = `the header ${salary!.name}`;
  } else {
    const [r] = await run(
      `SELECT count(*) FILTER (WHERE v < ${MAX_HOURLY}) AS lo, count(*) FILTER (WHERE v >= ${MAX_HOURLY} AND v < ${MIN_ANNUAL}) AS mid,
        count(*) FILTER (WHERE v >= ${MIN_ANNUAL}) AS hi, min(v) AS mn, max(v) AS mx
       FROM (SELECT TRY_CAST(${salary!.sql} AS DOUBLE) AS v FROM ${t.sql}) WHERE v > 0`,
    );
    const lo = Number(r?.lo ?? 0);
    const mid = Number(r?.mid ?? 0);
    const hi = Number(r?.hi ?? 0);
    if (lo && !mid && !hi) {
      reading.basis = 'hourly';
      reading.basisFrom = `the size of the amounts in ${salary!.name} (all under ${MAX_HOURLY}: hourly rates; no pay basis column was found)`;
    } else if (lo && hi && !mid) {
      reading.basis = 'perRow';
      reading.basisFrom = `the size of each amount in ${salary!.name} (under ${MAX_HOURLY} read as an hourly rate, ${fmt(MIN_ANNUAL)} and over as annual; no pay basis column was found)`;
    } else if (lo && (mid || hi)) {
      reading.basis = null;
      reading.doubt = 'hourly and annual pay are mixed and no pay basis column was found';
    } else if (Number(r?.mn ?? 0) > 0 && Number(r?.mx ?? 0) / Number(r?.mn) > 50) {
      reading.basis = null;
      reading.doubt = `pay in ${salary!.name} ranges from ${fmt(Number(r?.mn))} to ${fmt(Number(r?.mx))} (more than 50×): monthly or hourly amounts, part-time pay or several currencies seem mixed, and no pay basis column was found`;
    } else reading.basisFrom = `annual (no pay basis column; the amounts are all of a yearly size)`;
  }
  reading.converted =
    reading.basis !== null && (reading.basis !== 'annual' || !!hours || (!!fte && !alreadyFte));
  reading.method = methodOf(reading, !!hours || !!fte);
  return reading;
}

/**
 * The pay reading with a corrected reading's basis and full-time hours (ADR 0050): what the user
 * confirmed is not doubted. A basis of `perRow` keeps the engine's row-by-row rule.
 */
export function withPayReading(
  r: PayReading,
  given: { payBasis: PayBasis | null; fullTimeHours: number | null },
): PayReading {
  if (!given.payBasis && !given.fullTimeHours) return r;
  const out: PayReading = { ...r };
  if (given.payBasis && given.payBasis !== r.basis) {
    out.basis = given.payBasis;
    out.basisFrom = `${given.payBasis === 'perRow' ? 'row by row' : given.payBasis}, as you confirmed`;
    out.doubt = null;
  } else if (given.payBasis) out.doubt = null;
  if (given.fullTimeHours && given.fullTimeHours !== r.fullTimeHours) {
    out.fullTimeHours = given.fullTimeHours;
    out.hoursFrom = `full time is ${fmt(given.fullTimeHours)} hours a week, as you confirmed`;
  }
  const hoursKnown = /each person's/.test(r.hoursFrom) || r.converted;
  out.converted =
    out.basis !== null &&
    (out.basis !== 'annual' || hoursKnown || out.fullTimeHours !== r.fullTimeHours);
  out.method = methodOf(out, hoursKnown);
  return out;
}

function methodOf(r: PayReading, hoursKnown: boolean): string {
  if (r.doubt && r.basis === null) return `Pay basis not known: ${r.doubt}.`;
  const parts = [`Pay basis: ${r.basisFrom}.`];
  if (r.converted) {
    parts.push(
      `Pay statistics use annual full-time-equivalent pay: hourly rates × ${fmt(r.fullTimeHours)} hours × ${WEEKS_PER_YEAR} weeks; monthly × 12, weekly × ${WEEKS_PER_YEAR}, daily × ${fmt(WEEKS_PER_YEAR * 5)}${
        hoursKnown && !r.alreadyFte
          ? `, and part-time pay scaled to full time (× ${fmt(r.fullTimeHours)} ÷ the person's weekly hours)`
          : ''
      }.`,
      `The gender pay gap uses hourly pay (UK method): annual pay ÷ (weekly hours × ${WEEKS_PER_YEAR}), or the hourly rate itself.`,
    );
  }
  parts.push(`Hours: ${r.hoursFrom}.`);
  return parts.join(' ');
}
