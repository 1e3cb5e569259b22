import { giftsRegisterReview } from '../tools/gifts-register';
import { checklistCapability } from './checklist';
import { tables } from './inputs';

/** Anti-bribery controls: the policy against the checklist, and the gifts register when attached. */
export const antiBribery = checklistCapability({
  key: 'anti-bribery',
  words: /\b(brib\w*|corruption|gifts? (and|&) hospitality|gifts register)\b/i,
  checklist: 'anti-bribery',
  mode: 'review',
  template: 'anti-bribery',
  alsoPlan: (ctx) => (tables(ctx).length ? [{ tool: giftsRegisterReview.name, input: {} }] : []),
});
