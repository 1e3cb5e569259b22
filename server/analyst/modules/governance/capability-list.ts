import type { AnalystTool } from '../../tools/tool';
import { acceptableUse } from './capabilities/acceptable-use';
import { aiFramework } from './capabilities/ai-framework';
import { antiBribery } from './capabilities/anti-bribery';
import { auditFindings } from './capabilities/audit-findings';
import { boardSummary } from './capabilities/board-summary';
import { chase } from './capabilities/chase';
import { hasTool, type GovernanceEntry } from './capabilities/define';
import { draftSections } from './capabilities/draft-sections';
import { gdpr } from './capabilities/gdpr';
import { giftsRegister } from './capabilities/gifts-register';
import { interestsRegister } from './capabilities/interests-register';
import { minutes } from './capabilities/minutes';
import { policy } from './capabilities/policy';
import { projectRisks } from './capabilities/project-risks';
import { question } from './capabilities/question';
import { regulationCheckCapability } from './capabilities/regulation-check';
import { regulatoryChange } from './capabilities/regulatory-change';
import { retention } from './capabilities/retention';
import { riskReview } from './capabilities/risk-review';
import { supplierReview } from './capabilities/supplier-review';
import { termsOfReference } from './capabilities/terms-of-reference';

/**
 * The Governance module's analyses, one file each (docs/decisions/0086-governance-capabilities.md).
 * The first is the default (a document with no recognisable request is a policy review). A
 * request's words are tried in list order, so the more specific analysis comes first ("Board
 * minutes" is minutes, not a board pack; "third-party due diligence" in an anti-bribery check is
 * not a supplier review). The tools, the planner's task table and the writer's dispatch all
 * derive from this list.
 */
export const GOVERNANCE_CAPABILITIES = [
  policy,
  chase,
  draftSections,
  projectRisks,
  minutes,
  boardSummary,
  termsOfReference,
  auditFindings,
  antiBribery,
  supplierReview,
  retention,
  regulatoryChange,
  acceptableUse,
  aiFramework,
  gdpr,
  riskReview,
  regulationCheckCapability,
  question,
  giftsRegister,
  interestsRegister,
] as const satisfies readonly GovernanceEntry[];

/** What a Governance request asks for: one of the capabilities' tasks. */
export type GovernanceTask = (typeof GOVERNANCE_CAPABILITIES)[number]['task']['key'];

export const ENTRIES: readonly GovernanceEntry[] = GOVERNANCE_CAPABILITIES;

/** The module's default analysis: the first of the list. */
export const DEFAULT_ENTRY: GovernanceEntry = GOVERNANCE_CAPABILITIES[0];
export const DEFAULT_TASK: GovernanceTask = GOVERNANCE_CAPABILITIES[0].task.key;

export const entryOf = (task: GovernanceTask): GovernanceEntry =>
  ENTRIES.find((e) => e.task.key === task) ?? DEFAULT_ENTRY;

/** The capabilities with a tool, each tool once (several checklists share checklist_coverage). */
export const TOOL_CAPABILITIES = ENTRIES.filter(hasTool).filter(
  (c, i, all) => all.findIndex((o) => o.tool.name === c.tool.name) === i,
);

/** Every Governance tool, as offered to any model and registered with the analysis worker. */
export const GOVERNANCE_TOOL_LIST: AnalystTool[] = TOOL_CAPABILITIES.map((c) => c.tool);
