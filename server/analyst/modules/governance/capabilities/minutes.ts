import { plural } from '../../../report/words';
import { file, fileNameFor } from '../../../tools/reports';
import { minutesFromNotes, type MinutesResult } from '../tools/minutes';
import { defineGovernance, needsSection } from './define';
import { bodyOf, documents } from './inputs';
import { laidOut, section, table, type Section } from '../../../report/section';

function minutesReport(m: MinutesResult): Section {
  const lead = `I turned ${m.notesFile} into formal minutes of the ${m.meeting} (${plural(m.items.length, 'item')}) and an action log of ${plural(m.actions.length, 'action')}${m.incomplete.length ? `, ${m.incomplete.length} of them still missing an owner or a due date` : ', each with an owner and a due date'}. ${m.actionLogFile ? `${plural(m.carriedOver.length, 'item')} from ${m.actionLogFile} ${m.carriedOver.length === 1 ? 'is' : 'are'} carried over.` : "No previous action log was attached, so nothing is carried over: attach last meeting's log to add those items."}`;
  const actions = table<MinutesResult['actions'][number]>(
    [
      { header: 'Ref', value: (a) => a.ref },
      { header: 'Action', value: (a) => a.action },
      { header: 'Owner', value: (a) => a.owner ?? '**not stated**' },
      { header: 'Due', value: (a) => a.due ?? '**not stated**' },
      { header: 'Status', value: (a) => a.status },
      { header: 'Minute', value: (a) => a.minute ?? '' },
    ],
    m.actions,
  );
  const carried = table<MinutesResult['carriedOver'][number]>(
    [
      { header: 'Ref', value: (c) => c.ref },
      { header: 'Action', value: (c) => c.action },
      { header: 'Owner', value: (c) => c.owner ?? '' },
      { header: 'Original due', value: (c) => c.due ?? '' },
      { header: 'Status', value: (c) => c.status },
    ],
    m.carriedOver,
  );
  const lines = [
    '### Action log',
    '',
    actions.markdown(),
    ...(m.incomplete.length
      ? ['', '**To complete before circulating:**', ...m.incomplete.map((x) => `- ${x}`)]
      : []),
    '',
    '### Items carried over from last time',
    '',
    m.carriedOver.length ? carried.markdown() : 'None.',
    '',
    '### Decisions recorded',
    '',
    m.items.flatMap((i) => i.decisions.map((d) => `- ${i.number}. ${i.title}: ${d}`)).join('\n') ||
      'The notes record no decision.',
  ];
  return section(`${m.meeting.replace(/ meeting$/, '')} minutes and action log`, {
    answer: [lead],
    content: laidOut(
      lines,
      [],
      [
        file(fileNameFor(`${m.meeting} minutes`, 'md'), m.minutes),
        file(fileNameFor(`${m.meeting} action log`, 'csv'), m.actionLogCsv),
      ],
    ),
    nextSteps: ['Draft chase notes to the owners of the open actions'],
  });
}

/** Meeting notes turned into formal minutes and an action log, with last time's items carried over. */
export const minutes = defineGovernance({
  task: {
    key: 'minutes',
    title: 'Minutes and action log',
    words: /\b(minutes|action log|meeting notes|action tracker)\b/i,
    needs: 'the meeting notes',
    missing: (request) =>
      needsSection('document', 'the meeting notes', `${bodyOf(request)} minutes: notes needed`, [
        'minutes-template.md',
        `# Minutes of the meeting of the ${bodyOf(request)}\n\nDate:\nPresent:\nApologies:\n\n## 1. [Item]\n\nDiscussion:\nResolved:\nAction: [owner] to [action] by [date]\n\n## Action log\n\n| Ref | Action | Owner | Due | Status |\n| --- | --- | --- | --- | --- |\n`,
      ]),
  },
  tool: minutesFromNotes,
  plan: (ctx, request) =>
    documents(ctx).length
      ? [{ tool: minutesFromNotes.name, input: { body: bodyOf(request) } }]
      : [],
  render: minutesReport,
});
