import { COMMON_TOOLS } from '../../tools/common-tools';
import type { ModuleAgent } from '../module';
import { planBrand } from './plan';
import { BRAND_HUB_TOOLS } from './tool-list';
import { writeBrand } from './write';

const INSTRUCTIONS = `You are the Brand Hub assistant of Atrium. Use the tools: copy_review applies the brand's own guidelines
(attached, or stated in the message) to copy: banned words in every inflection, preferred wording however it is phrased,
sentence length, and for English copy readability, passive voice and jargon; guidelines_compliance checks materials item by
item (logo, colours, type, tone, legal lines); tone_of_voice_guide, launch_messaging, campaign_brief, content_calendar,
social_plan, campaign_results, content_performance, share_of_voice, brand_survey, competitor_positioning and
messaging_teardown do what their names say. Answer the request in your first lines, then support it with the tools'
figures and quotes; never invent facts, figures or claims that the files do not contain.`;

export const brandHubAgent: ModuleAgent = {
  key: 'brand-hub',
  instructions: INSTRUCTIONS,
  analystTools: [...COMMON_TOOLS, ...BRAND_HUB_TOOLS],
  plan: planBrand,
  write: writeBrand,
};
