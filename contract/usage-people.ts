import { z } from 'zod';
import { CompanyRef } from './admin';

// Per-person usage under the works-council rule (docs/decisions/0016-audit-volume-and-per-person-usage.md):
// the spread over people is shown only for groups of at least PEOPLE_MIN_GROUP, without names;
// one named person's usage only after an admin chooses to see it, with a reason, and that view is
// written to the audit log.

export const PEOPLE_MIN_GROUP = 5;

/** GET /api/admin/usage/people?company&from&to: how use spreads over the people, unnamed. */
export const UsagePeopleAnswer = z.object({
  company: CompanyRef.nullable(),
  from: z.string(),
  to: z.string(),
  /** People with at least one turn in the range. */
  groupSize: z.number().int(),
  minGroupSize: z.number().int(),
  /** False below minGroupSize: `people` is then empty. */
  shown: z.boolean(),
  /** One row per person, most turns first, with no name, address or id. */
  people: z.array(
    z.object({ rank: z.number().int(), turns: z.number().int(), activeDays: z.number().int() }),
  ),
});
export type UsagePeopleAnswer = z.infer<typeof UsagePeopleAnswer>;

export const PERSON_REASON_MIN = 10;

/** POST /api/admin/usage/person?company: one named person's usage, audited. */
export const PersonUsageBody = z.object({
  email: z.string().trim().toLowerCase().email('Enter the e-mail address of a member').max(255),
  reason: z
    .string()
    .trim()
    .min(PERSON_REASON_MIN, `Give a reason of at least ${PERSON_REASON_MIN} characters`)
    .max(500, 'At most 500 characters'),
  from: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'from must be a date such as 2026-11-01'),
  to: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'to must be a date such as 2026-11-01'),
});
export type PersonUsageBody = z.infer<typeof PersonUsageBody>;

const PersonFigures = z.object({
  turns: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  errors: z.number().int(),
});

export const PersonUsageAnswer = z.object({
  person: z.object({ email: z.string(), name: z.string() }),
  from: z.string(),
  to: z.string(),
  totals: PersonFigures,
  /** By module, most turns first. */
  modules: z.array(PersonFigures.extend({ key: z.string(), label: z.string() })),
});
export type PersonUsageAnswer = z.infer<typeof PersonUsageAnswer>;
