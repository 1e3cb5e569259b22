import { markdownTable } from '../../../tools/reports';
import type { ConceptResult } from '../sections';

/** How checklist items show in every report that judges a document by a checklist. */

const STATUS: Record<ConceptResult['status'], string> = {
  covered: '✅ Covered',
  partial: '⚠️ Mentioned only',
  missing: '❌ Missing',
  'not applicable': '— Not applicable',
};

/** An item's points on a coverage chart. */
export const POINTS: Record<ConceptResult['status'], number> = {
  covered: 100,
  partial: 50,
  missing: 0,
  'not applicable': 0,
};

function evidenceCell(r: ConceptResult): string {
  if (r.status === 'not applicable') return 'The document does not deal with personal data';
  if (r.status === 'missing') return `Add: ${r.guidance}`;
  const where = r.section ? `Section "${r.section}"` : 'In the text';
  const how =
    r.matchedBy === 'content'
      ? ' (judged by its content)'
      : r.matchedBy === 'mention'
        ? ' (a passing mention, no section)'
        : '';
  return `${where}${how}${r.evidence ? `: "${r.evidence}"` : ''}`;
}

export function checklistTable(items: ConceptResult[]): string {
  return markdownTable(
    ['Item', 'Status', 'Evidence or what to add'],
    items.map((r) => [r.label, STATUS[r.status], evidenceCell(r)]),
  );
}
