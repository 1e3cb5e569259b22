import { table } from '../../../report/section';
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

/** A document's items against a checklist: what is covered, where, and what to add. */
export const checklistTable = (items: ConceptResult[]) =>
  table<ConceptResult>(
    [
      { header: 'Item', value: (r) => r.label },
      { header: 'Status', value: (r) => r.status, shown: (r) => STATUS[r.status] },
      { header: 'Evidence or what to add', value: evidenceCell, only: 'markdown' },
      // The evidence file keeps the quote and the guidance apart (ADR 0089).
      { header: 'Evidence', value: (r) => r.evidence ?? '', only: 'csv' },
      {
        header: 'What is needed',
        value: (r) => (r.status === 'covered' ? '' : r.guidance),
        only: 'csv',
      },
    ],
    items,
  );
