import { BRAND_HUB_TOOLS } from '../modules/brand-hub/tool-list';
import { GOVERNANCE_TOOLS } from '../modules/governance/tool-list';
import { TALENT_TOOLS } from '../modules/talent-intelligence/tool-list';
import { COMMON_TOOLS } from './common-tools';
import { libraryPassagesTool } from './library-passages';
import type { AnalystTool } from './tool';

/**
 * Every analyst tool by name: the analysis worker runs tools from this list only. Modules add
 * their tools here, one import and one spread per module (names are unique across modules).
 */
export const ALL_TOOLS: AnalystTool[] = [
  ...COMMON_TOOLS,
  ...GOVERNANCE_TOOLS,
  ...BRAND_HUB_TOOLS,
  ...TALENT_TOOLS,
  // Internal: the library's reading of an uploaded document, in no module's list.
  libraryPassagesTool,
];

const byName = new Map<string, AnalystTool>();
for (const t of ALL_TOOLS) {
  if (byName.has(t.name)) throw new Error(`Two analyst tools are named ${t.name}.`);
  byName.set(t.name, t);
}

export function toolNamed(name: string): AnalystTool | undefined {
  return byName.get(name);
}
