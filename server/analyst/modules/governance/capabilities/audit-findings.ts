import { barChart } from '../../../tools/charts';
import { file, markdownTable, text } from '../../../tools/reports';
import { list } from '../../report-parts';
import { auditFindingsTracker, type AuditFindings } from '../tools/audit-findings';
import { defineGovernance } from './define';
import { tables } from './inputs';
import type { Section } from '../../../report/section';

function auditReport(a: AuditFindings): Section {
  return {
    title: 'Audit finding tracker',
    content: [
      text(
        `${a.open} of ${a.total} audit findings are open, ${a.overdue.length} of them overdue as of ${a.asOf}${a.overdue.length ? `; the most serious overdue: ${list(a.overdue.slice(0, 3).map((f) => `${f.id} (${f.severity}, ${f.owner}, ${f.overdueDays} days)`))}` : ''}.`,
      ),
      text(
        [
          '### By severity',
          '',
          markdownTable(
            ['Severity', 'Open', 'Overdue', 'Closed'],
            a.bySeverity.map((s) => [s.severity, s.open, s.overdue, s.closed]),
          ),
          '',
          '### By owner (open findings)',
          '',
          markdownTable(
            ['Owner', 'Open', 'Overdue'],
            a.byOwner.map((o) => [o.owner, o.open, o.overdue]),
          ),
          '',
          '### Overdue findings',
          '',
          a.overdue.length
            ? markdownTable(
                ['ID', 'Finding', 'Severity', 'Owner', 'Due', 'Days overdue'],
                a.overdue.map((f) => [f.id, f.finding, f.severity, f.owner, f.due, f.overdueDays]),
              )
            : 'None.',
        ].join('\n'),
      ),
      barChart(
        'Open findings by severity',
        a.bySeverity.map((s) => s.severity),
        [
          { label: 'Open, not overdue', data: a.bySeverity.map((s) => s.open - s.overdue) },
          { label: 'Overdue', data: a.bySeverity.map((s) => s.overdue) },
        ],
      ),
      file('audit-committee-status-update.md', a.statusUpdate),
    ],
    nextSteps: ['Draft chase e-mails to the owners of overdue findings'],
  };
}

/** Open and overdue audit findings by severity and owner, with a status update for the committee. */
export const auditFindings = defineGovernance({
  task: {
    key: 'audit-findings',
    title: 'Audit finding tracker',
    words: /\b(audit findings?|findings? (log|tracker)|open findings|audit actions)\b/i,
    attach: 'table',
    needs: 'the findings log',
    missingTitle: 'Audit finding tracker: findings log needed',
    sample: ['audit-findings-template.csv', 'Finding ID,Finding,Severity,Owner,Due date,Status\n'],
  },
  tool: auditFindingsTracker,
  readsTables: true,
  plan: (ctx) => (tables(ctx).length ? [{ tool: auditFindingsTracker.name, input: {} }] : []),
  render: auditReport,
});
