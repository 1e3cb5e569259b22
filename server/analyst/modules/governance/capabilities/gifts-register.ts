import type { ContentItem } from '@contract/structured-response';
import { markdownTable, text } from '../../../tools/reports';
import { giftsRegisterReview, type GiftsRegisterReview } from '../tools/gifts-register';
import { defineGovernance } from './define';

function giftsReport(g: GiftsRegisterReview): ContentItem[] {
  return [
    text(
      [
        `### Gifts and hospitality register (${g.source})`,
        '',
        `${g.entries} entries: ${g.aboveThreshold.length} above the ${g.threshold} approval threshold, ${g.notApproved.length} with no approval recorded, ${g.publicOfficials.length} involving public officials, ${g.noValue.length} without a value.`,
        '',
        markdownTable(
          ['Row', 'Description', 'Counterparty', 'Value', 'Issues'],
          [
            ...new Map(
              [...g.aboveThreshold, ...g.notApproved, ...g.publicOfficials, ...g.noValue].map(
                (e) => [e.row, e],
              ),
            ).values(),
          ]
            .sort((a, b) => a.row - b.row)
            .map((e) => [
              e.row,
              e.description,
              e.counterparty ?? '—',
              e.value ?? '—',
              e.issues.join('; '),
            ]),
        ),
        ...(g.repeatCounterparties.length
          ? [
              '',
              `Counterparties appearing three times or more: ${g.repeatCounterparties.map((r) => `${r.counterparty} (${r.entries})`).join(', ')}.`,
            ]
          : []),
      ].join('\n'),
    ),
  ];
}

/**
 * The gifts and hospitality register, reviewed beside an anti-bribery check (which plans it):
 * its findings join the check's answer.
 */
export const giftsRegister = defineGovernance({
  task: { key: 'gifts-register', title: 'Anti-bribery controls check' },
  tool: giftsRegisterReview,
  readsTables: true,
  joinsFirst: true,
  plan: () => [{ tool: giftsRegisterReview.name, input: {} }],
  render: (g) => ({ title: 'Anti-bribery controls check', content: giftsReport(g), nextSteps: [] }),
});
