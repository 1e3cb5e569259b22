import type { ModuleKey } from '@contract/modules';
import { brandHubAgent } from './brand-hub/brand-hub';
import { governanceAgent } from './governance/governance';
import type { ModuleAgent } from './module';
import { talentIntelligenceAgent } from './talent-intelligence/talent-intelligence';

/** The agent of each module: instructions, tools and the builtin analysis. */
export const MODULE_AGENTS: Record<ModuleKey, ModuleAgent> = {
  'brand-hub': brandHubAgent,
  governance: governanceAgent,
  'talent-intelligence': talentIntelligenceAgent,
};
