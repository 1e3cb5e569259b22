import { radarChart } from '../../../tools/charts';
import { file, fileNameFor } from '../../../tools/reports';
import { list } from '../../report-parts';
import { CHECKLISTS } from '../checklists';
import { termsOfReferenceReview, type TorReview } from '../tools/terms-of-reference';
import { checklistTable, POINTS } from './coverage';
import { defineGovernance } from './define';
import { documents } from './inputs';
import { laidOut, section, table, type Section } from '../../../report/section';
import type { Concept } from '../sections';

const VERDICT = { meets: '✅ Meets', weak: '⚠️ Weak', missing: '❌ Missing' } as const;

function torReport(r: TorReview): Section {
  const weak = r.checks.filter((c) => c.verdict !== 'meets');
  const checks = table<TorReview['checks'][number]>(
    [
      { header: 'Element', value: (c) => c.element },
      { header: 'What your terms say', value: (c) => c.found },
      { header: 'Good practice', value: (c) => c.goodPractice },
      { header: 'Verdict', value: (c) => VERDICT[c.verdict] },
    ],
    r.checks,
  );
  const lines = [
    '### Membership, quorum, duties, reporting and annual review',
    '',
    checks.markdown(),
    '',
    '### Every element, judged by content',
    '',
    checklistTable(r.items).markdown(),
  ];
  return section(`Terms of reference review: ${r.committee}`, {
    answer: [
      `The ${r.committee}'s terms of reference meet good practice on ${r.checks.length - weak.length} of ${r.checks.length} points. ${weak.length ? `To fix: ${list(weak.map((w) => `${w.element.toLowerCase()} (${w.verdict === 'missing' ? 'not stated' : w.found})`))}.` : 'Nothing needs fixing.'}`,
    ],
    content: [
      ...laidOut(lines),
      radarChart(
        `Terms of reference: ${r.committee}`,
        r.items.map((i) => i.label),
        [{ label: 'Coverage %', data: r.items.map((i) => POINTS[i.status]) }],
        100,
      ),
      file(
        fileNameFor(`${r.committee} terms of reference changes`, 'md'),
        `# ${r.committee}: suggested changes to the terms of reference\n\n${weak.map((w) => `## ${w.element}\n\nNow: ${w.found}.\n\nSuggested: ${w.goodPractice}.\n`).join('\n') || 'No change needed.'}`,
      ),
    ],
  });
}

/** A committee's terms of reference against good practice. */
export const termsOfReference = defineGovernance({
  task: {
    key: 'terms-of-reference',
    title: 'Terms of reference review',
    words: /\b(terms of reference|\btor\b|committee charter)\b/i,
    attach: 'document',
    needs: 'the terms of reference',
    missingTitle: 'Terms of reference review: document needed',
    sample: [
      'terms-of-reference-checklist.md',
      `# Terms of reference: good practice\n\n${table(
        [
          { header: 'Element', value: (c: Concept) => c.label },
          { header: 'Good practice', value: (c: Concept) => c.guidance },
        ],
        CHECKLISTS['terms-of-reference'].concepts,
      ).markdown()}\n`,
    ],
  },
  tool: termsOfReferenceReview,
  plan: (ctx) =>
    documents(ctx).map((d) => ({ tool: termsOfReferenceReview.name, input: { file: d.fileName } })),
  render: torReport,
});
