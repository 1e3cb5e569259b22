import type { AnalystTool } from '../../tools/tool';
import { brandSurvey } from './tools/brand-survey';
import { campaignResults } from './tools/campaign-results';
import { competitorPositioning, messagingTeardown } from './tools/competitors';
import { contentPerformance } from './tools/content-performance';
import { copyReview } from './tools/copy-review';
import { copyDrafts } from './tools/drafts';
import { campaignBriefTool, contentCalendarTool } from './tools/generators';
import { guidelinesCompliance } from './tools/guidelines-check';
import { launchMessaging } from './tools/launch-messaging';
import { shareOfVoice } from './tools/share-of-voice';
import { socialPlan } from './tools/social-plan';
import { toneOfVoiceGuide } from './tools/tone-guide';

/** Every Brand Hub tool, as offered to any model and registered with the analysis worker. */
export const BRAND_HUB_TOOLS: AnalystTool[] = [
  copyReview,
  copyDrafts,
  guidelinesCompliance,
  toneOfVoiceGuide,
  launchMessaging,
  campaignBriefTool,
  contentCalendarTool,
  socialPlan,
  campaignResults,
  contentPerformance,
  shareOfVoice,
  brandSurvey,
  competitorPositioning,
  messagingTeardown,
] as AnalystTool[];
