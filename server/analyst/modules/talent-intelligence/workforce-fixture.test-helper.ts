import { col, type TestTable } from './table-set.test-helper';

/**
 * A realistic, messy HR export generated from a seed: people who left years ago and this year,
 * people serving notice, future starters, exit reasons in words (some blank), gender spelled
 * five ways and sometimes not stated, missing ratings, a tiny department, managers with two
 * reports and one with fourteen. Tests compute their expected figures from these objects
 * directly, never through the code under test.
 */

export const AS_OF = '2026-10-31';

export interface Person {
  id: string;
  name: string;
  department: string | null;
  location: string;
  level: string;
  job: string;
  hire: string;
  exit: string | null;
  exitReason: string | null;
  status: string;
  rating: number | null;
  previousRating: number | null;
  salary: number | null;
  bonus: number | null;
  /** As the file spells it. */
  gender: string | null;
  managerId: string | null;
  birth: string;
  partTime: string | null;
  source: string | null;
  yearsInLevel: number;
}

/** mulberry32: a small seeded generator, so the fixture is the same on every run. */
export function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const iso = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (isoDay: string, days: number) =>
  iso(new Date(Date.parse(`${isoDay}T00:00:00Z`) + days * 86_400_000));

export const DEPARTMENTS = ['Engineering', 'Sales', 'Operations', 'Finance'];
export const LOCATIONS = ['London', 'Berlin', 'New York', 'Singapore'];
export const LEVELS = ['G1', 'G2', 'G3', 'G4', 'G5'];
const BASE_PAY: Record<string, number> = { G1: 32000, G2: 42000, G3: 55000, G4: 72000, G5: 98000 };
const VOLUNTARY_REASONS = ['Resigned - better offer', 'Relocation', 'Career change', 'Resignation'];
const INVOLUNTARY_REASONS = ['Redundancy', 'Dismissed - misconduct', 'End of fixed-term contract'];
const WOMEN_SPELLINGS = ['Female', 'F', 'female', 'Woman'];
const MEN_SPELLINGS = ['Male', 'M', 'male', 'Man'];
const SOURCES = ['Referral', 'Agency', 'LinkedIn', 'Careers site'];

