import type { ContentItem } from '@contract/structured-response';
import { laidOut, section, table } from '../../../report/section';
import { giftsRegisterReview, type GiftsRegisterReview } from '../tools/gifts-register';
import { defineGovernance } from './define';

function giftsReport(g: GiftsRegisterReview): ContentItem[] {
  // Each entry with an issue once, in register order.
  const flagged = [
    ...new Map(
      [...g.aboveThreshold, ...g.notApproved, ...g.publicOfficials, ...g.noValue].map((e) => [
        e.row,
        e,
      ]),
    ).values(),
  ].sort((a, b) => a.row - b.row);
  const entries = table<(typeof flagged)[number]>(
    [
      { header: 'Row', value: (e) => e.row },
      { header: 'Description', value: (e) => e.description },
      { header: 'Counterparty', value: (e) => e.counterparty ?? '—' },
      { header: 'Value', value: (e) => e.value ?? '—' },
      { header: 'Issues', value: (e) => e.issues.join('; ') },
    ],
    flagged,
  );
  return laidOut([
    `### Gifts and hospitality register (${g.source})`,
    '',
    `${g.entries} entries: ${g.aboveThreshold.length} above the ${g.threshold} approval threshold, ${g.notApproved.length} with no approval recorded, ${g.publicOfficials.length} involving public officials, ${g.noValue.length} without a value.`,
    '',
    entries.markdown(),
    ...(g.repeatCounterparties.length
      ? [
          '',
          `Counterparties appearing three times or more: ${g.repeatCounterparties.map((r) => `${r.counterparty} (${r.entries})`).join(', ')}.`,
        ]
      : []),
  ]);
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
  render: (g) => section('Anti-bribery controls check', { content: giftsReport(g) }),
});
