import type { Capability } from '../../capability';
import type { ToolCallRecord } from '../../tools/tool';
import { call } from './render';
import { attritionCapability } from './tools/attrition';
import { calibrationCapability } from './tools/calibration';
import { compaRatioCapability } from './tools/compa-ratio';
import { earlyTenureCapability } from './tools/early-tenure';
import { genderPayGapCapability } from './tools/gender-pay-gap';
import { headcountCapability } from './tools/headcount';
import { hiringFunnelCapability } from './tools/hiring-funnel';
import { payCapability } from './tools/pay';
import { planVsBudgetCapability } from './tools/plan-vs-budget';
import { promotionReadinessCapability } from './tools/promotion-readiness';
import { ratingBiasCapability } from './tools/rating-bias';
import { ratingCyclesCapability } from './tools/rating-cycles';
import { regrettedLeaversCapability } from './tools/regretted-leavers';
import { salaryBandsCapability } from './tools/salary-bands';
import { reskillingCapability, skillsGapCapability } from './tools/skills-gap';
import { spansCapability } from './tools/spans';
import { successionCapability } from './tools/succession';
import { tenureCapability } from './tools/tenure';

/**
 * Every Talent Intelligence capability (ADR 0084), in the order a request's words are tried:
 * the more specific task first ("regretted leavers" and "first-year attrition" are not the
 * general attrition question; a "gender pay gap" is not a pay overview). The tool list, the
 * instructions' tool names, the titles, needs, samples and the writer's dispatch derive from it.
 * Adding an analysis is one capability file and one entry here.
 */
export const TALENT_CAPABILITIES = [
  ratingCyclesCapability,
  regrettedLeaversCapability,
  earlyTenureCapability,
  reskillingCapability,
  promotionReadinessCapability,
  hiringFunnelCapability,
  planVsBudgetCapability,
  successionCapability,
  compaRatioCapability,
  salaryBandsCapability,
  genderPayGapCapability,
  ratingBiasCapability,
  calibrationCapability,
  spansCapability,
  attritionCapability,
  skillsGapCapability,
  tenureCapability,
  payCapability,
  headcountCapability,
] as const;

/** The list as capabilities of any result type: what the planner and the writer iterate. */
export const CAPABILITIES: readonly Capability[] = TALENT_CAPABILITIES;

/**
 * The general task when a request names none (or when its own analysis could not be given): a
 * workforce overview from the headcount, attrition, tenure and pay capabilities.
 */
export const OVERVIEW = {
  key: 'overview',
  title: 'Workforce analysis',
  heading: 'Workforce overview',
  needs: 'a workforce export from your HR system, one row per employee',
  sample: [
    'sample-workforce.csv',
    'Employee ID,Department,Location,Grade,Job Title,Hire Date,Exit Date,Exit Reason,Performance Rating,Base Salary,Bonus,Gender,Manager ID,Hire Source\nE0001,Engineering,London,G2,Engineer,2021-03-15,,,4,64000,3000,Female,E0002,Referral\n',
  ],
  plan: (): ToolCallRecord[] => [
    call('ti_headcount', { by: ['department', 'location', 'level'] }),
    call('ti_attrition', { by: ['department'] }),
    call('ti_tenure', { by: [] }),
    call('ti_pay', { by: ['level'] }),
  ],
} as const;

/** What a Talent Intelligence request asks for: a capability's task, or the overview. */
export type TalentTask = (typeof TALENT_CAPABILITIES)[number]['task']['key'] | 'overview';

/** The capability of a task (none for the overview). */
export const capabilityOfTask = (task: TalentTask): Capability | undefined =>
  CAPABILITIES.find((c) => c.task.key === task);

/** Titles, needs and samples of every task, the overview's included. */
export const taskInfo = (task: TalentTask) => {
  const cap = capabilityOfTask(task)?.task;
  return {
    title: cap?.title ?? OVERVIEW.title,
    heading: cap ? (cap.heading ?? cap.title) : OVERVIEW.heading,
    needs: cap?.needs ?? OVERVIEW.needs,
    sample: cap?.sample ?? OVERVIEW.sample,
  };
};
