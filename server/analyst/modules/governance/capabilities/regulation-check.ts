import { plural } from '../../../report/words';
import { list } from '../../report-parts';
import { asksRegulationCheck } from '../intent';
import { REGULATIONS } from '../regulations';
import { regulationCheck, type RegulationCheck } from '../tools/regulation-check';
import { defineGovernance } from './define';
import { documents } from './inputs';
import { laidOut, section, table, type Column, type Section } from '../../../report/section';
import { quotedFile } from './csv';

const STATUS = {
  covered: '✅ Met',
  partial: '⚠️ Partly',
  missing: '❌ Gap',
  'not applicable': '—',
};

type Item = Extract<RegulationCheck, { known: true }>['items'][number];

/** One declaration (ADR 0089): the report's table of every obligation, the file of the gaps. */
const OBLIGATION_COLUMNS: Array<Column<Item>> = [
  { header: 'Article', value: (i) => i.ref },
  { header: 'Obligation', value: (i) => i.label },
  {
    header: 'Status',
    value: (i) => (i.status === 'missing' ? 'gap' : 'partly met'),
    shown: (i) => STATUS[i.status],
  },
  {
    header: 'Where the policy says it',
    value: (i) =>
      i.evidence ? `${i.section ? `${i.section}: ` : ''}"${i.evidence}"` : (i.section ?? '—'),
    only: 'markdown',
  },
  { header: 'What the article requires', value: (i) => i.guidance },
];

function regulationCheckReport(r: RegulationCheck): Section {
  if (!r.known)
    return section('Regulation not held', {
      answer: [
        `I do not hold the obligations of ${r.asked}, so I cannot check a policy against it; the regulations I hold are ${list(r.held)}.`,
      ],
    });
  const reg = r.regulation;
  const gaps = r.items.filter((i) => i.status === 'missing');
  const partly = r.items.filter((i) => i.status === 'partial');
  const cite = (i: { ref: string; label: string }) => `${i.label} (${i.ref})`;
  const lines = [
    '### Obligation by obligation',
    '',
    table(OBLIGATION_COLUMNS, r.items).markdown(),
    '',
    `Scope: ${reg.scope} Met means a section of the policy says what the article requires (read from its content, not its headings); national transposition may add to these obligations, so confirm each gap against the article before acting on it.`,
  ];
  return section(`${r.title} against the ${reg.name}`, {
    answer: [
      [
        `${r.title} (${r.fileName}) meets ${r.met} of the ${r.items.length} key obligations of the ${reg.name} (${reg.citation}); ${plural(gaps.length, 'gap')}${partly.length ? ` and ${partly.length} partly met` : ''}.`,
        gaps.length ? `Gaps: ${gaps.map(cite).join('; ')}.` : '',
        partly.length ? `Partly met: ${partly.map(cite).join('; ')}.` : '',
      ]
        .filter(Boolean)
        .join('\n\n'),
    ],
    content: [
      ...laidOut(lines),
      ...(gaps.length || partly.length
        ? [quotedFile(`${reg.id}-gaps.csv`, table(OBLIGATION_COLUMNS, [...gaps, ...partly]))]
        : []),
      ...laidOut(r.notes.length ? [r.notes.join(' ')] : []),
    ],
    nextSteps: gaps.length ? [`Draft wording for the ${reg.name} gaps in ${r.title}`] : [],
  });
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
