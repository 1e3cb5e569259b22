import { checklistCapability } from './checklist';

/** A policy checked for the sections every policy needs: the module's default analysis. */
export const policy = checklistCapability({
  key: 'policy',
  checklist: (request) => (/acceptable use|aup/i.test(request) ? 'acceptable-use' : 'policy'),
  mode: 'review',
  template: 'policy',
});
