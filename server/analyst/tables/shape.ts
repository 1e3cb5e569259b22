import { grouped, plural } from '../report/words';
import { sqlString } from './cells';
import type { ColumnInfo, ColumnRole, LoadedTable, ShapeFacts, SqlRow } from './types';

/**
 * What one row of a table stands for (ADR 0045): a person; a change in a job history (several
 * dated rows per person); the whole workforce repeated per reporting date (snapshots); a person
 * per review cycle; a group with counts or rates (an aggregate). Every analysis of people runs on
 * `currentSource`: one row per person as of the as-of date, whatever the shape.
 */

type Run = (sql: string) => Promise<SqlRow[]>;

const col = (t: LoadedTable, role: ColumnRole): ColumnInfo | undefined =>
  t.columns.find((c) => c.role === role);

/** Event types of a history, by their words (Workday business processes, SAP actions ...). */
export const HIRE_EVENT = `'(^|[^a-z])(hire|rehire|new hire|joiner|onboarding|entry|eintritt|embauche|contratacion|alta)'`;
export const TERMINATION_EVENT = `'(terminat|leaver|separation|resign|retire|dismiss|exit|austritt|sortie|baja)'`;
export const TRANSFER_EVENT = `'(transfer|relocation|move|versetzung|mutation)'`;
export const PROMOTION_EVENT = `'(promot|beförderung|promotion)'`;

/** The facts of a table read as one row per person (what every table starts as). */
export const noShape = (): ShapeFacts => ({
  people: null,
  summary: null,
  periods: [],
  current: null,
  futureRows: 0,
  futurePeople: 0,
  futureExamples: [],
});

/**
 * A loaded table's readings before they are made: one row per person, no currency and no pay
 * reading yet (the loader's readers fill them in). Every table starts from these.
 */
export const unreadFacts = (): Pick<
  LoadedTable,
  'currency' | 'currencyFrom' | 'shape' | 'personKey' | 'shapeFacts' | 'pay'
> => ({
  currency: null,
  currencyFrom: null,
  shape: 'people',
  personKey: null,
  shapeFacts: noShape(),
  pay: null,
});

/** A cycle's label as text: "2025", not "2025.0". */
const cycleText = (c: ColumnInfo) => `regexp_replace(CAST(${c.sql} AS VARCHAR), '\\.0$', '')`;

/** The person key: the column a corrected reading names, else the employee id, else the name. */
export function personKeyOf(t: LoadedTable): ColumnInfo | undefined {
  const given = t.reading?.personKey;
  const named = given ? t.columns.find((c) => c.name === given) : undefined;
  return named ?? col(t, 'employeeId') ?? col(t, 'name');
}

/** The shape a corrected reading gives, when the table has the column that shape needs. */
function givenShape(t: LoadedTable): LoadedTable['shape'] | null {
  const want = t.reading?.shape;
  if (!want) return null;
  const needs: Partial<Record<LoadedTable['shape'], ColumnRole>> = {
    history: 'effectiveDate',
    snapshots: 'asOfDate',
    cycles: 'reviewCycle',
  };
  const role = needs[want];
  return role && !col(t, role) ? null : want;
}

