import { checklistCapability } from './checklist';

/** GDPR readiness: the privacy documents against the checklist, with the evidence still needed. */
export const gdpr = checklistCapability({
  key: 'gdpr',
  words: /\b(gdpr|data protection readiness|privacy notice|readiness checklist)\b/i,
  checklist: 'gdpr',
  mode: 'review',
  template: 'gdpr',
});
