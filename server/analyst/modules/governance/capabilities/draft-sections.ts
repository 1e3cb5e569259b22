import { checklistCapability } from './checklist';

/** Draft wording for the sections a policy lacks or only mentions. */
export const draftSections = checklistCapability({
  key: 'draft-sections',
  words: /\b(draft|write)\b.*\b(missing|weak)\b.*\bsections?\b/i,
  checklist: (request) => (/acceptable use|aup/i.test(request) ? 'acceptable-use' : 'policy'),
  mode: 'drafts',
  template: 'policy',
});