/** Decides the table's shape and person key from its columns and how often a person repeats. */
export async function readShape(run: Run, t: LoadedTable): Promise<void> {
  t.shapeFacts = noShape();
  const given = givenShape(t);
  const key = given === 'aggregate' ? undefined : personKeyOf(t);
  const counts =
    given === 'aggregate' ||
    (['headcount', 'leavers', 'attritionRate'] as const).some((r) => col(t, r));
  if (!key) {
    t.personKey = null;
    if (counts) {
      t.shape = 'aggregate';
      const groups = t.columns.filter(
        (c) => c.type === 'text' && c.role && !['currency'].includes(c.role),
      );
      t.shapeFacts.summary = `an aggregate: ${plural(t.rows, 'row')}, one per group${
        groups.length ? ` (${groups.map((c) => c.name).join(' × ')})` : ''
      }, with counts and rates rather than people; person-level figures (pay gap, tenure, ratings) need a person-level export with one row per employee.`;
    } else t.shape = 'people';
    return;
  }
  t.personKey = key.name;
  const [r] = await run(
    `SELECT count(DISTINCT ${key.sql}) AS people, count(*) AS n FROM ${t.sql} WHERE ${key.sql} IS NOT NULL`,
  );
  const people = Number(r?.people ?? 0);
  const rows = Number(r?.n ?? 0);
  t.shapeFacts.people = people;
  t.shape = 'people';
  if (given ? given !== 'people' : rows > people) {
    const snap = !given || given === 'snapshots' ? col(t, 'asOfDate') : undefined;
    const eff = !given || given === 'history' ? col(t, 'effectiveDate') : undefined;
    const cycle = !given || given === 'cycles' ? col(t, 'reviewCycle') : undefined;
    const distinct = async (c: ColumnInfo, expr = c.sql) =>
      Number((await run(`SELECT count(DISTINCT ${expr}) AS n FROM ${t.sql}`))[0]?.n ?? 0);
    if (snap && (given === 'snapshots' || (await distinct(snap)) > 1)) {
      t.shape = 'snapshots';
      const dates = await run(
        `SELECT DISTINCT CAST(${snap.sql} AS VARCHAR) AS d FROM ${t.sql} WHERE ${snap.sql} IS NOT NULL ORDER BY 1`,
      );
      t.shapeFacts.periods = dates.map((d) => String(d.d));
      t.shapeFacts.summary = `snapshots: ${grouped(rows)} rows for ${grouped(people)} people over ${plural(dates.length, 'reporting date')} in ${snap.name} (${t.shapeFacts.periods[0]} to ${t.shapeFacts.periods.at(-1)}), one row per person per date.`;
    } else if (eff) {
      t.shape = 'history';
      t.shapeFacts.summary = `a job history: ${grouped(rows)} rows for ${grouped(people)} people, one row per change (dated by ${eff.name}${col(t, 'eventType') ? `, the change named in ${col(t, 'eventType')!.name}` : ''}).`;
    } else if (cycle && (given === 'cycles' || (await distinct(cycle, cycleText(cycle))) > 1)) {
      t.shape = 'cycles';
      const dated = col(t, 'assessmentDate');
      const list = await run(
        `SELECT ${cycleText(cycle)} AS c, ${dated ? `max(${dated.sql})` : 'NULL'} AS d FROM ${t.sql} WHERE ${cycle.sql} IS NOT NULL GROUP BY 1`,
      );
      t.shapeFacts.periods = list
        .map((x) => ({ c: String(x.c), d: x.d === null ? '' : String(x.d) }))
        .sort((a, b) => a.d.localeCompare(b.d) || cycleOrder(a.c, b.c))
        .map((x) => x.c);
      t.shapeFacts.current = t.shapeFacts.periods.at(-1) ?? null;
      t.shapeFacts.summary = `one row per person per review cycle: ${grouped(rows)} rows for ${grouped(people)} people over ${plural(t.shapeFacts.periods.length, 'cycle')} in ${cycle.name} (${t.shapeFacts.periods.join(', ')}); the figures use the latest cycle, ${t.shapeFacts.current}.`;
    }
  }
  if (t.shape === 'people')
    t.shapeFacts.summary = `one row per person: ${plural(people, 'person', 'people')}.`;
}

/** Cycles in time order: by the year they name, then the half or quarter, then as text. */
export function cycleOrder(a: string, b: string): number {
  const year = (s: string) => Number(/(19|20)\d\d/.exec(s)?.[0] ?? 0);
  return year(a) - year(b) || a.localeCompare(b, 'en', { numeric: true });
}

