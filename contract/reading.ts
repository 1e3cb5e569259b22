import { z } from 'zod';
import { CompanyDto } from './accounts';

/**
 * How the analyst read one table of an attachment: the reading shown in the "Check how I read
 * this file" card, corrected by the user, and remembered per company by the table's header
 * signature. The table engine produces it, a corrected one is handed back to the engine as is.
 */

/** What a column means. One column plays at most one role. */
export const COLUMN_ROLES = [
  'employeeId',
  'name',
  'department',
  'costCentre',
  'location',
  'country',
  'level',
  'jobTitle',
  'hireDate',
  'exitDate',
  'exitReason',
  'exitType',
  'status',
  'rating',
  'previousRating',
  'reviewCycle',
  'salary',
  'hourlyRate',
  'payFrequency',
  'weeklyHours',
  'bonus',
  'currency',
  'gender',
  'managerId',
  'birthDate',
  'age',
  'ageBand',
  'partTime',
  'fte',
  'source',
  'timeInLevel',
  'skill',
  'proficiency',
  'requiredLevel',
  'assessmentDate',
  'asOfDate',
  'effectiveDate',
  'eventType',
  'headcount',
  'leavers',
  'attritionRate',
] as const;
export const ColumnRole = z.enum(COLUMN_ROLES);
export type ColumnRole = z.infer<typeof ColumnRole>;

/**
 * What one row stands for: a person; a change in a job history (several dated rows per person);
 * the whole workforce repeated per reporting date; a person per review cycle; a group with counts
 * or rates.
 */
export const TableShape = z.enum(['people', 'history', 'snapshots', 'cycles', 'aggregate']);
export type TableShape = z.infer<typeof TableShape>;

/** How often the pay figure is paid; `perRow` when a column states it row by row. */
export const PayBasis = z.enum(['annual', 'monthly', 'weekly', 'daily', 'hourly', 'perRow']);
export type PayBasis = z.infer<typeof PayBasis>;

export const DateOrder = z.enum(['DMY', 'MDY', 'YMD']);
export type DateOrder = z.infer<typeof DateOrder>;

/** Thousands and decimal marks, written as the number one thousand and a half looks. */
export const NumberStyle = z.enum(['1,000.5', '1.000,5', '1 000,5', "1'000.5"]);
export type NumberStyle = z.infer<typeof NumberStyle>;

/** One step of an ordered rating scale, lowest rank first, with every spelling read as it. */
export const RatingStep = z.object({
  rank: z.number().int(),
  label: z.string().min(1).max(100),
  spellings: z.array(z.string().max(100)).max(50),
});
export type RatingStep = z.infer<typeof RatingStep>;

export const ColumnReading = z.object({
  /** The header as the file spells it. */
  name: z.string().max(255),
  role: ColumnRole.nullable(),
});
export type ColumnReading = z.infer<typeof ColumnReading>;

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates must look like 2026-10-31');

export const TableReading = z.object({
  fileName: z.string().max(255),
  sheet: z.string().max(255).nullable(),
  /** The layout's key: a hash of the normalised headers in order (see the table engine). */
  signature: z.string().max(128),
  columns: z.array(ColumnReading).max(500),
  shape: TableShape,
  /** The column that names a person (several rows may share it in a history or cycles). */
  personKey: z.string().max(255).nullable(),
  dateOrder: DateOrder.nullable(),
  numberStyle: NumberStyle.nullable(),
  payBasis: PayBasis.nullable(),
  /** Full-time weekly hours assumed when converting pay (e.g. 37.5, 35 in France). */
  fullTimeHours: z.number().positive().max(80).nullable(),
  currency: z.string().max(10).nullable(),
  ratingScale: z.array(RatingStep).max(20).nullable(),
  asOf: isoDate.nullable(),
  /**
   * The export's bytes (a SHA-256 prefix) the reading was made from. A stored reading's as-of
   * date is used for these bytes only (its re-run): the next export of the layout, even under the
   * same file name, is dated by what it says itself.
   */
  fileDigest: z.string().max(64).nullable().optional(),
});
export type TableReading = z.infer<typeof TableReading>;

