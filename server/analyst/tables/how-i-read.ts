import { grouped, plural } from '../report/words';
import type { ColumnRole, LoadedTable, TableSet } from './types';

/**
 * The "How I read your file" section every table report carries: what was read, what was left
 * out and why, which column was taken for what and in which format, the as-of date, and the
 * warnings that keep a doubtful figure from being stated as fact.
 */

const ROLE_LABEL: Record<ColumnRole, string> = {
  employeeId: 'employee id',
  name: 'name',
  department: 'department',
  costCentre: 'cost centre',
  location: 'location',
  country: 'country',
  level: 'grade / level',
  jobTitle: 'job title',
  hireDate: 'hire date',
  exitDate: 'exit date',
  exitReason: 'exit reason',
  exitType: 'exit type (voluntary / involuntary)',
  status: 'employment status',
  rating: 'performance rating',
  previousRating: 'previous rating',
  reviewCycle: 'review cycle',
  salary: 'salary',
  hourlyRate: 'hourly rate',
  payFrequency: 'pay frequency',
  weeklyHours: 'weekly hours',
  bonus: 'bonus',
  currency: 'currency',
  gender: 'gender',
  managerId: 'manager',
  birthDate: 'birth date',
  age: 'age',
  ageBand: 'age band',
  partTime: 'part-time / full-time',
  fte: 'FTE',
  source: 'hiring source',
  timeInLevel: 'time in level',
  skill: 'skill',
  proficiency: 'proficiency',
  requiredLevel: 'required level',
  assessmentDate: 'assessment date',
  asOfDate: 'snapshot date',
  effectiveDate: 'effective date',
  eventType: 'change type (hire, transfer, leaving ...)',
  headcount: 'headcount',
  leavers: 'leavers (count)',
  attritionRate: 'attrition rate',
};

export function roleLabel(role: ColumnRole): string {
  return ROLE_LABEL[role];
}

const TABLE_ROLE: Record<LoadedTable['role'], string> = {
  staff: 'staff',
  leavers: 'leavers',
  assessments: 'skills assessments',
  other: 'table',
};

function tableLines(t: LoadedTable): string[] {
  const facts = [
    `${plural(t.rowsRead, 'row')} read${t.headerRow > 1 ? ` (header on row ${t.headerRow})` : ''}`,
  ];
  if (t.duplicatesRemoved)
    facts.push(`${plural(t.duplicatesRemoved, 'exact duplicate row')} counted once`);
  for (const l of t.leftOut) facts.push(`${plural(l.rows, l.reason)} left out`);
  facts.push(`${plural(t.rows, 'row')} used`);
  const lines = [`- **${t.source}** (${TABLE_ROLE[t.role]}): ${facts.join('; ')}.`];
  if (t.shapeFacts.summary && t.shape !== 'people')
    lines.push(`  - Read as ${t.shapeFacts.summary}`);
  // A reading the user confirmed or a model proposed says so on its own line (ADR 0050).
  const given = t.readNotes.filter((n) => /^Read (as you confirmed|with the reading)/.test(n));
  for (const n of given) lines.push(`  - ${n}`);
  const how = t.readNotes.filter((n) => !n.startsWith('Header on row') && !given.includes(n));
  if (how.length) lines.push(`  - Read as: ${how.join(' ')}`);
  // Roles are HR meanings: on a table that is not about people (a risk register, salary bands,
  // a market survey) they would be false claims, so only the formats are shown there.
  const mapped =
    t.role === 'other' && t.shape !== 'aggregate' ? [] : t.columns.filter((c) => c.role);
  if (mapped.length)
    lines.push(
      `  - Columns: ${mapped
        .map((c) => `${c.name} → ${ROLE_LABEL[c.role!]}${c.format ? ` (${c.format})` : ''}`)
        .join('; ')}.`,
    );
  const others = t.columns.filter((c) => !mapped.includes(c) && c.format);
  if (others.length)
    lines.push(`  - Formats: ${others.map((c) => `${c.name}: ${c.format}`).join('; ')}.`);
  if (t.currency) lines.push(`  - Currency: ${t.currency} (from ${t.currencyFrom}).`);
  if (t.pay && (t.pay.converted || t.pay.doubt)) lines.push(`  - Pay: ${t.pay.method}`);
  const missing = t.columns.filter((c) => c.missing && mapped.includes(c));
  if (missing.length)
    lines.push(
      `  - Missing values (blank, N/A, -, TBC ... are missing, never zero): ${missing
        .map((c) => `${c.name} ${grouped(c.missing)}`)
        .join(', ')}.`,
    );
  return lines;
}

function asOfLine(set: TableSet): string | null {
  if (!set.tables.length) return null;
  if (!set.asOf)
    return '- As-of date: none found (no title line, snapshot column, file name date or date in the data): figures are as the file stands.';
  const why =
    set.asOfSource === 'export date' || set.asOfSource === 'file name'
      ? `the export date, from ${set.asOfFrom ?? 'the file'}`
      : 'the latest date in the file, as it names no export date (no title line, snapshot column or date in the file name)';
  return `- As-of date: ${set.asOf} (${why}).`;
}

export function howIReadMarkdown(set: TableSet): string {
  const lines = ['### How I read your file', ''];
  for (const t of set.tables) lines.push(...tableLines(t));
  const asOf = asOfLine(set);
  if (asOf) lines.push(asOf);
  for (const p of set.problems) lines.push(`- Not used: ${p}`);
  const warnings = set.tables.flatMap((t) =>
    t.warnings.map((w) => (set.tables.length > 1 ? `${t.source}: ${w}` : w)),
  );
  if (warnings.length) {
    lines.push('', '**Check before relying on the figures:**', '');
    for (const w of warnings) lines.push(`- ${w}`);
  }
  return lines.join('\n');
}
