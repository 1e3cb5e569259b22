import { z } from 'zod';
import type { SqlRow } from '../../../tables/types';
import { countOf } from '../../../tools/language';
import { defineTool } from '../../../tools/tool';
import { withOutput } from '../capabilities/output';
import { isDocumentName, isTableName, readDocument } from '../read';
import { truncate } from '../sections';

const RetentionRecordSchema = z.object({
  recordType: z.string(),
  /** As written: "7 years after leaving". */
  period: z.string().nullable(),
  /** The period in months (null when not stated; Infinity is written as null with `indefinite`). */
  months: z.number().nullable(),
  indefinite: z.boolean(),
  legalBasis: z.string().nullable(),
  deletionMethod: z.string().nullable(),
  source: z.string(),
  /** What is missing or too long. */
  issues: z.array(z.string()),
});
export type RetentionRecord = z.infer<typeof RetentionRecordSchema>;
export const RetentionReviewOutput = z.object({
  sources: z.array(z.string()),
  records: z.array(RetentionRecordSchema),
  complete: z.number(),
  missingPeriod: z.number(),
  missingBasis: z.number(),
  missingDeletion: z.number(),
  tooLong: z.number(),
});
export type RetentionReview = z.infer<typeof RetentionReviewOutput>;

const PERIOD =
  /\b(\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|eighteen|twenty|thirty)\s*(?:\(\d+\)\s*)?(years?|yrs?|months?|weeks?|days?)\b[^.;|\n]{0,40}|\b(indefinitely|permanently|forever|in perpetuity|no limit)\b/i;
const BASIS =
  /\b(companies act|limitation act|taxes management act|hmrc|vat act|gdpr|uk gdpr|art(?:icle)?\.?\s?\d+|legal obligation|statutory|regulation \d+|employment (?:rights )?act|equality act|working time regulations|health and safety|riddor|contract(?:ual)?|consent|legitimate interests?|fca|sysc|aml|money laundering regulations|pensions act|national minimum wage)\b/i;
const DELETION =
  /\b(delet\w*|destr\w*|shred\w*|anonymi[sz]\w*|pseudonymi[sz]\w*|purg\w*|eras\w*|overwrit\w*|secure(?:ly)? dispos\w*|confidential waste|wiped?)\b/i;

/** Usual maximum retention for common UK record types (ICO and CIPD guidance), in months. */
const BENCHMARKS: Array<[RegExp, number, string]> = [
  [
    /\b(cvs?|unsuccessful (applicants?|candidates?)|recruitment|job applications?|interview notes)\b/i,
    12,
    'unsuccessful applicants: 6–12 months',
  ],
  [/\bcctv\b/i, 1, 'CCTV footage: about 30 days unless needed for an incident'],
  [
    /\b(payroll|pay|wages|salary|tax|paye|vat|invoices?|accounting|financial records)\b/i,
    84,
    'payroll, tax and accounting records: 6 years plus the current year',
  ],
  [
    /\b(personnel|employee|staff|hr) (files?|records?)\b/i,
    84,
    'personnel files: 6 years after employment ends',
  ],
  [
    /\b(marketing|newsletter|prospects?|leads?|mailing list)\b/i,
    24,
    'marketing contacts: about 2 years without engagement',
  ],
  [/\b(e-?mails?|mailbox)\b/i, 36, 'ordinary e-mail: 2–3 years unless part of a record'],
  [/\b(sickness|absence)\b/i, 84, 'sickness records: 6 years after employment ends'],
  [
    /\b(website|web) (logs?|analytics)|\bcookies?\b|\baccess logs?\b/i,
    14,
    'web and access logs: 12–14 months',
  ],
  [
    /\b(customer|client) (contracts?|records?|accounts?)\b/i,
    84,
    'customer contracts: 6 years after the contract ends (Limitation Act)',
  ],
];

function monthsOf(period: string): number | null {
  const m = /(\d{1,3}|[a-z]+)\s*(?:\(\d+\)\s*)?(years?|yrs?|months?|weeks?|days?)/i.exec(period);
  if (!m) return null;
  const n = countOf(m[1]!);
  if (n === null) return null;
  const unit = m[2]!.toLowerCase();
  return unit.startsWith('y')
    ? n * 12
    : unit.startsWith('m')
      ? n
      : unit.startsWith('w')
        ? n / 4.345
        : n / 30.44;
}