export function workforce(seed = 7, size = 420): Person[] {
  const r = rng(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
  const people: Person[] = [];
  for (let i = 0; i < size; i++) {
    const id = `E${String(1001 + i)}`;
    const department = i % 53 === 10 ? null : DEPARTMENTS[Math.floor(r() * 4)]!;
    const level = LEVELS[Math.min(4, Math.floor(r() * r() * 6))]!;
    const woman = r() < 0.48;
    const genderRoll = r();
    const gender =
      genderRoll < 0.03
        ? null
        : genderRoll < 0.05
          ? 'Prefer not to say'
          : woman
            ? pick(WOMEN_SPELLINGS)
            : pick(MEN_SPELLINGS);
    // Hires spread over 2012-2026; a few start after the as-of date (future starters).
    const hireOffset = Math.floor(r() * 5400);
    let hire = addDays('2012-01-09', hireOffset);
    if (hire > AS_OF) hire = addDays(AS_OF, -30 - (i % 200));
    if (i % 97 === 5) hire = addDays(AS_OF, 15);
    let exit: string | null = null;
    let exitReason: string | null = null;
    let status = 'Active';
    const leaves = r();
    if (leaves < 0.34 && hire < addDays(AS_OF, -40)) {
      const span = Math.max(20, Math.floor((Date.parse(AS_OF) - Date.parse(hire)) / 86_400_000));
      exit = addDays(hire, 20 + Math.floor(r() * (span - 20)));
      if (exit > AS_OF) exit = AS_OF;
      const kind = r();
      exitReason =
        kind < 0.6 ? pick(VOLUNTARY_REASONS) : kind < 0.85 ? pick(INVOLUNTARY_REASONS) : null;
      status = 'Terminated';
    } else if (leaves < 0.36 && hire < AS_OF) {
      // Serving notice: resigned, leaves after the as-of date: still employed today.
      exit = addDays(AS_OF, 10 + Math.floor(r() * 50));
      exitReason = 'Resignation';
      status = 'Notice period';
    }
    const pay = BASE_PAY[level]! * (woman ? 0.93 : 1) * (0.85 + r() * 0.3);
    const rating = r() < 0.08 ? null : 1 + Math.floor(r() * r() * 5.5);
    const previousRating = r() < 0.15 ? null : 1 + Math.floor(r() * 5);
    const birthYear = 1962 + Math.floor(r() * 40);
    people.push({
      id,
      name: `Person ${i + 1}`,
      department,
      location: pick(LOCATIONS),
      level,
      job: `${department ?? 'General'} ${level === 'G5' ? 'Lead' : level === 'G4' ? 'Manager' : 'Specialist'}`,
      hire,
      exit,
      exitReason,
      status,
      rating: Math.min(5, rating ?? 0) || null,
      previousRating,
      salary: i % 61 === 7 ? null : Math.round(pay / 10) * 10,
      bonus: r() < 0.5 ? Math.round(pay * 0.05) : 0,
      gender,
      managerId: null,
      birth: `${birthYear}-0${1 + Math.floor(r() * 9)}-1${Math.floor(r() * 9)}`,
      partTime: r() < 0.1 ? null : r() < 0.18 ? 'Yes' : 'No',
      source: r() < 0.1 ? null : pick(SOURCES),
      yearsInLevel: Math.round(r() * 60) / 10,
    });
  }
  // A tiny department: two people, both current.
  for (const [k, p] of people.slice(400, 402).entries()) {
    p.department = 'Legal';
    p.exit = null;
    p.exitReason = null;
    p.status = 'Active';
    p.hire = `2020-0${k + 3}-01`;
  }
  // Line management: E1001 heads everyone; managers are the first 30 people, each assigned a
  // share of the rest, with one manager given fourteen reports and some given two.
  const managers = people.slice(1, 31).map((p) => p.id);
  for (const p of managers) people.find((x) => x.id === p)!.managerId = 'E1001';
  let cursor = 0;
  for (const p of people.slice(31)) {
    const m = cursor < 14 ? managers[0]! : managers[1 + ((cursor - 14) % (managers.length - 1))]!;
    p.managerId = cursor % 37 === 36 ? null : m;
    cursor++;
  }
  return people;
}

/** The export as the HR system writes it: its own headers, text status and reasons. */
export function workforceTable(people: Person[]): TestTable {
  return {
    source: 'hr-export.csv',
    role: 'staff',
    columns: [
      col('Employee ID', 'text', 'employeeId'),
      col('Full Name', 'text', 'name'),
      col('Department', 'text', 'department'),
      col('Office', 'text', 'location'),
      col('Grade', 'text', 'level'),
      col('Job Title', 'text', 'jobTitle'),
      col('Start Date', 'date', 'hireDate'),
      col('Termination Date', 'date', 'exitDate'),
      col('Termination Reason', 'text', 'exitReason'),
      col('Employment Status', 'text', 'status'),
      col('Rating 2026', 'number', 'rating'),
      col('Rating 2025', 'number', 'previousRating'),
      col('Annual Base Salary', 'number', 'salary'),
      col('Bonus', 'number', 'bonus'),
      col('Gender', 'text', 'gender'),
      col('Manager ID', 'text', 'managerId'),
      col('Date of Birth', 'date', 'birthDate'),
      col('Part-time', 'text', 'partTime'),
      col('Hire Source', 'text', 'source'),
      col('Years in Grade', 'number', 'timeInLevel'),
    ],
    rows: people.map((p) => [
      p.id,
      p.name,
      p.department,
      p.location,
      p.level,
      p.job,
      p.hire,
      p.exit,
      p.exitReason,
      p.status,
      p.rating,
      p.previousRating,
      p.salary,
      p.bonus,
      p.gender,
      p.managerId,
      p.birth,
      p.partTime,
      p.source,
      p.yearsInLevel,
    ]),
  };
}

// Independent reference arithmetic for the tests (plain JS over the Person objects).

export const employedOn = (p: Person, day: string) =>
  p.hire <= day && (p.exit === null || p.exit > day);

/** The same day n months earlier, clamped to the month's end (as the definitions state). */
export function monthsBefore(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) - n;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

export const isWoman = (g: string | null) => g !== null && WOMEN_SPELLINGS.includes(g);
export const isMan = (g: string | null) => g !== null && MEN_SPELLINGS.includes(g);
export const isVoluntary = (reason: string | null) =>
  reason !== null && VOLUNTARY_REASONS.includes(reason);
export const isInvoluntary = (reason: string | null) =>
  reason !== null && INVOLUNTARY_REASONS.includes(reason);

export function medianOf(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
export const meanOf = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
export const round1 = (v: number) => Math.round(v * 10) / 10;
