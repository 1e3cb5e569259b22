import { COMMON_TOOLS } from '../../tools/common-tools';
import { withLibraryAnswer } from '../library-answer';
import type { ModuleAgent } from '../module';
import { list } from '../report-parts';
import { copyReview } from './capabilities/copy-review';
import { guidelinesCompliance } from './capabilities/guidelines-check';
import { planBrand } from './plan';
import { BRAND_HUB_TOOLS } from './tool-list';
import { writeBrand } from './write';

/** The tools said in the persona; every other tool of the list does what its name says. */
const described = [copyReview.tool.name, guidelinesCompliance.tool.name];
const others = BRAND_HUB_TOOLS.map((t) => t.name).filter((n) => !described.includes(n));

const INSTRUCTIONS = `You are the Brand Hub assistant of Atrium. Use the tools: ${copyReview.tool.name} applies the brand's own guidelines
(attached, or stated in the message) to copy: banned words in every inflection, preferred wording however it is phrased,
sentence length, and for English copy readability, passive voice and jargon; ${guidelinesCompliance.tool.name} checks materials item by
item (logo, colours, type, tone, legal lines); ${list(others)} do what their names say. Answer the request in your first lines, then support it with the tools'
figures and quotes; never invent facts, figures or claims that the files do not contain.`;

/**
 * The Brand Hub: its persona plus its capabilities (capability-list.ts); a question with nothing
 * to call for answers from the company library (ADR 0096).
 */
export const brandHubAgent: ModuleAgent = withLibraryAnswer({
  key: 'brand-hub',
  instructions: INSTRUCTIONS,
  analystTools: [...COMMON_TOOLS, ...BRAND_HUB_TOOLS],
  plan: planBrand,
  write: writeBrand,
});
