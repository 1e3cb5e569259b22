import { MegaphoneIcon, ShieldCheckIcon, UsersRoundIcon, type LucideIcon } from 'lucide-react';
import type { ModuleKey } from '@contract/modules';

/** One icon per module, shared by the landing page, dashboard and the signed-in sidebar. */
export const MODULE_ICONS: Record<ModuleKey, LucideIcon> = {
  'brand-hub': MegaphoneIcon,
  governance: ShieldCheckIcon,
  'talent-intelligence': UsersRoundIcon,
};
