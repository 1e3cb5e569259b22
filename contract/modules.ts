import { z } from 'zod';
import { MODULE_KEYS } from './module-list';

// The keys, routes and names live in module-list.ts, which imports no zod: pages that only show
// them do not carry the schemas (docs/decisions/0011-the-chat-route-bundle-budget.md).
export { MODULE_KEYS, MODULES, type ModuleInfo } from './module-list';

export const ModuleKey = z.enum(MODULE_KEYS, {
  error: () => 'Module must be one of brand-hub, governance, talent-intelligence',
});
export type ModuleKey = z.infer<typeof ModuleKey>;
