import type { z } from 'zod';
import type { Capability } from '../../capability';
import { brandSurvey } from './capabilities/brand-survey';
import { campaignBrief } from './capabilities/campaign-brief';
import { campaignResults } from './capabilities/campaign-results';
import { competitorPositioning } from './capabilities/competitor-positioning';
import { contentCalendar } from './capabilities/content-calendar';
import { contentPerformance } from './capabilities/content-performance';
import { copyDrafts } from './capabilities/copy-drafts';
import { copyReview } from './capabilities/copy-review';
import { guidelinesCompliance } from './capabilities/guidelines-check';
import { launchMessaging } from './capabilities/launch-messaging';
import { messagingTeardown } from './capabilities/messaging-teardown';
import { shareOfVoice } from './capabilities/share-of-voice';
import { socialPlan } from './capabilities/social-plan';
import { toneOfVoiceGuide } from './capabilities/tone-guide';
import { toneAudit } from './capabilities/tone-audit';

/**
 * Brand Hub's capabilities, in the order the planner tries their request words: the more
 * specific first ("competitor messaging teardown" is a teardown, not positioning). The copy
 * review comes last: it is what a request naming nothing else asks for. Adding an analysis is
 * one file in capabilities/ and one entry here (ADR 0087).
 */
const LIST = [
  copyDrafts,
  guidelinesCompliance,
  toneOfVoiceGuide,
  toneAudit,
  launchMessaging,
  messagingTeardown,
  shareOfVoice,
  brandSurvey,
  contentPerformance,
  campaignResults,
  socialPlan,
  contentCalendar,
  competitorPositioning,
  campaignBrief,
  copyReview,
] as const;

/** What a Brand Hub request (or a part of it) asks for. */
export type BrandTask = (typeof LIST)[number]['task']['key'];

/**
 * A Brand Hub capability, and the other tools whose results its section shows itself (a content
 * calendar ends with last quarter's ranking): those are then no section of their own.
 */
export type BrandCapability = Capability<BrandTask, z.ZodType, z.ZodType> & {
  includes?: readonly string[];
};

export const BRAND_CAPABILITIES: readonly BrandCapability[] = LIST;

/** The capability of a task. */
export const capabilityOf = (task: BrandTask): BrandCapability =>
  BRAND_CAPABILITIES.find((c) => c.task.key === task)!;

/** What a request naming no task asks for, and what to ask for when a task has no needs of its own. */
export const DEFAULT_CAPABILITY = BRAND_CAPABILITIES.at(-1)!;
