import type { AnalystTool } from '../../tools/tool';
import { aiGovernanceFramework } from './tools/ai-framework';
import { auditFindingsTracker } from './tools/audit-findings';
import { boardPackSummary } from './tools/board-pack-summary';
import { checklistCoverage } from './tools/checklist';
import { documentAnswer } from './tools/document-answer';
import { giftsRegisterReview } from './tools/gifts-register';
import { minutesFromNotes } from './tools/minutes';
import { projectRiskRegister } from './tools/project-risks';
import { regulationCheck } from './tools/regulation-check';
import { regulatoryChangeImpact } from './tools/regulatory-change';
import { retentionReview } from './tools/retention';
import { riskRegisterReview } from './tools/risk-register-review';
import { supplierRiskReview } from './tools/supplier-review';
import { termsOfReferenceReview } from './tools/terms-of-reference';

/** Every Governance tool, as offered to any model and registered with the analysis worker. */
export const GOVERNANCE_TOOLS: AnalystTool[] = [
  checklistCoverage,
  boardPackSummary,
  minutesFromNotes,
  termsOfReferenceReview,
  retentionReview,
  regulatoryChangeImpact,
  regulationCheck,
  documentAnswer,
  aiGovernanceFramework,
  projectRiskRegister,
  riskRegisterReview,
  supplierRiskReview,
  auditFindingsTracker,
  giftsRegisterReview,
] as AnalystTool[];
