import type { AnalystTool } from '../../tools/tool';
import { GOVERNANCE_TOOL_LIST } from './capability-list';

/** Every Governance tool, derived from the module's capability list. */
export const GOVERNANCE_TOOLS: AnalystTool[] = GOVERNANCE_TOOL_LIST;
