import { plural } from '../../report/words';
import { file, markdownTable, text } from '../../tools/reports';
import { list, type Draft } from '../report-parts';
import type { DocumentAnswer } from './tools/document-answer';
import type { RegulationCheck } from './tools/regulation-check';

/** Reports for questions about a document's content and for policies checked against a regulation. */

const STATUS = {
  covered: '✅ Met',
  partial: '⚠️ Partly',
  missing: '❌ Gap',
  'not applicable': '—',
};

export function regulationCheckReport(r: RegulationCheck): Draft {
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
              `Article,Obligation,Status,What the article requires\n${[...gaps, ...partly]
                .map((i) =>
                  [i.ref, i.label, i.status === 'missing' ? 'gap' : 'partly met', i.guidance]
                    .map((v) => `"${v.replace(/"/g, '""')}"`)
                    .join(','),
                )
                .join('\n')}\n`,
            ),
          ]
        : []),
      ...(r.notes.length ? [text(r.notes.join(' '))] : []),
    ],
    nextSteps: gaps.length ? [`Draft wording for the ${reg.name} gaps in ${r.title}`] : [],
  };
}

const clauseOf = (c: string | null) => (c ? `clause ${c}` : null);

export function documentAnswerReport(a: DocumentAnswer): Draft {
  const where = `${a.title} (${a.fileName})`;
  const content: Draft['content'] = [];
  if (a.table) {
    const t = a.table;
    const ref = clauseOf(t.clause);
    const cells = (row: string[]) =>
      row
        .slice(1)
        .map((c, i) => (c ? `${t.header[i + 1]}: ${c}` : ''))
        .filter(Boolean)
        .join('; ');
    const lines = t.matched.map((row) => `- **${t.header[0]} ${row[0]}**: ${cells(row)}`);
    const lead = !t.matched.length
      ? `No row of the table${ref ? ` in ${ref}` : ''} of ${where} matches ${t.amount ?? 'the question'}.`
      : t.amount
        ? `Under ${ref ?? 'the table'} of ${where}, for ${t.amount} the table says:`
        : `${where} sets ${plural(t.matched.length, 'row')} in ${ref ? `${ref} (${t.caption})` : `"${t.caption || 'its table'}"`}:`;
    content.push(
      text([lead, ...lines].join('\n')),
      text(
        [
          `### The table as the document gives it${ref ? ` (${ref})` : ''}`,
          '',
          markdownTable(t.header, t.rows),
        ].join('\n'),
      ),
    );
  }
  if (a.passages.length) {
    const quotes = a.passages.map(
      (p) =>
        `> ${p.text}\n>\n> — ${[clauseOf(p.clause) ?? 'unnumbered paragraph', p.heading ? `"${p.heading}"` : ''].filter(Boolean).join(', ')}`,
    );
    content.push(
      text(
        [
          a.table
            ? 'The clauses that also bear on it:'
            : `${where} answers it in ${list(a.passages.map((p) => clauseOf(p.clause) ?? `"${p.heading || 'an unnumbered paragraph'}"`))}:`,
          '',
          quotes.join('\n\n'),
        ].join('\n'),
      ),
    );
  }
  if (!content.length)
    content.push(
      text(
        `${where} does not say: no clause or table in it answers "${a.question.trim()}". Check the question's wording, or attach the document that covers it.`,
      ),
    );
  return {
    title: `${a.title}: ${a.question.trim().replace(/\?$/, '')}`.slice(0, 120),
    content,
    nextSteps: [],
  };
}
