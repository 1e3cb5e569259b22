import { capitalised, plural } from '../../../report/words';
import { barChart } from '../../../tools/charts';
import { list } from '../../report-parts';
import { regulatoryChangeImpact, type RegulatoryImpact } from '../tools/regulatory-change';
import { defineGovernance } from './define';
import { documents } from './inputs';
import { laidOut, section, table, type Section } from '../../../report/section';
import { quotedFile } from './csv';

function regulatoryReport(r: RegulatoryImpact): Section {
  // One declaration: the report's table of every obligation, the file of those still to change.
  const obligations = table<RegulatoryImpact['obligations'][number]>(
    [
      { header: '#', value: (o) => o.id, only: 'markdown' },
      { header: 'Obligation', value: (o) => o.text },
      {
        header: 'Closest policy section',
        value: (o) => (o.mappedTo ? `${o.mappedTo.document}: ${o.mappedTo.section}` : '—'),
        only: 'markdown',
      },
      { header: 'Coverage', value: (o) => o.coverage },
      { header: 'Change', value: (o) => o.change },
      { header: 'Owner', value: (o) => o.ownerRole },
      {
        header: 'Deadline',
        value: (o) => o.deadline ?? '',
        shown: (o) => o.deadline ?? 'not stated',
      },
    ],
    r.obligations,
  );
  const lines = [
    '### Obligations mapped to your policies',
    '',
    obligations.markdown(),
    '',
    'Mapping is by shared key words between the obligation and each policy section: confirm each match before relying on it.',
  ];
  return section(`Regulatory change impact: ${r.regulation}`, {
    answer: [
      `${capitalised(r.regulation)} sets ${plural(r.obligations.length, 'obligation')}; ${r.obligations.length - r.gaps} ${r.obligations.length - r.gaps === 1 ? 'is' : 'are'} already covered by ${r.policies.length ? list(r.policies) : 'no attached policy'}, ${r.gaps} need a change${r.effectiveDate ? `, applying from ${r.effectiveDate}` : ''}.`,
    ],
    content: [
      ...laidOut(lines),
      barChart(
        'Obligations by coverage',
        ['covered', 'partly covered', 'gap'],
        [
          {
            label: 'Obligations',
            data: ['covered', 'partly covered', 'gap'].map(
              (c) => r.obligations.filter((o) => o.coverage === c).length,
            ),
          },
        ],
      ),
      quotedFile(
        'regulatory-change-actions.csv',
        obligations.where((o) => o.coverage !== 'covered'),
      ),
    ],
  });
}

/** A new regulation's obligations mapped to the policies they touch. */
export const regulatoryChange = defineGovernance({
  task: {
    key: 'regulatory-change',
    title: 'Regulatory change impact',
    words: /\b(regulatory change|new regulation|regulation|directive|new law|obligations)\b/i,
    attach: 'document',
    needs: "the regulation's key text",
    missingTitle: 'Regulatory change impact: text needed',
    sample: [
      'regulatory-impact-template.md',
      '# Regulatory change impact\n\n| Obligation | Policy it touches | Change | Owner | Deadline |\n| --- | --- | --- | --- | --- |\n',
    ],
  },
  tool: regulatoryChangeImpact,
  plan: (ctx, request) => {
    const pasted = request.split(/\s+/).length >= 60 ? request : undefined;
    return documents(ctx).length || pasted
      ? [{ tool: regulatoryChangeImpact.name, input: pasted ? { regulationText: pasted } : {} }]
      : [];
  },
  render: regulatoryReport,
});
