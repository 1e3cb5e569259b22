import type { AnalystTool } from '../../tools/tool';
import { attritionTool } from './tools/attrition';
import { calibrationTool } from './tools/calibration';
import { compaRatioTool } from './tools/compa-ratio';
import { earlyTenureTool } from './tools/early-tenure';
import { genderPayGapTool } from './tools/gender-pay-gap';
import { headcountTool } from './tools/headcount';
import { hiringFunnelTool } from './tools/hiring-funnel';
import { payTool } from './tools/pay';
import { planVsBudgetTool } from './tools/plan-vs-budget';
import { promotionReadinessTool } from './tools/promotion-readiness';
import { ratingBiasTool } from './tools/rating-bias';
import { ratingCyclesTool } from './tools/rating-cycles';
import { regrettedLeaversTool } from './tools/regretted-leavers';
import { salaryBandsTool } from './tools/salary-bands';
import { reskillingTool, skillsGapTool } from './tools/skills-gap';
import { spansTool } from './tools/spans';
import { successionTool } from './tools/succession';
import { tenureTool } from './tools/tenure';

/** Every Talent Intelligence tool, as offered to any model and registered with the analysis worker. */
export const TALENT_TOOLS: AnalystTool[] = [
  headcountTool,
  attritionTool,
  tenureTool,
  payTool,
  genderPayGapTool,
  spansTool,
  regrettedLeaversTool,
  earlyTenureTool,
  calibrationTool,
  ratingBiasTool,
  ratingCyclesTool,
  promotionReadinessTool,
  compaRatioTool,
  salaryBandsTool,
  successionTool,
  planVsBudgetTool,
  hiringFunnelTool,
  skillsGapTool,
  reskillingTool,
] as AnalystTool[];
