import { checklistCapability } from './checklist';

/** An acceptable use policy refreshed: the review, with draft wording for what is missing. */
export const acceptableUse = checklistCapability({
  key: 'acceptable-use',
  words: /\b(acceptable use|aup|personal devices|byod)\b/i,
  checklist: 'acceptable-use',
  mode: 'drafting',
  template: 'acceptable-use',
});
