import { plural } from '../../../report/words';
import { file, fileNameFor } from '../../../tools/reports';
import { list } from '../../report-parts';
import { boardPackSummary, type BoardPackSummary } from '../tools/board-pack-summary';
import { defineGovernance } from './define';
import { documents } from './inputs';
import { laidOut, section, table, type Section } from '../../../report/section';

/** "approve the 2027 budget" from "Recommendation: the Board is asked to approve the 2027 budget." */
function decisionPhrase(d: { ask: string; text: string }): string {
  const m =
    /\b(approve|note|agree|endorse|ratify|authori[sz]e|consider|adopt|confirm|delegate|review|discuss)\s+(.+?)[.;]?$/i.exec(
      d.text,
    );
  return m ? `${m[1]!.toLowerCase()} ${m[2]}` : d.text;
}

function boardSummaryReport(s: BoardPackSummary): Section {
  const decisions = table<BoardPackSummary['decisions'][number] & { n: number }>(
    [
      { header: '#', value: (d) => d.n },
      { header: 'Ask', value: (d) => d.ask },
      { header: 'Decision as the papers put it', value: (d) => d.text },
      { header: 'Paper', value: (d) => d.paper ?? '' },
    ],
    s.decisions.map((d, i) => ({ n: i + 1, ...d })),
  );
  const figures = table<BoardPackSummary['figures'][number]>(
    [
      { header: 'Figure', value: (f) => f.value },
      { header: 'Context', value: (f) => f.context },
      { header: 'Paper', value: (f) => f.paper ?? '' },
    ],
    s.figures,
  );
  const lines = [
    '### Decisions asked of the board',
    '',
    s.decisions.length
      ? decisions.markdown()
      : 'No paper asks the board for a decision: the pack is for noting.',
    '',
    '### Key figures',
    '',
    s.figures.length ? figures.markdown() : 'The papers state no figures.',
    '',
    '### Risks raised',
    '',
    s.risks.length
      ? s.risks.map((r) => `- ${r.text}${r.paper ? ` _(${r.paper})_` : ''}`).join('\n')
      : 'The papers raise no risk in words.',
    '',
    '### Questions a non-executive director should ask',
    '',
    s.questions.map((q, i) => `${i + 1}. ${q}`).join('\n'),
  ];
  return section(`Board pack summary: ${s.title}`, {
    answer: [
      `**${s.title}** asks the board to ${s.decisions.length ? list(s.decisions.map(decisionPhrase)) : 'take no decision (the papers are for noting)'}. The papers raise ${plural(s.risks.length, 'risk')} and state ${plural(s.figures.length, 'key figure')}; the questions a non-executive director should ask follow.`,
    ],
    content: laidOut(lines, [], [file(fileNameFor(`${s.title} briefing`, 'md'), s.briefing)]),
    nextSteps: ['Turn the decisions into a minutes template with an action log'],
  });
}

/** A board pack summarised: the decisions asked, key figures, risks and questions to ask. */
export const boardSummary = defineGovernance({
  task: {
    key: 'board-summary',
    title: 'Board pack summary',
    words: /\b(board (pack|papers?)|briefing|summar\w+ (the|a|this|our)? ?(board|pack|papers))\b/i,
    attach: 'document',
    needs: 'the board papers',
    missingTitle: 'Board pack summary: papers needed',
    sample: [
      'board-briefing-template.md',
      '# Board briefing\n\n## Decisions asked of the board\n\n## Key figures\n\n## Risks raised\n\n## Questions a non-executive director should ask\n',
    ],
  },
  tool: boardPackSummary,
  plan: (ctx) =>
    documents(ctx).map((d) => ({ tool: boardPackSummary.name, input: { file: d.fileName } })),
  render: boardSummaryReport,
});
