import { z } from 'zod';
import { defineTool, ToolError } from '../../../tools/tool';
import { withOutput } from '../capabilities/output';
import { asOfOf, cellText, dateOf, daysBetween, readRegister, REGISTERS } from './registers';

const FindingSchema = z.object({
  id: z.string(),
  finding: z.string(),
  severity: z.string(),
  owner: z.string(),
  due: z.string().nullable(),
  status: z.string(),
  open: z.boolean(),
  overdueDays: z.number().nullable(),
});
export type Finding = z.infer<typeof FindingSchema>;
export const AuditFindingsOutput = z.object({
  source: z.string(),
  asOf: z.string(),
  total: z.number(),
  open: z.number(),
  closed: z.number(),
  overdue: z.array(FindingSchema),
  bySeverity: z.array(
    z.object({ severity: z.string(), open: z.number(), overdue: z.number(), closed: z.number() }),
  ),
  byOwner: z.array(z.object({ owner: z.string(), open: z.number(), overdue: z.number() })),
  statusUpdate: z.string(),
});
export type AuditFindings = z.infer<typeof AuditFindingsOutput>;

const CLOSED = /^(closed|complete(d)?|done|resolved|implemented|verified|remediated)$/i;
const SEVERITY_ORDER = ['critical', 'high', 'medium', 'moderate', 'low', 'advisory', 'not stated'];

/**
 * Tracks open audit findings: grouped by severity and owner, overdue ones (open with a due date
 * before the as-of date, with days overdue), and a status update for the audit committee.
 */
export const auditFindingsTracker = withOutput(
  AuditFindingsOutput,
  defineTool({
    name: 'audit_findings_tracker',
    description:
      'Track audit findings from an attached log (CSV/XLSX): counts by severity and owner, overdue open findings (due before the as-of date) with days overdue, and a drafted status update for the audit committee.',
    input: z.object({}),
    async run(ctx): Promise<AuditFindings> {
      const reg = await readRegister(ctx, REGISTERS.findings);
      const c = {
        id: reg.col(/^(finding )?(id|ref|no\.?|#)$/i),
        finding: reg.col(
          /finding|issue|observation|description|title/i,
          /id$|ref$|date|severity|owner|status/i,
        ),
        severity: reg.col(/severity|rating|priority|risk|grade/i),
        owner: reg.col(/owner|responsible|assignee|lead|manager/i),
        due: reg.col(/due|target|deadline|agreed date/i),
        status: reg.col(/status|state|progress/i),
      };
      if (!c.finding)
        throw new ToolError(`${reg.table.source} has no finding or description column.`);
      const asOf = asOfOf(reg.set);
      const findings: Finding[] = [];
      reg.rows.forEach((row, i) => {
        const finding = cellText(row, c.finding);
        if (!finding) return;
        const status = cellText(row, c.status) ?? 'Open';
        const open = !CLOSED.test(status);
        const due = dateOf(row, c.due);
        const late = open && due && due < asOf ? daysBetween(due, asOf) : null;
        const sev = cellText(row, c.severity);
        findings.push({
          id: cellText(row, c.id) ?? `F${i + 1}`,
          finding,
          severity: sev ? sev[0]!.toUpperCase() + sev.slice(1).toLowerCase() : 'Not stated',
          owner: cellText(row, c.owner) ?? 'No owner',
          due,
          status,
          open,
          overdueDays: late,
        });
      });
      const sevs = [...new Set(findings.map((f) => f.severity))].sort((a, b) => rank(a) - rank(b));
      const bySeverity = sevs.map((severity) => {
        const fs = findings.filter((f) => f.severity === severity);
        return {
          severity,
          open: fs.filter((f) => f.open).length,
          overdue: fs.filter((f) => f.overdueDays !== null).length,
          closed: fs.filter((f) => !f.open).length,
        };
      });
      const owners = [...new Set(findings.filter((f) => f.open).map((f) => f.owner))];
      const byOwner = owners
        .map((owner) => ({
          owner,
          open: findings.filter((f) => f.open && f.owner === owner).length,
          overdue: findings.filter((f) => f.overdueDays !== null && f.owner === owner).length,
        }))
        .sort((a, b) => b.overdue - a.overdue || b.open - a.open);
      const overdue = findings
        .filter((f) => f.overdueDays !== null)
        .sort((a, b) => rank(a.severity) - rank(b.severity) || b.overdueDays! - a.overdueDays!);
      const open = findings.filter((f) => f.open).length;
      const statusUpdate = [
        `# Audit findings: status update for the Audit Committee`,
        '',
        `Position at ${asOf}, from ${reg.table.source}.`,
        '',
        `Of ${findings.length} findings, ${open} are open and ${findings.length - open} closed. ${overdue.length} open finding${overdue.length === 1 ? ' is' : 's are'} past the agreed date${overdue.length ? `, the oldest by ${overdue.reduce((most, f) => Math.max(most, f.overdueDays!), 0)} days` : ''}.`,
        '',
        '## Open findings by severity',
        '',
        '| Severity | Open | Of which overdue | Closed |',
        '| --- | --- | --- | --- |',
        ...bySeverity.map((s) => `| ${s.severity} | ${s.open} | ${s.overdue} | ${s.closed} |`),
        '',
        '## Overdue findings',
        '',
        ...(overdue.length
          ? [
              '| ID | Finding | Severity | Owner | Due | Days overdue |',
              '| --- | --- | --- | --- | --- | --- |',
              ...overdue.map(
                (f) =>
                  `| ${f.id} | ${f.finding} | ${f.severity} | ${f.owner} | ${f.due} | ${f.overdueDays} |`,
              ),
            ]
          : ['None.']),
        '',
        '## Asks of the committee',
        '',
        ...(overdue.length
          ? [
              `- Ask ${[...new Set(overdue.map((f) => f.owner))].join(', ')} to present revised dates for the overdue findings at the next meeting.`,
            ]
          : []),
        '- Note the closed findings, subject to internal audit verification.',
        '',
      ].join('\n');
      return {
        source: reg.table.source,
        asOf,
        total: findings.length,
        open,
        closed: findings.length - open,
        overdue,
        bySeverity,
        byOwner,
        statusUpdate,
      };
    },
  }),
);

function rank(severity: string): number {
  const i = SEVERITY_ORDER.indexOf(severity.toLowerCase());
  return i < 0 ? SEVERITY_ORDER.length : i;
}