/** POST /api/chats/:id/reading: the readings of a reply's card, confirmed or corrected. */
export const ReadingBody = z.object({
  /** The assistant reply whose card was confirmed. */
  messageId: z.uuid('Invalid message id'),
  readings: z.array(TableReading).min(1, 'Send at least one reading').max(50),
  /** Re-run the question on the same files with the reading as a new reply (default true). */
  rerun: z.boolean().default(true),
});
export type ReadingBody = z.infer<typeof ReadingBody>;

/** A reading the company remembers for a layout (GET /api/admin/readings). */
export const RememberedReadingDto = z.object({
  id: z.number().int(),
  signature: z.string(),
  fileName: z.string(),
  sheet: z.string().nullable(),
  /** The columns and the roles they are read as, for the list. */
  columns: z.array(ColumnReading),
  confirmedBy: z.string().nullable(),
  confirmedAt: z.string(),
});
export type RememberedReadingDto = z.infer<typeof RememberedReadingDto>;

export const ReadingsAnswer = z.object({
  company: CompanyDto,
  readings: z.array(RememberedReadingDto),
});
export type ReadingsAnswer = z.infer<typeof ReadingsAnswer>;

export const READING_MESSAGES = {
  saved: 'Reading saved: the next export of this layout is read this way.',
  noCompany: 'Readings are remembered per company, and your account belongs to no company.',
  notAReply: 'Message not found',
  noQuestion: 'There is no question before this reply to run again.',
  unknownLayout:
    'This reading does not match a table of this reply: send the readings the card shows, with their signatures.',
} as const;

/** Each role in words, as the card's dropdowns and the reading notes name it. */
export const COLUMN_ROLE_LABELS: Record<ColumnRole, string> = {
  employeeId: 'Employee id',
  name: 'Name',
  department: 'Department',
  costCentre: 'Cost centre',
  location: 'Location / site',
  country: 'Country',
  level: 'Grade / level',
  jobTitle: 'Job title',
  hireDate: 'Hire date',
  exitDate: 'Exit date',
  exitReason: 'Exit reason',
  exitType: 'Exit type (voluntary / involuntary)',
  status: 'Employment status',
  rating: 'Performance rating',
  previousRating: 'Previous rating',
  reviewCycle: 'Review cycle',
  salary: 'Salary / pay',
  hourlyRate: 'Hourly rate',
  payFrequency: 'Pay frequency',
  weeklyHours: 'Weekly hours',
  bonus: 'Bonus',
  currency: 'Currency',
  gender: 'Gender',
  managerId: 'Manager',
  birthDate: 'Birth date',
  age: 'Age',
  ageBand: 'Age band',
  partTime: 'Part-time / full-time',
  fte: 'FTE',
  source: 'Hiring source',
  timeInLevel: 'Time in level',
  skill: 'Skill',
  proficiency: 'Proficiency',
  requiredLevel: 'Required level',
  assessmentDate: 'Assessment date',
  asOfDate: 'Snapshot date',
  effectiveDate: 'Effective date',
  eventType: 'Change type (hire, transfer, leaving)',
  headcount: 'Headcount',
  leavers: 'Leavers (count)',
  attritionRate: 'Attrition rate',
};

export const TABLE_SHAPE_LABELS: Record<TableShape, string> = {
  people: 'One row per person',
  history: 'Job history (several dated rows per person)',
  snapshots: 'Snapshots (the workforce per reporting date)',
  cycles: 'One row per person per review cycle',
  aggregate: 'Groups with counts or rates',
};

export const PAY_BASIS_LABELS: Record<PayBasis, string> = {
  annual: 'Annual',
  monthly: 'Monthly',
  weekly: 'Weekly',
  daily: 'Daily',
  hourly: 'Hourly',
  perRow: 'Varies by row',
};

export const DATE_ORDER_LABELS: Record<DateOrder, string> = {
  DMY: 'Day first (31/10/2026)',
  MDY: 'Month first (10/31/2026)',
  YMD: 'Year first (2026-10-31)',
};
