import { resultOf } from '../../../capability';
import { laidOut, section, type Section } from '../../../report/section';
import { plural } from '../../../report/words';
import { file } from '../../../tools/reports';
import type { ToolCallRecord } from '../../../tools/tool';
import { list } from '../../report-parts';
import { auditFindingsTracker } from '../tools/audit-findings';
import { minutesFromNotes } from '../tools/minutes';
import { riskRegisterReview } from '../tools/risk-register-review';
import { auditFindings } from './audit-findings';
import { defineFollowUp } from './define';
import { previousReport } from '../../../types';
import { bodyOf, documents, tables } from './inputs';
import { minutes } from './minutes';
import { riskReview } from './risk-review';

interface ChaseItem {
  owner: string;
  line: string;
}

/** One short note per owner listing their open items: the deeper follow-up of a log or register. */
function chaseDraft(kind: string, items: ChaseItem[], unowned: string[]): Section {
  const owners = [...new Set(items.map((i) => i.owner))];
  const notes = owners.map((o) => {
    const mine = items.filter((i) => i.owner === o);
    return `## To: ${o}\n\nSubject: ${mine.length} open ${kind}${mine.length === 1 ? '' : 's'} for your update\n\nHello,\n\nThese ${kind}s are open against your name. Please reply with progress and a date for each before the next meeting:\n\n${mine.map((m) => `- ${m.line}`).join('\n')}\n\nThank you.\n`;
  });
  const body = notes.join('\n');
  return section(`Chase notes: ${owners.length} owner${owners.length === 1 ? '' : 's'}`, {
    answer: [
      `Here ${owners.length === 1 ? 'is 1 chase note' : `are ${owners.length} chase notes`}, one per owner, covering ${plural(items.length, `open ${kind}`)}: ${list(owners.map((o) => `${o} (${items.filter((i) => i.owner === o).length})`))}.${unowned.length ? ` ${plural(unowned.length, kind)} ${unowned.length === 1 ? 'has' : 'have'} no owner to chase: ${unowned.join('; ')}.` : ''}`,
    ],
    content: laidOut([body], [], [file('chase-notes.md', `# Chase notes\n\n${body}`)]),
  });
}

function chaseFrom(calls: ToolCallRecord[]): Section | null {
  const m = resultOf(minutes, calls);
  if (m) {
    const open = [
      ...m.actions.map((a) => ({
        owner: a.owner,
        line: `${a.ref} ${a.action}${a.due ? ` (due ${a.due})` : ' (no due date yet: please propose one)'}`,
      })),
      ...m.carriedOver.map((c) => ({
        owner: c.owner,
        line: `${c.ref} ${c.action} (carried over, was due ${c.due ?? 'not stated'}, ${c.status})`,
      })),
    ];
    return chaseDraft(
      'action',
      open.filter((o): o is ChaseItem => !!o.owner),
      open.filter((o) => !o.owner).map((o) => o.line),
    );
  }
  const r = resultOf(riskReview, calls);
  if (r) {
    const due = r.risks.filter((x) => x.issues.some((i) => i.startsWith('review overdue')));
    return chaseDraft(
      'risk review',
      due
        .filter((x) => x.owner)
        .map((x) => ({ owner: x.owner!, line: `${x.id} ${x.risk}: review was due ${x.due}` })),
      due.filter((x) => !x.owner).map((x) => x.id),
    );
  }
  const a = resultOf(auditFindings, calls);
  if (a)
    return chaseDraft(
      'audit finding',
      a.overdue
        .filter((f) => f.owner !== 'No owner')
        .map((f) => ({
          owner: f.owner,
          line: `${f.id} ${f.finding} (${f.severity}; agreed date ${f.due}, ${f.overdueDays} days overdue)`,
        })),
      a.overdue.filter((f) => f.owner === 'No owner').map((f) => f.id),
    );
  return null;
}

/** Chase notes to the owners of the open items of the report this follows. */
export const chase = defineFollowUp({
  task: {
    key: 'chase',
    title: 'Chase notes',
    words: /\b(chase|reminder)\s+(notes?|e-?mails?|messages?)\b/i,
    attach: 'table',
    needs: 'the action log, risk register or findings log to chase',
    missingTitle: 'Chase notes: log needed',
    sample: ['action-log-template.csv', 'Ref,Action,Owner,Due,Status\n'],
  },
  // The log, register or findings of the report this follows: minutes, register or findings.
  plan(ctx, request) {
    const before = previousReport(ctx.history)?.task_name ?? '';
    const docs = documents(ctx);
    const hasTables = tables(ctx).length > 0;
    const tableName = tables(ctx)[0]?.fileName ?? '';
    if (/minutes|action log/i.test(before) || (!hasTables && docs.length))
      return docs.length
        ? [{ tool: minutesFromNotes.name, input: { body: bodyOf(before || request) } }]
        : [];
    if (/audit finding/i.test(before) || /finding|audit/i.test(tableName))
      return hasTables ? [{ tool: auditFindingsTracker.name, input: {} }] : [];
    return hasTables ? [{ tool: riskRegisterReview.name, input: {} }] : [];
  },
  answer: chaseFrom,
});
