import type { AnalystTool } from '../../tools/tool';
import { BRAND_CAPABILITIES } from './capability-list';

/**
 * Every Brand Hub tool, as offered to any model and registered with the analysis worker: each
 * capability's tool, once (a tone audit is a copy review).
 */
export const BRAND_HUB_TOOLS: AnalystTool[] = BRAND_CAPABILITIES.map(
  (c) => c.tool as AnalystTool,
).filter((t, i, all) => all.findIndex((o) => o.name === t.name) === i);
