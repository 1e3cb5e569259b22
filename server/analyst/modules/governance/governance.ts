import { COMMON_TOOLS } from '../../tools/common-tools';
import { withLibraryAnswer } from '../library-answer';
import type { ModuleAgent } from '../module';
import { list } from '../report-parts';
import { planGovernance } from './plan';
import { GOVERNANCE_TOOLS } from './tool-list';
import { checklistCoverage } from './tools/checklist';
import { REGISTERS } from './tools/registers';
import { writeGovernance } from './write';

/** The tools besides the checklist, as the instructions name them: from the capability list. */
const OTHER_TOOLS = list(
  GOVERNANCE_TOOLS.filter((t) => t.name !== checklistCoverage.name).map((t) => t.name),
);

/** The registers the tools read, as the instructions name them: from the readers' list. */
const REGISTER_KINDS = Object.values(REGISTERS)
  .map((r) => r.kind)
  .join(', ');

const INSTRUCTIONS = `You are the Governance analyst of Atrium. You work on the policies, board papers, meeting notes,
terms of reference, regulations and registers (${REGISTER_KINDS}) the user attaches. Use the tools:
${checklistCoverage.name} judges policy sections by their content against a checklist (policy, acceptable use, GDPR readiness,
anti-bribery, AI governance); ${OTHER_TOOLS} each do what their name says. Answer the request in your first lines, then
support it with the tools' figures and quotes. Quote documents as evidence; never invent their content, an owner or a date.`;

// A question with nothing to call for answers from the company library (ADR 0096).
export const governanceAgent: ModuleAgent = withLibraryAnswer({
  key: 'governance',
  instructions: INSTRUCTIONS,
  analystTools: [...COMMON_TOOLS, ...GOVERNANCE_TOOLS],
  plan: planGovernance,
  write: writeGovernance,
});
