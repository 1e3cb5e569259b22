import ExcelJS from 'exceljs';
import {
  AS_OF,
  DEPARTMENTS,
  LEVELS,
  LOCATIONS,
  rng,
  type Person,
} from './workforce-fixture.test-helper';

/**
 * The files a user attaches for each starter, written the way HR systems and spreadsheets write
 * them: a BOM, day-first dates, pounds with thousands separators, "N/A" and "-" for missing
 * values, trailing spaces, an exact duplicate row, title rows above an XLSX header. The tests
 * compute every expected figure from the objects these files are written from.
 */

const dayFirst = (iso: string | null) => {
  if (!iso) return '';
  const [y, m, d] = iso.split('-');
  return `${d}/${m}/${y}`;
};
const pounds = (v: number | null) =>
  v === null ? 'N/A' : `£${v.toLocaleString('en-GB', { maximumFractionDigits: 0 })}`;
const cell = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const line = (values: string[]) => values.map(cell).join(',');

export const SKILLS_SCORE = (p: Person) => 1 + ((Number(p.id.slice(1)) * 7) % 5);

/** An HR export as CSV: one row per person, current and leavers, with one exact duplicate row. */
export function workforceCsv(people: Person[]): string {
  const header = [
    'Employee ID',
    'Full Name',
    'Department',
    'Office',
    'Grade',
    'Job Title',
    'Start Date',
    'Termination Date',
    'Termination Reason',
    'Employment Status',
    'Performance Rating',
    'Previous Rating',
    'Annual Base Salary',
    'Bonus',
    'Gender',
    'Manager ID',
    'Date of Birth',
    'Working Pattern',
    'Hire Source',
    'Years in Grade',
    'Skills Score',
    'Report Date',
  ];
  const rows = people.map((p, i) =>
    line([
      p.id,
      p.name,
      p.department === null ? '-' : `${p.department}${i % 9 === 0 ? ' ' : ''}`,
      p.location,
      p.level,
      p.job,
      dayFirst(p.hire),
      dayFirst(p.exit),
      p.exitReason ?? '',
      p.status,
      p.rating === null ? 'N/A' : String(p.rating),
      p.previousRating === null ? '' : String(p.previousRating),
      pounds(p.salary),
      p.bonus === null ? '' : pounds(p.bonus),
      p.gender ?? '',
      p.managerId ?? '',
      dayFirst(p.birth),
      p.partTime === null ? '' : p.partTime === 'Yes' ? 'Part-time' : 'Full-time',
      p.source ?? 'n/a',
      String(p.yearsInLevel),
      String(SKILLS_SCORE(p)),
      dayFirst(AS_OF),
    ]),
  );
  // The export repeats one row exactly (a re-run of the report): it counts once.
  return `\uFEFF${[line(header), ...rows, rows[5]!].join('\r\n')}\r\n`;
}

