import { barChart } from '../../../tools/charts';
import { file } from '../../../tools/reports';
import { list } from '../../report-parts';
import { auditFindingsTracker, type AuditFindings } from '../tools/audit-findings';
import { defineGovernance } from './define';
import { tables } from './inputs';
import { laidOut, section, table, type Section } from '../../../report/section';

function auditReport(a: AuditFindings): Section {
  const bySeverity = table<AuditFindings['bySeverity'][number]>(
    [
      { header: 'Severity', value: (s) => s.severity },
      { header: 'Open', value: (s) => s.open },
      { header: 'Overdue', value: (s) => s.overdue },
      { header: 'Closed', value: (s) => s.closed },
    ],
    a.bySeverity,
  );
  const byOwner = table<AuditFindings['byOwner'][number]>(
    [
      { header: 'Owner', value: (o) => o.owner },
      { header: 'Open', value: (o) => o.open },
      { header: 'Overdue', value: (o) => o.overdue },
    ],
    a.byOwner,
  );
  const overdue = table<AuditFindings['overdue'][number]>(
    [
      { header: 'ID', value: (f) => f.id },
      { header: 'Finding', value: (f) => f.finding },
      { header: 'Severity', value: (f) => f.severity },
      { header: 'Owner', value: (f) => f.owner },
      { header: 'Due', value: (f) => f.due },
      { header: 'Days overdue', value: (f) => f.overdueDays },
    ],
    a.overdue,
  );
  const lines = [
    '### By severity',
    '',
    bySeverity.markdown(),
    '',
    '### By owner (open findings)',
    '',
    byOwner.markdown(),
    '',
    '### Overdue findings',
    '',
    a.overdue.length ? overdue.markdown() : 'None.',
  ];
  return section('Audit finding tracker', {
    answer: [
      `${a.open} of ${a.total} audit findings are open, ${a.overdue.length} of them overdue as of ${a.asOf}${a.overdue.length ? `; the most serious overdue: ${list(a.overdue.slice(0, 3).map((f) => `${f.id} (${f.severity}, ${f.owner}, ${f.overdueDays} days)`))}` : ''}.`,
    ],
    content: [
      ...laidOut(lines),
      barChart('Open findings by severity', bySeverity.labels('Severity'), [
        { label: 'Open, not overdue', data: a.bySeverity.map((s) => s.open - s.overdue) },
        bySeverity.series('Overdue'),
      ]),
      file('audit-committee-status-update.md', a.statusUpdate),
    ],
    nextSteps: ['Draft chase e-mails to the owners of overdue findings'],
  });
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
