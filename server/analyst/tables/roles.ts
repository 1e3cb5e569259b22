import type { ColumnRole, ColumnType, TableRole } from './types';

/**
 * What a column means, from its header first (synonyms, as HR systems spell them: Workday, SAP
 * SuccessFactors, BambooHR, Personio, plain spreadsheets) and then from its content. This is the
 * one place that knows the synonyms; analyses ask a table for a role, not for a header.
 */
export const ROLE_SYNONYMS: Record<ColumnRole, string[]> = {
  employeeId: [
    'employee id',
    'emp id',
    'emp no',
    'employee number',
    'employee no',
    'employee code',
    'emp code',
    'staff id',
    'staff number',
    'staff no',
    'person id',
    'person number',
    'personnel number',
    'personnel no',
    'pers nr',
    'personalnummer',
    'worker id',
    'associate id',
    'payroll id',
    'payroll number',
    'eid',
    'id',
  ],
  name: [
    'name',
    'full name',
    'employee name',
    'employee full name',
    'worker name',
    'legal name',
    'preferred name',
    'worker',
    'employee',
  ],
  department: [
    'department',
    'dept',
    'department name',
    'division',
    'team',
    'function',
    'business unit',
    'org unit',
    'organisation unit',
    'organization unit',
    'organisation',
    'organization',
    'supervisory organization',
    'sub department',
    'abteilung',
  ],
  costCentre: [
    'cost center',
    'cost centre',
    'cost center code',
    'cost centre code',
    'cost center id',
    'cc',
    'kostenstelle',
  ],
  location: [
    'location',
    'office',
    'site',
    'city',
    'work location',
    'office location',
    'work site',
    'workplace',
    'branch',
    'region',
    'geo',
    'standort',
  ],
  country: ['country', 'country name', 'work country', 'country code', 'land'],
  level: [
    'job level',
    'level',
    'grade',
    'job grade',
    'pay grade',
    'salary grade',
    'band',
    'job band',
    'pay band',
    'career level',
    'management level',
    'grade level',
    'seniority',
  ],
  jobTitle: [
    'job title',
    'title',
    'position',
    'position title',
    'job profile',
    'job name',
    'designation',
    'role',
    'job',
  ],
  hireDate: [
    'hire date',
    'start date',
    'date of hire',
    'hired',
    'hired on',
    'joining date',
    'date of joining',
    'date joined',
    'join date',
    'joined',
    'entry date',
    'original hire date',
    'latest hire date',
    'continuous service date',
    'service date',
    'employment start date',
    'doj',
    'eintrittsdatum',
    'eintritt',
  ],
  exitDate: [
    'exit date',
    'termination date',
    'termination effective date',
    'term date',
    'leave date',
    'leaving date',
    'leaver date',
    'end date',
    'employment end date',
    'date left',
    'separation date',
    'departure date',
    'last day',
    'last working day',
    'last day of work',
    'left',
    'austrittsdatum',
    'austritt',
  ],
  exitReason: [
    'exit reason',
    'termination reason',
    'primary termination reason',
    'term reason',
    'reason for leaving',
    'leaving reason',
    'leaver reason',
    'separation reason',
    'departure reason',
    'reason',
    'austrittsgrund',
    'kündigungsgrund',
    'motif de départ',
    'motif de sortie',
    'motivo de baja',
    'motivo de salida',
    'reden vertrek',
    'reden uitdiensttreding',
  ],
  exitType: [
    'exit type',
    'termination type',
    'termination category',
    'leaver type',
    'separation type',
    'voluntary involuntary',
    'voluntary',
  ],
  status: [
    'status',
    'employment status',
    'employee status',
    'worker status',
    'active status',
    'active',
    'is active',
  ],
  rating: [
    'performance rating',
    'rating',
    'perf rating',
    'performance score',
    'review score',
    'overall rating',
    'current rating',
    'last rating',
    'performance',
    'appraisal',
    'appraisal rating',
    'score',
  ],
  previousRating: [
    'previous rating',
    'prior rating',
    'previous performance rating',
    'prior year rating',
    'last year rating',
  ],
  salary: [
    'base salary',
    'annual base salary',
    'salary',
    'annual salary',
    'base pay',
    'current base pay',
    'base compensation',
    'pay',
    'compensation',
    'annual pay',
    'wage',
    'total compensation',
    'annual base',
    'fte salary',
    'gehalt',
    'jahresgehalt',
  ],
  bonus: ['bonus', 'bonus amount', 'annual bonus', 'bonus paid', 'incentive', 'variable pay'],
  currency: ['currency', 'pay currency', 'salary currency', 'currency code'],
  gender: ['gender', 'sex', 'gender identity', 'legal sex', 'legal gender', 'geschlecht'],
  managerId: [
    'manager',
    'manager id',
    'manager employee id',
    'manager name',
    'manager number',
    'manager no',
    'line manager',
    'line manager id',
    'reporting manager',
    'direct manager',
    'reports to',
    'reports to id',
    'supervisor',
    'supervisor id',
    'supervisor name',
  ],
  birthDate: ['date of birth', 'birth date', 'birthdate', 'birthday', 'dob', 'geburtsdatum'],
  age: ['age', 'age years', 'age in years'],
  ageBand: ['age band', 'age group', 'age range', 'age bracket', 'generation'],
  partTime: [
    'part time',
    'full part time',
    'full time part time',
    'ft pt',
    'time type',
    'working pattern',
    'working time',
  ],
  fte: ['fte', 'full time equivalent', 'fte percent'],
  source: ['hire source', 'recruiting source', 'recruitment source', 'candidate source', 'source'],
  timeInLevel: [
    'time in level',
    'time in grade',
    'years in level',
    'years in grade',
    'years in role',
    'time in role',
    'time in position',
  ],
  skill: ['skill', 'skill name', 'competency', 'capability', 'skill area'],
  proficiency: [
    'proficiency',
    'proficiency level',
    'current level',
    'current proficiency',
    'skill level',
    'assessed level',
    'level achieved',
  ],
  requiredLevel: [
    'required level',
    'target level',
    'required proficiency',
    'target proficiency',
    'expected level',
  ],
  assessmentDate: ['assessment date', 'assessed on', 'date assessed', 'evaluation date'],
  asOfDate: [
    'snapshot date',
    'as of date',
    'as at date',
    'as of',
    'report date',
    'reporting date',
    'extract date',
    'data date',
    'period end',
    'stichtag',
  ],
  // Roles the readings of job histories, pay bases and aggregates use; their synonyms are
  // filled in with the vocabularies of every language we serve.
  reviewCycle: [
    'review cycle',
    'review period',
    'cycle',
    'performance cycle',
    'appraisal cycle',
    'review year',
    'performance year',
    'performance period',
  ],
  hourlyRate: ['hourly rate', 'hourly pay', 'rate per hour', 'hourly wage', 'pay per hour'],
  payFrequency: [
    'pay frequency',
    'pay basis',
    'pay type',
    'salary basis',
    'pay period',
    'frequency',
    'compensation frequency',
    'pay rate type',
  ],
  weeklyHours: [
    'weekly hours',
    'hours per week',
    'contracted hours',
    'contractual hours',
    'standard hours',
    'scheduled weekly hours',
    'working hours',
    'hours',
  ],
  effectiveDate: [
    'effective date',
    'change date',
    'event date',
    'action date',
    'transaction date',
    'effective from',
    'valid from',
  ],
  eventType: [
    'business process',
    'business process type',
    'event type',
    'event',
    'action',
    'action type',
    'change type',
    'transaction type',
    'movement type',
  ],
  headcount: [
    'headcount',
    'head count',
    'number of employees',
    'employees',
    'average headcount',
    'avg headcount',
  ],
  leavers: ['leavers', 'number of leavers', 'terminations', 'exits', 'separations', 'leaver count'],
  attritionRate: [
    'attrition rate',
    'attrition',
    'turnover rate',
    'turnover',
    'attrition rate percent',
    'attrition percent',
  ],
};

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
]);
/** Headers that hold money: a lone `72.000` there is seventy-two thousand. */
const MONEY =
  /salary|pay|compensation|wage|bonus|income|earning|amount|cost|price|gehalt|lohn|hourly/;

export function normalizeHeader(header: string): string {
  return header
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/#/g, ' number ')
    .replace(/%/g, ' percent ')
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

export interface RoleCandidate {
  role: ColumnRole;
  /** Exact matches beat contained ones; longer synonyms beat shorter. */
  weight: number;
}

/** The role a header names, if any: exact synonym first, then a synonym as whole words. */
export function roleFromHeader(header: string): RoleCandidate | null {
  const norm = normalizeHeader(header);
  if (!norm) return null;
  let best: RoleCandidate | null = null;
  for (const role of Object.keys(ROLE_SYNONYMS) as ColumnRole[]) {
    for (const syn of ROLE_SYNONYMS[role]) {
      let weight = 0;
      if (norm === syn) weight = 1000 + syn.length;
      else if (syn.length > 2 && ` ${norm} `.includes(` ${syn} `)) weight = syn.length;
      if (weight > (best?.weight ?? 0)) best = { role, weight };
    }
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
      /\b(date|dob|datum|day|born)\b/.test(norm),
    money: MONEY.test(norm),
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