/** The same export as an XLSX workbook with a title and an export date above the header. */
export async function workforceXlsx(people: Person[]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Employees');
  sheet.addRow(['Workforce export: all employees']);
  sheet.addRow([`Report date: ${dayFirst(AS_OF)}`]);
  sheet.addRow([]);
  sheet.addRow([
    'Employee ID',
    'Department',
    'Grade',
    'Job Title',
    'Gender',
    'Base Salary',
    'Bonus',
    'Hire Date',
    'Exit Date',
  ]);
  for (const p of people)
    sheet.addRow([
      p.id,
      p.department ?? '',
      p.level,
      p.job,
      p.gender ?? '',
      p.salary ?? 'N/A',
      p.bonus ?? 0,
      new Date(`${p.hire}T00:00:00Z`),
      p.exit ? new Date(`${p.exit}T00:00:00Z`) : null,
    ]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

export interface MarketRow {
  role: string;
  level: string;
  location: string;
  p25: number;
  p50: number;
  p75: number;
}

/** A market survey: P25/P50/P75 of base pay per role, level and location. */
export function marketSurvey(people: Person[]): MarketRow[] {
  const combos = new Map<string, Person>();
  for (const p of people) combos.set(`${p.job}|${p.level}|${p.location}`, p);
  const base: Record<string, number> = { G1: 33000, G2: 43000, G3: 56000, G4: 74000, G5: 100000 };
  const london = (l: string) => (l === 'London' ? 1.1 : l === 'Singapore' ? 0.95 : 1);
  return [...combos.values()].map((p) => {
    const p50 = Math.round((base[p.level]! * london(p.location)) / 100) * 100;
    return {
      role: p.job,
      level: p.level,
      location: p.location,
      p25: Math.round(p50 * 0.9),
      p50,
      p75: Math.round(p50 * 1.1),
    };
  });
}

export function marketCsv(rows: MarketRow[]): string {
  return [
    'Job Title,Grade,Location,P25,P50,P75',
    ...rows.map((r) =>
      line([r.role, r.level, r.location, pounds(r.p25), pounds(r.p50), pounds(r.p75)]),
    ),
  ].join('\n');
}

export interface Band {
  grade: string;
  min: number;
  max: number;
}

/** Salary bands with an overlap and a narrow band on purpose. */
export const BANDS: Band[] = [
  { grade: 'G1', min: 29000, max: 33000 },
  { grade: 'G2', min: 36000, max: 49000 },
  { grade: 'G3', min: 46000, max: 64000 },
  { grade: 'G4', min: 62000, max: 84000 },
  { grade: 'G5', min: 85000, max: 115000 },
];
export const bandsCsv = (bands: Band[]) =>
  [
    'Grade;Band Minimum;Band Maximum',
    ...bands.map(
      (b) => `${b.grade};${b.min.toLocaleString('de-DE')},00;${b.max.toLocaleString('de-DE')},00`,
    ),
  ].join('\n');

export interface Nomination {
  role: string;
  incumbent: string;
  successor: string | null;
  readiness: string | null;
}
export const SUCCESSION: Nomination[] = [
  {
    role: 'Chief Financial Officer',
    incumbent: 'E1002',
    successor: 'E1044',
    readiness: 'Ready now',
  },
  {
    role: 'Chief Financial Officer',
    incumbent: 'E1002',
    successor: 'E1107',
    readiness: 'Ready in 1-2 years',
  },
  { role: 'Head of Engineering', incumbent: 'E1003', successor: 'E1120', readiness: '2-3 years' },
  { role: 'Head of Sales EMEA', incumbent: 'E1004', successor: null, readiness: null },
  { role: 'Head of Operations', incumbent: 'E1005', successor: 'E1201', readiness: 'Ready Now ' },
  { role: 'Head of Operations', incumbent: 'E1005', successor: 'E1202', readiness: 'ready now' },
  { role: 'Payroll Lead', incumbent: 'E1006', successor: '', readiness: 'N/A' },
  {
    role: 'Data Protection Officer',
    incumbent: 'E1007',
    successor: 'E1300',
    readiness: 'Ready later',
  },
];
export const successionCsv = (rows: Nomination[]) =>
  [
    'Critical Role\tIncumbent\tSuccessor\tReadiness',
    ...rows.map((r) => [r.role, r.incumbent, r.successor ?? '', r.readiness ?? ''].join('\t')),
  ].join('\n');

export interface PlanRow {
  department: string;
  month: string;
  planned: number;
  budget: number;
  openReqs: number;
}
const BUDGET: Record<string, number> = {
  Engineering: 270000,
  Finance: 215000,
  Operations: 300000,
  Sales: 235000,
};
/** A plan for 2026: months Jan-Dec per department, budget per month. */
export function headcountPlan(): PlanRow[] {
  const rows: PlanRow[] = [];
  const r = rng(11);
  for (const department of DEPARTMENTS)
    for (let m = 1; m <= 12; m++)
      rows.push({
        department,
        month: `2026-${String(m).padStart(2, '0')}`,
        planned: 20 + Math.floor(r() * 30),
        // Monthly budgets near each department's payroll: some months over, some under.
        budget: Math.round(BUDGET[department]! + (r() - 0.5) * 30000),
        openReqs: m >= 10 ? 1 + Math.floor(r() * 3) : 0,
      });
  return rows;
}
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
export const planCsv = (rows: PlanRow[]) =>
  [
    'Department,Month,Planned Headcount,Budget Cost,Open Requisitions',
    ...rows.map((x) =>
      line([
        x.department,
        `${MONTHS[Number(x.month.slice(5)) - 1]} ${x.month.slice(0, 4)}`,
        String(x.planned),
        pounds(x.budget),
        String(x.openReqs),
      ]),
    ),
  ].join('\n');

export interface Candidate {
  id: string;
  role: string;
  family: string;
  source: string;
  status: string;
  dates: Array<string | null>;
  target: string;
}
export const STAGES = ['Applied', 'Screen', 'Interview', 'Offer', 'Start'];
/** A recruiting pipeline: hired candidates give the history, open roles the forecast. */
export function pipeline(): Candidate[] {
  const r = rng(5);
  const out: Candidate[] = [];
  const families = ['Engineering', 'Sales', 'Finance'];
  let id = 1;
  for (let role = 1; role <= 18; role++) {
    const family = families[role % 3]!;
    const roleName = `${family} role ${role}`;
    const target = `2026-${String(10 + (role % 3)).padStart(2, '0')}-${String(1 + (role % 27)).padStart(2, '0')}`;
    const count = 2 + Math.floor(r() * 5);
    for (let c = 0; c < count; c++) {
      const applied = `2026-0${1 + Math.floor(r() * 9)}-${String(1 + Math.floor(r() * 27)).padStart(2, '0')}`;
      const dates: Array<string | null> = [applied];
      let d = Date.parse(applied);
      let rejected = false;
      for (let s = 1; s < STAGES.length; s++) {
        d += (5 + Math.floor(r() * (family === 'Engineering' ? 30 : 15))) * 86_400_000;
        const iso = new Date(d).toISOString().slice(0, 10);
        if (iso > AS_OF || r() < 0.35) {
          rejected = iso <= AS_OF;
          break;
        }
        dates.push(iso);
      }
      while (dates.length < STAGES.length) dates.push(null);
      out.push({
        id: `C${String(id++).padStart(3, '0')}`,
        role: roleName,
        family,
        source: ['Referral', 'LinkedIn', 'Agency'][Math.floor(r() * 3)]!,
        status: dates[4] ? 'Hired' : rejected ? 'Rejected' : 'In process',
        dates,
        target,
      });
    }
  }
  return out;
}
export const pipelineCsv = (rows: Candidate[]) =>
  [
    `Candidate,Role,Role Family,Source,Status,${STAGES.join(',')},Target Start,Report Date`,
    ...rows.map((c) =>
      line([
        c.id,
        c.role,
        c.family,
        c.source,
        c.status,
        ...c.dates.map((d) => dayFirst(d)),
        dayFirst(c.target),
        dayFirst(AS_OF),
      ]),
    ),
  ].join('\n');

export interface Assessment {
  employee: string;
  role: string;
  skill: string;
  level: number | null;
  required: number;
  date: string;
}
/** A skills matrix with re-assessments (the later one counts) and "not assessed" cells. */
export function assessments(): Assessment[] {
  const r = rng(3);
  const roles: Record<string, Array<[string, number]>> = {
    'Data Analyst': [
      ['SQL', 4],
      ['Python', 3],
      ['Data visualisation', 4],
      ['Statistics', 3],
    ],
    'Data Engineer': [
      ['SQL', 4],
      ['Python', 4],
      ['Cloud', 3],
      ['Statistics', 2],
    ],
    'Finance Analyst': [
      ['Excel', 4],
      ['SQL', 2],
      ['Data visualisation', 3],
      ['Statistics', 2],
    ],
  };
  const out: Assessment[] = [];
  let n = 0;
  for (const [role, skills] of Object.entries(roles))
    for (let p = 0; p < 6; p++) {
      const employee = `E${2001 + n++}`;
      for (const [skill, required] of skills) {
        const level = r() < 0.1 ? null : 1 + Math.floor(r() * 5);
        out.push({ employee, role, skill, level, required, date: '2026-03-31' });
        if (r() < 0.2 && level !== null)
          out.push({
            employee,
            role,
            skill,
            level: Math.min(5, level + 1),
            required,
            date: '2026-09-30',
          });
      }
    }
  return out;
}
export const assessmentsCsv = (rows: Assessment[]) =>
  [
    'Employee ID,Job Title,Skill,Proficiency,Required Level,Assessment Date',
    // Newest first, as an export sorted by date descending writes them.
    ...[...rows]
      .reverse()
      .map((a) =>
        line([
          a.employee,
          a.role,
          a.skill,
          a.level === null ? 'not assessed' : String(a.level),
          String(a.required),
          dayFirst(a.date),
        ]),
      ),
  ].join('\n');

export { DEPARTMENTS, LEVELS, LOCATIONS };

/** A workbook as many HR teams keep it: current staff on one sheet, leavers on another. */
export async function staffAndLeaversXlsx(
  people: Person[],
  leaversAlsoInStaff = false,
): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const staff = book.addWorksheet('Current staff');
  staff.addRow(['Headcount report', `as at ${dayFirst(AS_OF)}`]);
  staff.addRow([]);
  staff.addRow([
    'Employee ID',
    'Department',
    'Location',
    'Grade',
    'Start Date',
    'Leaving Date',
    'Status',
  ]);
  const leavers = book.addWorksheet('Leavers');
  leavers.addRow([
    'Employee ID',
    'Department',
    'Location',
    'Grade',
    'Start Date',
    'Termination Date',
    'Reason for Leaving',
  ]);
  const day = (iso: string | null) => (iso ? new Date(`${iso}T00:00:00Z`) : null);
  for (const p of people) {
    if (p.exit !== null && p.exit <= AS_OF) {
      leavers.addRow([
        p.id,
        p.department ?? '',
        p.location,
        p.level,
        day(p.hire),
        day(p.exit),
        p.exitReason ?? '',
      ]);
      // Some HR systems keep leavers on the staff list too, marked terminated, without the date.
      if (leaversAlsoInStaff)
        staff.addRow([
          p.id,
          p.department ?? '',
          p.location,
          p.level,
          day(p.hire),
          null,
          'Terminated',
        ]);
    } else
      staff.addRow([
        p.id,
        p.department ?? '',
        p.location,
        p.level,
        day(p.hire),
        day(p.exit),
        p.status,
      ]);
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}
