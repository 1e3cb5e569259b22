import type { ColumnRole, ColumnType, TableRole } from './types';
import { FALLBACK_SYNONYMS, normalizeHeader, ROLE_SYNONYMS } from './vocabulary';

/**
 * What a column means, from its header first (synonyms in every language we serve, as HR
 * systems spell them: see vocabulary/) and then from its content. Analyses ask a table for a
 * role, not for a header.
 */
export { ROLE_SYNONYMS, FALLBACK_SYNONYMS, normalizeHeader };

/** Roles whose values are identifiers: read as text even when they look like numbers. */
const ID_ROLES = new Set<ColumnRole>(['employeeId', 'managerId', 'costCentre']);
const DATE_ROLES = new Set<ColumnRole>([
  'hireDate',
  'exitDate',
  'birthDate',
  'assessmentDate',
  'asOfDate',
  'effectiveDate',
]);
const NUMBER_ROLES = new Set<ColumnRole>([
  'salary',
  'bonus',
  'age',
  'fte',
  'timeInLevel',
  'hourlyRate',
  'weeklyHours',
  'headcount',
  'leavers',
  'attritionRate',
]);
/** Headers that hold money: a lone `72.000` there is seventy-two thousand. */
const MONEY =
  /salary|pay|compensation|wage|bonus|income|earning|amount|cost|price|gehalt|lohn|entgelt|salaire|remuneration|prime|salario|sueldo|retribu|stipendio|\bral\b|salaris|loon|wynagrodzenie|placa|pensja|premia|remunera|vencimento/;

export interface RoleCandidate {
  role: ColumnRole;
  /** Exact matches beat contained ones; longer synonyms beat shorter; fallbacks come last. */
  weight: number;
  /** A second-choice header for the role (a "Supervisory Organization" for the department). */
  fallback: boolean;
}

/** The role a header names, if any: exact synonym first, then a synonym as whole words. */
export function roleFromHeader(header: string): RoleCandidate | null {
  const known = candidates.get(header);
  if (known !== undefined) return known;
  const found = findRole(header);
  if (candidates.size > 5000) candidates.clear();
  candidates.set(header, found);
  return found;
}

/** Headers already looked up: a header is asked for several times while one file loads. */
const candidates = new Map<string, RoleCandidate | null>();

function findRole(header: string): RoleCandidate | null {
  const norm = normalizeHeader(header);
  if (!norm) return null;
  let best: RoleCandidate | null = null;
  for (const role of Object.keys(ROLE_SYNONYMS) as ColumnRole[]) {
    for (const syn of ROLE_SYNONYMS[role]) {
      let weight = 0;
      if (norm === syn) weight = 1000 + syn.length;
      else if (syn.length > 2 && ` ${norm} `.includes(` ${syn} `)) weight = syn.length;
      if (weight > (best?.weight ?? 0)) best = { role, weight, fallback: false };
    }
  }
  if (best) return best;
  // Second-choice headers lose to any plain one, exact or contained (ADR 0040).
  for (const role of Object.keys(FALLBACK_SYNONYMS) as ColumnRole[])
    for (const syn of FALLBACK_SYNONYMS[role]) {
      const weight = norm === syn ? 2 : ` ${norm} `.includes(` ${syn} `) ? 1 : 0;
      if (weight > (best?.weight ?? 0)) best = { role, weight, fallback: true };
    }
  return best;
}

/** Hints for reading a column's cells, from its header alone. */
export function headerHints(header: string) {
  const norm = normalizeHeader(header);
  const candidate = roleFromHeader(header);
  return {
    text: candidate !== null && ID_ROLES.has(candidate.role),
    dateish:
      (candidate !== null && DATE_ROLES.has(candidate.role)) ||
      /\b(date|dob|datum|day|born|fecha|data)\b/.test(norm),
    money: MONEY.test(norm),
  };
}

/** Hints for reading a column's cells when a corrected reading gives its role (ADR 0050). */
export function hintsForRole(header: string, role: ColumnRole | null) {
  const base = headerHints(header);
  if (!role) return { ...base, text: false };
  return {
    text: ID_ROLES.has(role),
    dateish: DATE_ROLES.has(role) || base.dateish,
    money: base.money || ['salary', 'bonus', 'hourlyRate'].includes(role),
  };
}

