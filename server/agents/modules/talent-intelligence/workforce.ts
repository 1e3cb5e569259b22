import {
  asDate,
  asNumber,
  asText,
  columnValues,
  isoDay,
  type Cell,
  type Table,
} from '../../tools/tables';
import {
  countBy,
  groupBy,
  naturalOrder,
  percent,
  round,
  sortedCounts,
  summarize,
  type Summary,
} from '../../tools/stats';
import { genderPayGap, type GenderPayGap } from './gender-pay';
import { spansOfControl, type SpansOfControl } from './spans';

/** Workforce analytics over a parsed table: which column plays which role, and the figures. */

export const ROLES = [
  'id',
  'department',
  'location',
  'level',
  'rating',
  'hireDate',
  'exitDate',
  'status',
  'salary',
  'tenure',
  'gender',
  'manager',
] as const;
export type Role = (typeof ROLES)[number];
export type Roles = Partial<Record<Role, string>>;

export const ROLE_LABELS: Record<Role, string> = {
  id: 'employee id',
  department: 'department',
  location: 'location',
  level: 'level',
  rating: 'performance rating',
  hireDate: 'hire date',
  exitDate: 'exit date',
  status: 'employment status',
  salary: 'pay',
  tenure: 'tenure',
  gender: 'gender',
  manager: 'manager',
};

/** Header words that identify each role (normalized: lower case, words separated by one space). */
export const ROLE_SYNONYMS: Record<Role, string[]> = {
  id: [
    'employee id',
    'emp id',
    'emp no',
    'employee number',
    'employee no',
    'staff id',
    'person id',
    'worker id',
    'id',
  ],
  department: [
    'department',
    'dept',
    'division',
    'team',
    'function',
    'business unit',
    'org unit',
    'organisation',
    'organization',
    'cost center',
    'cost centre',
  ],
  location: [
    'location',
    'office',
    'site',
    'city',
    'country',
    'region',
    'work location',
    'branch',
    'geo',
  ],
  level: [
    'job level',
    'level',
    'grade',
    'job grade',
    'pay grade',
    'band',
    'career level',
    'seniority',
    'job band',
  ],
  rating: [
    'performance rating',
    'rating',
    'perf rating',
    'performance score',
    'review score',
    'performance',
    'appraisal',
    'appraisal rating',
    'score',
  ],
  hireDate: [
    'hire date',
    'start date',
    'date of hire',
    'hired',
    'hired on',
    'joining date',
    'date joined',
    'join date',
    'joined',
    'original hire date',
  ],
  exitDate: [
    'exit date',
    'termination date',
    'term date',
    'leave date',
    'leaving date',
    'end date',
    'date left',
    'separation date',
    'left',
    'leaver date',
    'departure date',
  ],
  status: [
    'status',
    'employment status',
    'employee status',
    'active',
    'is active',
    'active status',
  ],
  salary: [
    'base salary',
    'salary',
    'annual salary',
    'base pay',
    'pay',
    'compensation',
    'annual pay',
    'wage',
    'total compensation',
    'annual base',
    'fte salary',
  ],
  tenure: [
    'tenure',
    'tenure years',
    'years of service',
    'service years',
    'length of service',
    'years at company',
  ],
  gender: ['gender', 'sex', 'gender identity', 'legal sex', 'legal gender'],
  manager: [
    'manager',
    'manager id',
    'manager employee id',
    'manager name',
    'line manager',
    'line manager id',
    'reporting manager',
    'direct manager',
    'reports to',
    'supervisor',
    'supervisor id',
    'manager number',
  ],
};