/** The facts that depend on the as-of date: the snapshot used, future changes in a history. */
export async function readCurrent(run: Run, t: LoadedTable, asOf: string): Promise<void> {
  const d = `DATE ${sqlString(asOf)}`;
  if (t.shape === 'snapshots') {
    const current = [...t.shapeFacts.periods].reverse().find((p) => p <= asOf) ?? null;
    t.shapeFacts.current = current;
    if (current) {
      const earlier = t.shapeFacts.periods.filter((p) => p < current).length;
      t.shapeFacts.summary += ` The figures use the snapshot of ${current} (on or latest before the as-of date)${earlier ? `; the ${plural(earlier, 'earlier snapshot')} give the trend, and people missing from a later snapshot count as leavers on its date unless an exit date says otherwise` : ''}.`;
    }
  }
  if (t.shape !== 'history') return;
  const key = personKeyOf(t)!;
  const eff = col(t, 'effectiveDate')!;
  const ev = col(t, 'eventType');
  const [f] = await run(
    `SELECT count(*) AS n, count(DISTINCT ${key.sql}) AS p FROM ${t.sql} WHERE ${eff.sql} > ${d}`,
  );
  t.shapeFacts.futureRows = Number(f?.n ?? 0);
  t.shapeFacts.futurePeople = Number(f?.p ?? 0);
  if (t.shapeFacts.futureRows) {
    const ex = await run(
      `SELECT CAST(${key.sql} AS VARCHAR) AS k, ${ev ? `CAST(${ev.sql} AS VARCHAR)` : "'change'"} AS e, CAST(${eff.sql} AS VARCHAR) AS d
       FROM ${t.sql} WHERE ${eff.sql} > ${d} ORDER BY ${eff.sql}, 1 LIMIT 3`,
    );
    t.shapeFacts.futureExamples = ex.map((x) => `${x.k} ${x.e ?? 'change'} on ${x.d}`);
    t.shapeFacts.summary += ` ${plural(t.shapeFacts.futureRows, 'row')} for ${plural(t.shapeFacts.futurePeople, 'person', 'people')} ${t.shapeFacts.futureRows === 1 ? 'is a future change' : 'are future changes'} dated after the as-of date ${asOf} (e.g. ${t.shapeFacts.futureExamples.join('; ')}): named here, not counted.`;
  }
  if (ev) {
    const kinds: Array<[string, string]> = [
      ['hire', HIRE_EVENT],
      ['termination', TERMINATION_EVENT],
      ['transfer', TRANSFER_EVENT],
      ['promotion', PROMOTION_EVENT],
    ];
    const [e] = await run(
      `SELECT ${kinds
        .map(
          ([k, re]) =>
            `count(*) FILTER (WHERE regexp_matches(lower(coalesce(CAST(${ev.sql} AS VARCHAR), '')), ${re})) AS ${k}`,
        )
        .join(
          ', ',
        )} FROM ${t.sql} WHERE ${eff.sql} > ${d} - INTERVAL 12 MONTH AND ${eff.sql} <= ${d}`,
    );
    const said = kinds
      .map(([k]) => [k, Number(e?.[k] ?? 0)] as const)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => plural(n, k));
    if (said.length)
      t.shapeFacts.summary += ` Changes in the 12 months to ${asOf}: ${said.join(', ')}. Each person's state is their latest row on or before the as-of date; hires and leavers come from their hire and termination rows.`;
  }
}

/**
 * The table as one row per person on the as-of date, as a FROM source with the same columns
 * plus the hire, exit, left and exit-reason expressions the shape decides (null: the column's
 * own). One person-level table is the table itself.
 */
export interface CurrentSource {
  from: string;
  hire: string | null;
  exit: string | null;
  left: string | null;
  exitReason: string | null;
}

export function currentSource(t: LoadedTable, asOf: string): CurrentSource {
  const made = currentSql(t, asOf);
  // Made once at load (see load.ts): every query of every analysis reads that table.
  return t.currentSql ? { ...made, from: t.currentSql } : made;
}