export interface ColumnFacts {
  name: string;
  type: ColumnType;
  format: string | null;
  /** Up to 50 distinct values, lower-cased, for text columns. */
  sample: string[];
}

const EXIT_TYPES =
  /^(in)?voluntary( .*)?$|^(resignation|dismissal|redundancy|retirement|regretted|non regretted|mutual|other)$/;
const CODE = /^[a-z]{0,4}[ _-]?\d{2,}[a-z]?$/;

/**
 * Assigns each role to at most one column: header candidates, checked against the content (a date
 * role needs dates, pay needs numbers), with content moves (an "Exit reason" column of
 * voluntary/involuntary is the exit type; a "Department" of codes is a cost centre).
 */
export function assignRoles(columns: ColumnFacts[]): Array<ColumnRole | null> {
  const picks: Array<{ index: number; role: ColumnRole; weight: number }> = [];
  // In a skills table "Level" is the proficiency; elsewhere "Current level" is the grade.
  const skills = columns.some((col) => roleFromHeader(col.name)?.role === 'skill');
  columns.forEach((col, index) => {
    const c = roleFromHeader(col.name);
    if (!c || col.type === 'empty') return;
    let role = c.role;
    if (skills && role === 'level') role = 'proficiency';
    if (!skills && role === 'proficiency' && /\blevel\b/.test(normalizeHeader(col.name)))
      role = 'level';
    const values = col.sample.map((v) => normalizeHeader(v));
    if (DATE_ROLES.has(role) && col.type !== 'date') return;
    if (role === 'age' && col.type === 'text') role = 'ageBand';
    if (NUMBER_ROLES.has(role) && col.type !== 'number') return;
    // "Bonus %" is a rate, not an amount of money.
    if (
      (role === 'salary' || role === 'bonus') &&
      /percent/.test(`${normalizeHeader(col.name)} ${col.format}`)
    )
      return;
    if (role === 'exitReason' && values.length && values.every((v) => EXIT_TYPES.test(v)))
      role = 'exitType';
    if (role === 'department' && values.length >= 2 && values.every((v) => CODE.test(v)))
      role = 'costCentre';
    picks.push({ index, role, weight: c.weight });
  });
  picks.sort((a, b) => b.weight - a.weight || a.index - b.index);
  const out: Array<ColumnRole | null> = columns.map(() => null);
  const taken = new Set<ColumnRole>();
  for (const p of picks) {
    if (taken.has(p.role) || out[p.index]) continue;
    out[p.index] = p.role;
    taken.add(p.role);
  }
  return out;
}

const LEAVER_NAME =
  /leaver|termination|terminated|exit|separation|attrition|turnover|former|austritt/;
const ASSESSMENT_NAME = /skill|assessment|competenc|proficien|capabilit/;

/** What a sheet holds, by its name first and its columns second. */
export function tableRoleOf(
  name: string,
  roles: Array<ColumnRole | null>,
  exitDateFilledShare: number,
  headers: string[],
): TableRole {
  const norm = normalizeHeader(name);
  const has = (r: ColumnRole) => roles.includes(r);
  if (LEAVER_NAME.test(norm)) return 'leavers';
  if (ASSESSMENT_NAME.test(norm) || (has('skill') && has('proficiency'))) return 'assessments';
  if (has('exitDate') && exitDateFilledShare >= 0.95 && !has('status')) return 'leavers';
  // Reference tables (salary bands, a market survey, a headcount plan, a succession table) have
  // pay or department columns but no person: never staff.
  if (!has('employeeId') && !has('hireDate') && headers.some((h) => REFERENCE_HEADER.test(h)))
    return 'other';
  // A person is named or numbered, or has a hire date or pay; a department or a grade alone (a
  // risk register's owning department) does not make a list of staff.
  if (has('employeeId') || has('name') || has('hireDate') || has('salary')) return 'staff';
  return 'other';
}

const REFERENCE_HEADER =
  /(^p ?\d\d$)|percentile|\bmin(imum)?\b|\bmax(imum)?\b|midpoint|budget|planned|requisition|successor|^stage$/i;
