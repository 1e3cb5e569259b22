import { radarChart } from '../../../tools/charts';
import { file, fileNameFor, markdownTable, text } from '../../../tools/reports';
import { list } from '../../report-parts';
import { CHECKLISTS } from '../checklists';
import { termsOfReferenceReview, type TorReview } from '../tools/terms-of-reference';
import { checklistTable, POINTS } from './coverage';
import { defineGovernance } from './define';
import { documents } from './inputs';
import type { Section } from '../../../report/section';

function torReport(r: TorReview): Section {
  const weak = r.checks.filter((c) => c.verdict !== 'meets');
  const verdict = { meets: '✅ Meets', weak: '⚠️ Weak', missing: '❌ Missing' } as const;
  return {
    title: `Terms of reference review: ${r.committee}`,
    content: [
      text(
        `The ${r.committee}'s terms of reference meet good practice on ${r.checks.length - weak.length} of ${r.checks.length} points. ${weak.length ? `To fix: ${list(weak.map((w) => `${w.element.toLowerCase()} (${w.verdict === 'missing' ? 'not stated' : w.found})`))}.` : 'Nothing needs fixing.'}`,
      ),
      text(
        `### Membership, quorum, duties, reporting and annual review\n\n${markdownTable(
          ['Element', 'What your terms say', 'Good practice', 'Verdict'],
          r.checks.map((c) => [c.element, c.found, c.goodPractice, verdict[c.verdict]]),
        )}\n\n### Every element, judged by content\n\n${checklistTable(r.items)}`,
      ),
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
    nextSteps: [],
  };
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
      `# Terms of reference: good practice\n\n${markdownTable(
        ['Element', 'Good practice'],
        CHECKLISTS['terms-of-reference'].concepts.map((c) => [c.label, c.guidance]),
      )}\n`,
    ],
  },
  tool: termsOfReferenceReview,
  plan: (ctx) =>
    documents(ctx).map((d) => ({ tool: termsOfReferenceReview.name, input: { file: d.fileName } })),
  render: torReport,
});
