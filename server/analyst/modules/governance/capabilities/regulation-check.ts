import { plural } from '../../../report/words';
import { file, markdownTable, text } from '../../../tools/reports';
import { list } from '../../report-parts';
import { asksRegulationCheck } from '../intent';
import { REGULATIONS } from '../regulations';
import { regulationCheck, type RegulationCheck } from '../tools/regulation-check';
import { defineGovernance } from './define';
import { documents } from './inputs';
import type { Section } from '../../../report/section';
import { quotedCsv } from './csv';

const STATUS = {
  covered: '✅ Met',
  partial: '⚠️ Partly',
  missing: '❌ Gap',
  'not applicable': '—',
};

function regulationCheckReport(r: RegulationCheck): Section {
  if (!r.known)
    return {
      title: 'Regulation not held',
      content: [
        text(
          `I do not hold the obligations of ${r.asked}, so I cannot check a policy against it; the regulations I hold are ${list(r.held)}.`,
        ),
      ],
      nextSteps: [],
    };
  const reg = r.regulation;
  const gaps = r.items.filter((i) => i.status === 'missing');
  const partly = r.items.filter((i) => i.status === 'partial');
  const cite = (i: { ref: string; label: string }) => `${i.label} (${i.ref})`;
  return {
    title: `${r.title} against the ${reg.name}`,
    content: [
      text(
        [
          `${r.title} (${r.fileName}) meets ${r.met} of the ${r.items.length} key obligations of the ${reg.name} (${reg.citation}); ${plural(gaps.length, 'gap')}${partly.length ? ` and ${partly.length} partly met` : ''}.`,
          gaps.length ? `Gaps: ${gaps.map(cite).join('; ')}.` : '',
          partly.length ? `Partly met: ${partly.map(cite).join('; ')}.` : '',
        ]
          .filter(Boolean)
          .join('\n\n'),
      ),
      text(
        [
          '### Obligation by obligation',
          '',
          markdownTable(
            [
              'Article',
              'Obligation',
              'Status',
              'Where the policy says it',
              'What the article requires',
            ],
            r.items.map((i) => [
              i.ref,
              i.label,
              STATUS[i.status],
              i.evidence
                ? `${i.section ? `${i.section}: ` : ''}"${i.evidence}"`
                : (i.section ?? '—'),
              i.guidance,
            ]),
          ),
          '',
          `Scope: ${reg.scope} Met means a section of the policy says what the article requires (read from its content, not its headings); national transposition may add to these obligations, so confirm each gap against the article before acting on it.`,
        ].join('\n'),
      ),
      ...(gaps.length || partly.length
        ? [
            file(
              `${reg.id}-gaps.csv`,
              quotedCsv(
                'Article,Obligation,Status,What the article requires',
                [...gaps, ...partly].map((i) => [
                  i.ref,
                  i.label,
                  i.status === 'missing' ? 'gap' : 'partly met',
                  i.guidance,
                ]),
              ),
            ),
          ]
        : []),
      ...(r.notes.length ? [text(r.notes.join(' '))] : []),
    ],
    nextSteps: gaps.length ? [`Draft wording for the ${reg.name} gaps in ${r.title}`] : [],
  };
}

/** A policy checked against a named regulation's key obligations, article by article. */
export const regulationCheckCapability = defineGovernance({
  task: {
    key: 'regulation-check',
    title: 'Regulation check',
    asked: (request) => asksRegulationCheck(request),
    partWords: new RegExp(REGULATIONS.map((r) => `(?:${r.aliases.source})`).join('|'), 'i'),
    attach: 'document',
    needs: 'the policy to check',
    missingTitle: 'Regulation check: policy needed',
    sample: [
      'policy-outline.md',
      '# Policy\n\n## Purpose\n\n## Scope\n\n## Roles and responsibilities\n\n## Procedure\n\n## Review\n',
    ],
  },
  tool: regulationCheck,
  plan: (ctx, request) => {
    const doc = documents(ctx)[0];
    return [
      {
        tool: regulationCheck.name,
        input: { regulation: request.slice(0, 400), ...(doc ? { file: doc.fileName } : {}) },
      },
    ];
  },
  render: regulationCheckReport,
});