export function currentSql(t: LoadedTable, asOf: string): CurrentSource {
  const d = `DATE ${sqlString(asOf)}`;
  const key = personKeyOf(t);
  const plain: CurrentSource = {
    from: t.sql,
    hire: null,
    exit: null,
    left: null,
    exitReason: null,
  };
  if (!key) return plain;
  const exitCol = col(t, 'exitDate');
  const exitOf = (fallback: string) =>
    exitCol ? `coalesce(TRY_CAST(${exitCol.sql} AS DATE), ${fallback})` : fallback;
  if (t.shape === 'history') {
    const eff = `TRY_CAST(h.${col(t, 'effectiveDate')!.sql} AS DATE)`;
    const ev = col(t, 'eventType');
    const evText = ev ? `lower(coalesce(CAST(h.${ev.sql} AS VARCHAR), ''))` : "''";
    const hireCol = col(t, 'hireDate');
    const reason = col(t, 'exitReason');
    return {
      from: `(SELECT * FROM (SELECT h.*,
          row_number() OVER (PARTITION BY h.${key.sql} ORDER BY ${eff} DESC NULLS LAST, h.rowid DESC) AS __rn,
          max(${eff}) FILTER (WHERE regexp_matches(${evText}, ${HIRE_EVENT})) OVER (PARTITION BY h.${key.sql}) AS __hire_event,
          regexp_matches(${evText}, ${TERMINATION_EVENT}) AS __term_row,
          ${eff} AS __eff,
          ${ev ? `CAST(h.${ev.sql} AS VARCHAR)` : 'CAST(NULL AS VARCHAR)'} AS __event
        FROM ${t.sql} h WHERE ${eff} IS NULL OR ${eff} <= ${d}) WHERE __rn = 1)`,
      hire: hireCol ? `coalesce(TRY_CAST(${hireCol.sql} AS DATE), __hire_event)` : '__hire_event',
      exit: exitOf('CASE WHEN __term_row THEN __eff END'),
      left: '__term_row',
      exitReason: reason
        ? `coalesce(NULLIF(TRIM(CAST(${reason.sql} AS VARCHAR)), ''), CASE WHEN __term_row THEN __event END)`
        : 'CASE WHEN __term_row THEN __event END',
    };
  }
  if (t.shape === 'snapshots') {
    const snap = col(t, 'asOfDate')!.sql;
    return {
      from: `(SELECT s.*, CASE WHEN s.${snap} < c.cur THEN (SELECT min(x.${snap}) FROM ${t.sql} x WHERE x.${snap} > s.${snap}) END AS __gone
        FROM (SELECT h.*, row_number() OVER (PARTITION BY h.${key.sql} ORDER BY h.${snap} DESC) AS __rn FROM ${t.sql} h WHERE h.${snap} <= ${d}) s,
          (SELECT max(${snap}) AS cur FROM ${t.sql} WHERE ${snap} <= ${d}) c WHERE s.__rn = 1)`,
      hire: null,
      exit: exitOf('__gone'),
      left: '(__gone IS NOT NULL)',
      exitReason: null,
    };
  }
  if (t.shape === 'cycles' && t.shapeFacts.current !== null) {
    const cycle = col(t, 'reviewCycle')!;
    return {
      ...plain,
      from: `(SELECT * FROM ${t.sql} WHERE ${cycleText(cycle)} = ${sqlString(t.shapeFacts.current)})`,
    };
  }
  return plain;
}

/** Headcount per snapshot date up to the as-of date (the trend of a snapshot export). */
export function snapshotTrendSql(t: LoadedTable, asOf: string): string | null {
  if (t.shape !== 'snapshots') return null;
  const snap = col(t, 'asOfDate')!.sql;
  const key = personKeyOf(t)!.sql;
  const exit = col(t, 'exitDate');
  return `SELECT CAST(${snap} AS VARCHAR) AS d, count(DISTINCT ${key})::INTEGER AS n FROM ${t.sql}
    WHERE ${snap} <= DATE ${sqlString(asOf)}${exit ? ` AND (${exit.sql} IS NULL OR ${exit.sql} > ${snap})` : ''} GROUP BY 1 ORDER BY 1`;
}
