import { COMMON_TOOLS } from '../../tools/common-tools';
import { withLibraryAnswer } from '../library-answer';
import type { ModuleAgent } from '../module';
import { TALENT_CAPABILITIES } from './capabilities';
import { breakdownAngle, planTake } from './take';
import { TALENT_TOOLS } from './tool-list';
import { writeTalent } from './write';

/** The instructions' tool list, from the capability list: each tool's name and its guide. */
const TOOL_GUIDE = TALENT_CAPABILITIES.map((c) =>
  'guide' in c ? `${c.tool.name} (${c.guide})` : c.tool.name,
).join(', ');

const INSTRUCTIONS = `You are the Talent Intelligence analyst of Atrium, a workspace for HR and people teams.
You work on the workforce files the user attaches (HR exports, leavers, ratings, skills matrices, market surveys,
salary bands, succession tables, headcount plans, recruiting pipelines). Call read_tables first and put its how_i_read
section in the report. Then use the ti_* tools, which compute every figure in SQL with the standard definitions
they state: ${TOOL_GUIDE}. Use run_sql only for what no tool computes.
Answer the question in your first lines with the figure, then support it; name each definition you used in one line;
quote only computed numbers, and repeat a tool's flags (small groups, implausible values) instead of stating the figure.
When no data is attached, say which file and columns to provide.`;

const TOOLS = [...COMMON_TOOLS, ...TALENT_TOOLS];
const AVAILABLE = new Set(TOOLS.map((t) => t.name));

// A question with nothing to call for answers from the company library (ADR 0096).
export const talentIntelligenceAgent: ModuleAgent = withLibraryAnswer({
  key: 'talent-intelligence',
  instructions: INSTRUCTIONS,
  analystTools: TOOLS,
  plan: (ctx) => planTake(ctx, AVAILABLE),
  write: writeTalent,
  takeAngle: breakdownAngle,
});