export function normalizeHeader(header: string): string {
  return header
    .toLowerCase()
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/**
 * Assigns roles to columns by header synonyms: exact matches first, then headers that contain a
 * synonym as whole words (the longest synonym wins). A column takes at most one role.
 */
export function detectRoles(columns: string[]): Roles {
  const roles: Roles = {};
  const taken = new Set<string>();
  const normalized = columns.map(
    (c) => [c, normalizeHeader(c.replace(/([a-z])([A-Z])/g, '$1 $2'))] as const,
  );
  for (const pass of ['exact', 'contains'] as const) {
    const candidates: Array<{ role: Role; column: string; weight: number }> = [];
    for (const role of ROLES) {
      if (roles[role]) continue;
      for (const [column, norm] of normalized) {
        if (taken.has(column)) continue;
        for (const syn of ROLE_SYNONYMS[role]) {
          const hit =
            pass === 'exact' ? norm === syn : syn.length > 2 && ` ${norm} `.includes(` ${syn} `);
          if (hit) candidates.push({ role, column, weight: syn.length });
        }
      }
    }
    candidates.sort((a, b) => b.weight - a.weight);
    for (const c of candidates) {
      if (roles[c.role] || taken.has(c.column)) continue;
      roles[c.role] = c.column;
      taken.add(c.column);
    }
  }
  return roles;
}

const LEAVER_STATUS =
  /terminat|\bleft\b|leaver|resign|inactive|\bexit|separat|former|withdrawn|dismiss|retired|\bfalse\b|^no$|^n$|^0$/i;

export interface Employee {
  row: Cell[];
  department: string | null;
  location: string | null;
  level: string | null;
  rating: number | string | null;
  hireDate: Date | null;
  exitDate: Date | null;
  leaver: boolean;
  salary: number | null;
  tenureYears: number | null;
  /** Gender as written in the file, with the common spellings of women and men unified. */
  gender: string | null;
  /** The manager's id or name as written in the file. */
  manager: string | null;
  /** The person's own id, to ignore rows that name themselves as manager. */
  id: string | null;
}

export interface WorkforceAnalysis {
  roles: Roles;
  totalRows: number;
  /** True when an exit date or a status column tells leavers apart. */
  tracksLeavers: boolean;
  current: number;
  leavers: number;
  /** leavers ÷ all rows, in percent, when leavers are tracked. */
  attritionRate: number | null;
  /** The reference date for tenure: the latest date in the hire and exit columns. */
  asOf: string | null;
  headcount: Partial<Record<'department' | 'location' | 'level', Array<[string, number]>>>;
  ratings: Array<[string, number]>;
  attritionBy: Partial<
    Record<
      'department' | 'location' | 'level',
      Array<{ group: string; total: number; leavers: number; rate: number }>
    >
  >;
  tenureBands: Array<[string, number]>;
  pay: {
    overall: Summary | null;
    by: Partial<Record<'department' | 'location' | 'level', Array<{ group: string } & Summary>>>;
  };
  hiresByPeriod: Array<[string, number]>;
  /** Years or months, whichever suits the span of hire dates. */
  hirePeriod: 'year' | 'month';
  /** Gender pay gap of current employees, when gender and pay columns exist. */
  genderPay: GenderPayGap | null;
  /** Direct reports per manager among current employees, when a manager column exists. */
  spans: SpansOfControl | null;
}

export const TENURE_BANDS = [
  '< 1 year',
  '1–2 years',
  '2–5 years',
  '5–10 years',
  '10+ years',
] as const;

export function tenureBand(years: number): (typeof TENURE_BANDS)[number] {
  if (years < 1) return '< 1 year';
  if (years < 2) return '1–2 years';
  if (years < 5) return '2–5 years';
  if (years < 10) return '5–10 years';
  return '10+ years';
}

const YEAR_MS = 365.25 * 24 * 3600 * 1000;

export function employeesOf(table: Table, roles: Roles): Employee[] {
  const get = (role: Role) => (roles[role] ? columnValues(table, roles[role]) : null);
  const cols = Object.fromEntries(ROLES.map((r) => [r, get(r)])) as Record<Role, Cell[] | null>;
  return table.rows.map((row, i) => {
    const exitDate = cols.exitDate ? asDate(cols.exitDate[i] ?? null) : null;
    const status = cols.status ? asText(cols.status[i] ?? null) : null;
    const ratingCell = cols.rating ? (cols.rating[i] ?? null) : null;
    return {
      row,
      department: cols.department ? asText(cols.department[i] ?? null) : null,
      location: cols.location ? asText(cols.location[i] ?? null) : null,
      level: cols.level ? asText(cols.level[i] ?? null) : null,
      rating: ratingCell === null ? null : (asNumber(ratingCell) ?? asText(ratingCell)),
      hireDate: cols.hireDate ? asDate(cols.hireDate[i] ?? null) : null,
      exitDate,
      leaver: exitDate !== null || (status !== null && LEAVER_STATUS.test(status.trim())),
      salary: cols.salary ? asNumber(cols.salary[i] ?? null) : null,
      tenureYears: cols.tenure ? asNumber(cols.tenure[i] ?? null) : null,
      gender: cols.gender ? genderLabel(asText(cols.gender[i] ?? null)) : null,
      manager: cols.manager ? asText(cols.manager[i] ?? null) : null,
      id: cols.id ? asText(cols.id[i] ?? null) : null,
    };
  });
}

const WOMEN = /^(f|female|woman|women|w|girl)$/i;
const MEN = /^(m|male|man|men|boy)$/i;

/** "F", "female", "Woman" all mean women in a report; other values (non-binary...) stay as written. */
export function genderLabel(value: string | null): string | null {
  const v = value?.trim();
  if (!v) return null;
  if (WOMEN.test(v)) return 'Women';
  if (MEN.test(v)) return 'Men';
  return v;
}

type GroupRole = 'department' | 'location' | 'level';
export const GROUP_ROLES: GroupRole[] = ['department', 'location', 'level'];

export const naturalCompare = naturalOrder;

export function analyzeWorkforce(
  table: Table,
  roles: Roles = detectRoles(table.columns),
): WorkforceAnalysis {
  const people = employeesOf(table, roles);
  const tracksLeavers = Boolean(roles.exitDate || roles.status);
  const leavers = people.filter((p) => p.leaver);
  // Headcount, ratings, pay and tenure describe the people still employed when leavers are known.
  const current = tracksLeavers ? people.filter((p) => !p.leaver) : people;

  const headcount: WorkforceAnalysis['headcount'] = {};
  const attritionBy: WorkforceAnalysis['attritionBy'] = {};
  const payBy: WorkforceAnalysis['pay']['by'] = {};
  for (const g of GROUP_ROLES) {
    if (!roles[g]) continue;
    headcount[g] = sortedCounts(countBy(current, (p) => p[g]));
    if (tracksLeavers) {
      attritionBy[g] = [...groupBy(people, (p) => p[g])]
        .map(([group, list]) => {
          const left = list.filter((p) => p.leaver).length;
          return { group, total: list.length, leavers: left, rate: percent(left, list.length) };
        })
        .sort((a, b) => b.rate - a.rate || naturalCompare(a.group, b.group));
    }
    if (roles.salary) {
      payBy[g] = [...groupBy(current, (p) => p[g])]
        .map(([group, list]) => {
          const s = summarize(list.map((p) => p.salary).filter((v): v is number => v !== null));
          return s ? { group, ...s } : null;
        })
        .filter((x): x is { group: string } & Summary => x !== null)
        .sort((a, b) => (g === 'level' ? naturalCompare(a.group, b.group) : b.median - a.median));
    }
  }

  const ratings = roles.rating
    ? [...countBy(current, (p) => (p.rating === null ? null : String(p.rating)))].sort((a, b) =>
        naturalCompare(a[0], b[0]),
      )
    : [];

  const dates = people
    .flatMap((p) => [p.hireDate, p.exitDate])
    .filter((d): d is Date => d !== null);
  const asOfTime = dates.length ? Math.max(...dates.map((d) => d.getTime())) : null;
  let tenureBands: Array<[string, number]> = [];
  const tenures = current
    .map(
      (p) =>
        p.tenureYears ??
        (p.hireDate && asOfTime !== null ? (asOfTime - p.hireDate.getTime()) / YEAR_MS : null),
    )
    .filter((t): t is number => t !== null && t >= 0);
  if (tenures.length) {
    const counts = countBy(tenures, tenureBand);
    tenureBands = TENURE_BANDS.map((b) => [b, counts.get(b) ?? 0]);
  }

  const hires = people.map((p) => p.hireDate).filter((d): d is Date => d !== null);
  let hirePeriod: 'year' | 'month' = 'year';
  let hiresByPeriod: Array<[string, number]> = [];
  if (hires.length) {
    const times = hires.map((d) => d.getTime());
    const spanYears = (Math.max(...times) - Math.min(...times)) / YEAR_MS;
    hirePeriod = spanYears < 2 ? 'month' : 'year';
    const key = (d: Date) =>
      hirePeriod === 'year' ? String(d.getUTCFullYear()) : isoDay(d).slice(0, 7);
    hiresByPeriod = fillPeriods(
      [...countBy(hires, key)].sort((a, b) => a[0].localeCompare(b[0])),
      hirePeriod,
    );
  }

  const salaries = current.map((p) => p.salary).filter((v): v is number => v !== null);
  return {
    roles,
    totalRows: people.length,
    tracksLeavers,
    current: current.length,
    leavers: leavers.length,
    attritionRate: tracksLeavers ? percent(leavers.length, people.length) : null,
    asOf: asOfTime !== null ? isoDay(new Date(asOfTime)) : null,
    headcount,
    ratings,
    attritionBy,
    tenureBands,
    pay: { overall: summarize(salaries), by: payBy },
    hiresByPeriod,
    hirePeriod,
    genderPay: roles.gender && roles.salary ? genderPayGap(current) : null,
    spans: roles.manager ? spansOfControl(current) : null,
  };
}

/** Adds the empty years or months between the first and last, so a line chart's x axis is honest. */
function fillPeriods(
  counts: Array<[string, number]>,
  period: 'year' | 'month',
): Array<[string, number]> {
  if (counts.length < 2) return counts;
  const map = new Map(counts);
  const out: Array<[string, number]> = [];
  if (period === 'year') {
    for (let y = +counts[0]![0]; y <= +counts[counts.length - 1]![0]; y++)
      out.push([String(y), map.get(String(y)) ?? 0]);
    return out;
  }
  const [fy, fm] = counts[0]![0].split('-').map(Number) as [number, number];
  const last = counts[counts.length - 1]![0];
  for (let y = fy, m = fm; ;) {
    const k = `${y}-${String(m).padStart(2, '0')}`;
    out.push([k, map.get(k) ?? 0]);
    if (k >= last || out.length > 600) break;
    m++;
    if (m > 12) {
      m = 1;
      y++;
    }
  }
  return out;
}

export const roundPay = (v: number) => round(v, 0);
