import { plural } from '../../../report/words';
import { barChart } from '../../../tools/charts';
import { file, markdownTable, text } from '../../../tools/reports';
import { list } from '../../report-parts';
import { regulatoryChangeImpact, type RegulatoryImpact } from '../tools/regulatory-change';
import { defineGovernance } from './define';
import { documents } from './inputs';
import type { Section } from '../../../report/section';
import { quotedCsv } from './csv';

function regulatoryReport(r: RegulatoryImpact): Section {
  return {
    title: `Regulatory change impact: ${r.regulation}`,
    content: [
      text(
        `${r.regulation.charAt(0).toUpperCase()}${r.regulation.slice(1)} sets ${plural(r.obligations.length, 'obligation')}; ${r.obligations.length - r.gaps} ${r.obligations.length - r.gaps === 1 ? 'is' : 'are'} already covered by ${r.policies.length ? list(r.policies) : 'no attached policy'}, ${r.gaps} need a change${r.effectiveDate ? `, applying from ${r.effectiveDate}` : ''}.`,
      ),
      text(
        [
          '### Obligations mapped to your policies',
          '',
          markdownTable(
            [
              '#',
              'Obligation',
              'Closest policy section',
              'Coverage',
              'Change',
              'Owner',
              'Deadline',
            ],
            r.obligations.map((o) => [
              o.id,
              o.text,
              o.mappedTo ? `${o.mappedTo.document}: ${o.mappedTo.section}` : '—',
              o.coverage,
              o.change,
              o.ownerRole,
              o.deadline ?? 'not stated',
            ]),
          ),
          '',
          'Mapping is by shared key words between the obligation and each policy section: confirm each match before relying on it.',
        ].join('\n'),
      ),
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
      file(
        'regulatory-change-actions.csv',
        quotedCsv(
          'Obligation,Coverage,Change,Owner,Deadline',
          r.obligations
            .filter((o) => o.coverage !== 'covered')
            .map((o) => [o.text, o.coverage, o.change, o.ownerRole, o.deadline ?? '']),
        ),
      ),
    ],
    nextSteps: [],
  };
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
