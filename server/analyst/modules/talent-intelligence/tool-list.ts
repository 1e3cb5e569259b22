import { toolsOf } from '../../capability';
import type { AnalystTool } from '../../tools/tool';
import { TALENT_CAPABILITIES } from './capabilities';

/** Every Talent Intelligence tool, as offered to any model and registered with the analysis worker. */
export const TALENT_TOOLS: AnalystTool[] = toolsOf(TALENT_CAPABILITIES);
