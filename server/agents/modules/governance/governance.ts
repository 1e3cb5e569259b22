import type { AnalystTool } from '../../tools/tool';
import type { ModuleAgent } from '../module';
import { planGovernance } from './plan';
import { analyzeWithTools, localToolSet } from './run-plan';
import { aiGovernanceFramework } from './tools/ai-framework';
import { auditFindingsTracker } from './tools/audit-findings';
import { boardPackSummary } from './tools/board-pack-summary';
import { checklistCoverage } from './tools/checklist';
import { giftsRegisterReview } from './tools/gifts-register';
import { minutesFromNotes } from './tools/minutes';
import { projectRiskRegister } from './tools/project-risks';
import { regulatoryChangeImpact } from './tools/regulatory-change';
import { retentionReview } from './tools/retention';
import { riskRegisterReview } from './tools/risk-register-review';
import { supplierRiskReview } from './tools/supplier-review';
import { termsOfReferenceReview } from './tools/terms-of-reference';
import { writeGovernance } from './write';

const INSTRUCTIONS = `You are the Governance analyst of Atrium. You work on the policies, board papers, meeting notes,
terms of reference, regulations and registers (risk, supplier, audit findings, gifts) the user attaches. Use the tools:
checklist_coverage judges policy sections by their content against a checklist (policy, acceptable use, GDPR readiness,
anti-bribery, AI governance); board_pack_summary, minutes_from_notes, terms_of_reference_review, retention_review,
regulatory_change_impact, risk_register_review, supplier_risk_review, audit_findings_tracker, gifts_register_review and
project_risk_register each do what their name says. Answer the request in your first lines, then support it with the tools'
figures and quotes. Quote documents as evidence; never invent their content, an owner or a date.`;

/** Every Governance tool, as offered to any model. */
export const GOVERNANCE_TOOLS: AnalystTool[] = [
  checklistCoverage,
  boardPackSummary,
  minutesFromNotes,
  termsOfReferenceReview,
  retentionReview,
  regulatoryChangeImpact,
  aiGovernanceFramework,
  projectRiskRegister,
  riskRegisterReview,
  supplierRiskReview,
  auditFindingsTracker,
  giftsRegisterReview,
] as AnalystTool[];

export const governanceAgent: ModuleAgent = {
  key: 'governance',
  instructions: INSTRUCTIONS,
  analystTools: GOVERNANCE_TOOLS,
  plan: planGovernance,
  write: writeGovernance,
  tools: (attachments) => localToolSet(GOVERNANCE_TOOLS, attachments),
  analyze(ctx) {
    return analyzeWithTools(governanceAgent, ctx);
  },
};