function judge(
  recordType: string,
  period: string | null,
  legalBasis: string | null,
  deletionMethod: string | null,
  source: string,
): RetentionRecord {
  const indefinite = !!period && /indefinite|permanent|forever|perpetuity|no limit/i.test(period);
  const months = period && !indefinite ? monthsOf(period) : null;
  const issues: string[] = [];
  if (!period) issues.push('no retention period');
  if (!legalBasis) issues.push('no legal basis');
  if (!deletionMethod) issues.push('no deletion method');
  const bench = BENCHMARKS.find(([re]) => re.test(recordType));
  if (indefinite)
    issues.push(
      `kept indefinitely${bench ? ` (usual: ${bench[2]})` : ''}: longer than needed unless a law requires it`,
    );
  else if (bench && months !== null && months > bench[1])
    issues.push(`longer than needed: ${period} against ${bench[2]}`);
  return {
    recordType,
    period,
    months: months === null ? null : Math.round(months * 10) / 10,
    indefinite,
    legalBasis,
    deletionMethod,
    source,
    issues,
  };
}

const cellText = (v: SqlRow[string] | undefined) =>
  v === null || v === undefined ? null : String(v).trim() || null;

/**
 * Reviews a data retention policy and, when attached, the retention schedule (CSV or XLSX):
 * every record type must have a retention period, a legal basis and a deletion method; periods
 * longer than the usual UK guidance for that record type, or "indefinitely", are flagged.
 */
export const retentionReview = withOutput(
  RetentionReviewOutput,
  defineTool({
    name: 'retention_review',
    description:
      'Review a data retention policy (document) and retention schedule (table): for every record type, whether it has a retention period, a legal basis and a deletion method, and whether the period is longer than usual UK guidance for that record type.',
    input: z.object({}),
    async run(ctx): Promise<RetentionReview> {
      const records: RetentionRecord[] = [];
      const sources: string[] = [];
      for (const name of ctx.fileNames.filter(isDocumentName)) {
        const doc = await readDocument(ctx, name);
        sources.push(name);
        for (const section of doc.sections) {
          for (const line of section.body.split('\n')) {
            const cells = line.includes('|')
              ? line
                  .split('|')
                  .map((c) => c.trim())
                  .filter(Boolean)
              : line.includes('\t')
                ? line.split('\t').map((c) => c.trim())
                : null;
            const p = PERIOD.exec(line);
            if (!p) continue;
            const recordType =
              cells?.[0] ??
              (
                /^[-*•–]?\s*([^:–-]{3,60})\s*[:–-]/.exec(line)?.[1] ??
                (section.heading || truncate(line, 60))
              ).trim();
            if (/^(record|record type|category)$/i.test(recordType)) continue;
            records.push(
              judge(
                recordType.replace(/^[-*•–]\s*/, ''),
                p[0].trim(),
                BASIS.exec(line)?.[0] ?? null,
                DELETION.exec(line)?.[0] ?? null,
                name,
              ),
            );
          }
        }
      }
      if (ctx.fileNames.some(isTableName)) {
        const set = await ctx.tables();
        for (const t of set.tables) {
          const col = (re: RegExp) => t.columns.find((c) => re.test(c.name));
          const typeCol = col(/record|category|type|data|document|information/i) ?? t.columns[0];
          const periodCol = col(/retention|period|keep|kept|duration/i);
          const basisCol = col(/legal|basis|law|statut|reason|justification/i);
          const deleteCol = col(/delet|dispos|destr|method|action at end|end of retention/i);
          if (!typeCol) continue;
          sources.push(t.source);
          const rows = await set.query(`SELECT * FROM ${t.sql}`);
          for (const r of rows) {
            const recordType = cellText(r[typeCol.name]);
            if (!recordType) continue;
            const period = periodCol ? cellText(r[periodCol.name]) : null;
            records.push(
              judge(
                recordType,
                period && (PERIOD.test(period) || /\d/.test(period))
                  ? /^\d+(\.\d+)?$/.test(period)
                    ? `${period} years`
                    : period
                  : period,
                basisCol ? cellText(r[basisCol.name]) : null,
                deleteCol ? cellText(r[deleteCol.name]) : null,
                t.source,
              ),
            );
          }
        }
      }
      return {
        sources,
        records,
        complete: records.filter((r) => !r.issues.length).length,
        missingPeriod: records.filter((r) => !r.period).length,
        missingBasis: records.filter((r) => !r.legalBasis).length,
        missingDeletion: records.filter((r) => !r.deletionMethod).length,
        tooLong: records.filter((r) =>
          r.issues.some((i) => /longer than needed|indefinitely/.test(i)),
        ).length,
      };
    },
  }),
);
