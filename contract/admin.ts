import { z } from 'zod';
import { CompanyDto, Email, Role, UserDto } from './accounts';
import { ModelString } from './models';
import { ModuleKey } from './modules';
import { StarterInput } from './starters';

// The admin console's API (/api/admin/*): roles, members, invitations, company settings,
// starters, companies, providers and the audit log. See docs/decisions/0020-roles-and-admin-api.md.

export { Role } from './accounts';

/** A bare domain such as example.com (the rule APPROVED_EMAIL_DOMAINS follows too). */
export const Domain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253, 'A domain is at most 253 characters')
  .regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'Domains must look like example.com');

export const DomainList = z
  .array(Domain)
  .max(50, 'At most 50 domains per company')
  .transform((list) => [...new Set(list)]);

export const CompanyName = z
  .string({ error: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(255, 'Name must be at most 255 characters');

/** `?company=<id>`: which company an operator means; a company admin may name only their own. */
export const CompanyQuery = z.object({
  company: z.coerce.number().int().positive('Company must be a company id').optional(),
});

const page = {
  page: z.coerce.number().int().min(1, 'Page starts at 1').max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200, 'At most 200 rows a page').default(50),
};

export const IdParam = z.object({ id: z.string().uuid('Not a member id') });
export const NumericIdParam = z.object({
  id: z.coerce.number().int().positive('Not an id').max(2_147_483_647, 'Not an id'),
});

export const CompanyRef = CompanyDto;
export type CompanyRef = z.infer<typeof CompanyRef>;

/** GET /api/admin/me */
export const AdminMe = z.object({ role: Role, company: CompanyRef.nullable() });
export type AdminMe = z.infer<typeof AdminMe>;

export const MemberDto = UserDto.omit({ phone: true }).extend({
  disabled: z.boolean(),
  emailVerified: z.boolean(),
  lastSignInAt: z.string().nullable(),
  createdAt: z.string(),
});
export type MemberDto = z.infer<typeof MemberDto>;

export const MembersQuery = CompanyQuery.extend({
  q: z.string().trim().max(255).optional(),
  ...page,
});
export type MembersQuery = z.infer<typeof MembersQuery>;

export const MembersPage = z.object({
  members: z.array(MemberDto),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type MembersPage = z.infer<typeof MembersPage>;

/** POST /api/admin/members/:id/role: operators make and remove company admins, as admins do. */
export const RoleBody = z.object({
  role: z.enum(['member', 'admin'], { error: () => 'Role must be member or admin' }),
});
export type RoleBody = z.infer<typeof RoleBody>;

/** POST /api/admin/invitations */
export const InvitationBody = z.object({ email: Email });
export type InvitationBody = z.infer<typeof InvitationBody>;

export const ModuleModels = z.object({
  'brand-hub': ModelString,
  governance: ModelString,
  'talent-intelligence': ModelString,
});
export type ModuleModels = z.infer<typeof ModuleModels>;

/** GET /api/admin/company: the company's settings. */
export const CompanySettings = z.object({
  id: z.number().int(),
  name: z.string(),
  domains: z.array(z.string()),
  models: ModuleModels,
  /** What an admin may choose for a module: builtin plus what the operator allows. */
  allowedModels: z.array(z.string()),
  retired: z.boolean(),
  members: z.number().int(),
});
export type CompanySettings = z.infer<typeof CompanySettings>;

/**
 * PATCH /api/admin/company: an admin changes models (from the allowed ones); an operator also
 * the name, the domains and the allowed models.
 */
export const CompanySettingsPatch = z
  .object({
    models: ModuleModels.partial().optional(),
    name: CompanyName.optional(),
    domains: DomainList.optional(),
    allowedModels: z.array(ModelString).max(50, 'At most 50 models').optional(),
  })
  .refine(
    (p) => Object.values(p).some((v) => v !== undefined),
    'Give at least one field to change',
  );
export type CompanySettingsPatch = z.input<typeof CompanySettingsPatch>;

/** POST /api/admin/models/test: one tiny request, as `models check` sends. */
export const ModelTestBody = z.object({ model: ModelString });
export const ModelTestAnswer = z.object({
  model: z.string(),
  ok: z.boolean(),
  detail: z.string(),
  ms: z.number(),
});
export type ModelTestAnswer = z.infer<typeof ModelTestAnswer>;

export const AdminStarterDto = z.object({
  id: z.number().int(),
  module: ModuleKey,
  taskType: z.string(),
  name: z.string(),
  description: z.string(),
  /** The owning company; null for the global library. */
  companyId: z.number().int().nullable(),
  retired: z.boolean(),
});
export type AdminStarterDto = z.infer<typeof AdminStarterDto>;

export const AdminStartersQuery = CompanyQuery.extend({
  module: ModuleKey.optional(),
  q: z.string().trim().max(255).optional(),
  /** Operators: `global` lists (and creates in) the global library. */
  scope: z.enum(['company', 'global']).optional(),
});

export const AdminStartersAnswer = z.object({
  /** The company's own starters (the global library for an operator's `scope=global`). */
  own: z.array(AdminStarterDto),
  /** The global library, read-only beside the company's own. */
  global: z.array(AdminStarterDto),
});
export type AdminStartersAnswer = z.infer<typeof AdminStartersAnswer>;

export const AdminStarterBody = StarterInput;
export const AdminStarterPatch = StarterInput.omit({ module: true })
  .partial()
  .refine(
    (p) => Object.values(p).some((v) => v !== undefined),
    'Give at least one field to change',
  );
export type AdminStarterPatch = z.infer<typeof AdminStarterPatch>;

/** A company in the operators' list: the same fields as its settings. */
export const CompanySummary = CompanySettings;
export type CompanySummary = z.infer<typeof CompanySummary>;

export const CompaniesQuery = z.object({ q: z.string().trim().max(255).optional(), ...page });
export const CompaniesPage = z.object({
  companies: z.array(CompanySummary),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type CompaniesPage = z.infer<typeof CompaniesPage>;

export const NewCompanyBody = z.object({
  name: CompanyName,
  domains: DomainList.default([]),
  allowedModels: z.array(ModelString).max(50).default([]),
});
export type NewCompanyBody = z.input<typeof NewCompanyBody>;

export const ProviderHealth = z.object({
  name: z.string(),
  /** The endpoint without credentials, or why there is none. */
  endpoint: z.string(),
  keySet: z.boolean().nullable(),
  /** Whether the models in use on it answered; null when no company uses it. */
  answers: z.boolean().nullable(),
  detail: z.string(),
});
export const ProvidersAnswer = z.array(ProviderHealth);
export type ProviderHealth = z.infer<typeof ProviderHealth>;

/** Every action the audit log records. */
export const AUDIT_ACTIONS = [
  'sign_in',
  'sign_in_failed',
  'code_sent',
  'code_failed',
  'lockout',
  'password_changed',
  'password_reset',
  'email_verified',
  'invitation_sent',
  'invitation_accepted',
  'member_disabled',
  'member_enabled',
  'role_changed',
  'model_changed',
  'domain_changed',
  'starter_created',
  'starter_edited',
  'starter_retired',
  'chat_exported',
  'chat_deleted',
  'chat_purged',
  'file_downloaded',
  'file_deleted',
  'settings_changed',
  'company_created',
  'company_retired',
  'sso_sign_in',
  'sso_sign_in_failed',
  'sso_logout',
  'sso_settings_changed',
  'scim_token_created',
  'scim_user_deprovisioned',
  'scim_token_revoked',
  'library_added',
  'library_replaced',
  'library_retired',
  'library_restored',
  'library_deleted',
  'retention_purged',
  'usage_person_viewed',
] as const;
export const AuditAction = z.enum(AUDIT_ACTIONS, {
  error: () => 'Not an audit action',
});
export type AuditAction = z.infer<typeof AuditAction>;

const when = z.iso.datetime({ offset: true, error: 'Use an ISO date and time' });

export const AuditQuery = CompanyQuery.extend({
  from: when.optional(),
  to: when.optional(),
  actor: z.string().trim().max(255).optional(),
  action: AuditAction.optional(),
  target: z.string().trim().max(255).optional(),
  ...page,
});
export type AuditQuery = z.infer<typeof AuditQuery>;

export const AuditEntryDto = z.object({
  id: z.number().int(),
  at: z.string(),
  companyId: z.number().int().nullable(),
  actorId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  target: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  detail: z.string().nullable(),
});
export type AuditEntryDto = z.infer<typeof AuditEntryDto>;

export const AuditPage = z.object({
  entries: z.array(AuditEntryDto),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AuditPage = z.infer<typeof AuditPage>;

/** GET /api/admin/audit/verify */
export const AuditVerifyAnswer = z.object({
  intact: z.boolean(),
  checked: z.number().int(),
  /** The first row whose hash does not match, when the chain is broken. */
  brokenAt: z.number().int().nullable().optional(),
});
export type AuditVerifyAnswer = z.infer<typeof AuditVerifyAnswer>;

// --- usage (docs/decisions/0039-usage-api-and-cost.md) ---

export const USAGE_GROUPS = ['day', 'module', 'model', 'starter'] as const;
export const UsageGroupBy = z.enum(USAGE_GROUPS, {
  error: `groupBy is one of ${USAGE_GROUPS.join(', ')}`,
});
export type UsageGroupBy = z.infer<typeof UsageGroupBy>;

const day = (name: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be a date such as 2026-11-01`)
    .refine(
      (v) =>
        !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) &&
        new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
      `${name} is not a real date`,
    );

/** Days a usage query may span: a year and a bit (the page shows months). */
export const USAGE_MAX_DAYS = 400;

/** GET /api/admin/usage and usage.csv: days (UTC) from and to, both included. */
export const UsageQuery = CompanyQuery.extend({
  from: day('from'),
  to: day('to'),
  groupBy: UsageGroupBy.default('day'),
})
  .refine((q) => q.from <= q.to, { message: 'from must not be after to', path: ['from'] })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < USAGE_MAX_DAYS, {
    message: `A usage query spans at most ${USAGE_MAX_DAYS} days`,
    path: ['to'],
  });
export type UsageQuery = z.infer<typeof UsageQuery>;

export const UsageFigures = z.object({
  turns: z.number().int(),
  /** Distinct people with a turn in the group. */
  activeUsers: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  /** US dollars at the operator's prices; a model without a price (the builtin) adds nothing. */
  cost: z.number(),
  /** Turns that failed (not complete, not stopped by the user). */
  errors: z.number().int(),
});
export type UsageFigures = z.infer<typeof UsageFigures>;

export const UsageRow = UsageFigures.extend({
  /** The group: a day (YYYY-MM-DD), a module key, a model string, or a starter id ('' none). */
  key: z.string(),
  /** What a person reads for the key: a module's or starter's name, or the key itself. */
  label: z.string(),
});
export type UsageRow = z.infer<typeof UsageRow>;

export const UsageAnswer = z.object({
  from: z.string(),
  to: z.string(),
  groupBy: UsageGroupBy,
  /** The company, or null for an operator's view of every company. */
  company: CompanyRef.nullable(),
  totals: UsageFigures,
  rows: z.array(UsageRow),
  /** Models used in the range that have no price (the builtin never has one): cost leaves them out. */
  unpricedModels: z.array(z.string()),
});
export type UsageAnswer = z.infer<typeof UsageAnswer>;

/** A model's price, set by an operator (PUT /api/admin/usage/prices). */
export const ModelPrice = z.object({
  model: ModelString,
  inputPerMillion: z.number().min(0, 'A price is 0 or more').max(1_000_000),
  outputPerMillion: z.number().min(0, 'A price is 0 or more').max(1_000_000),
});
export type ModelPrice = z.infer<typeof ModelPrice>;
export const ModelPrices = z
  .array(ModelPrice)
  .max(500, 'At most 500 priced models')
  .refine((list) => new Set(list.map((p) => p.model)).size === list.length, {
    message: 'Each model has one price',
  });

// --- budgets (docs/decisions/0070-budgets.md) ---

export const BUDGET_UNITS = ['tokens', 'turns'] as const;
export const BudgetUnit = z.enum(BUDGET_UNITS, { error: () => 'A limit is in tokens or turns' });
export type BudgetUnit = z.infer<typeof BudgetUnit>;

/** Warnings go to the company's admins when a company or module budget reaches these percents. */
export const BUDGET_WARNING_PERCENTS = [75, 90] as const;

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "1 December": the first day of the month after `now` (UTC), when every budget starts again. */
export function budgetResetDay(now: Date): string {
  return `1 ${MONTH_NAMES[(now.getUTCMonth() + 1) % 12]}`;
}

/** The refusal of a send over a budget (429): the company's (or module's) or the person's own. */
export function budgetUsedUpMessage(
  scope: 'company' | 'person',
  moduleName: string,
  now: Date,
): string {
  const whose = scope === 'company' ? "Your company's" : 'Your';
  return `${whose} monthly ${moduleName} budget is used up. It resets on ${budgetResetDay(now)}.`;
}

export const BudgetDto = z.object({
  id: z.number().int(),
  /** null: every module. */
  module: ModuleKey.nullable(),
  /** null: the company (or the module) as a whole. */
  userEmail: z.string().nullable(),
  unit: BudgetUnit,
  limit: z.number().int(),
  /** Used this month (tokens in and out, or turns), in the budget's scope. */
  used: z.number().int(),
});
export type BudgetDto = z.infer<typeof BudgetDto>;

/** GET /api/admin/budgets */
export const BudgetsAnswer = z.object({
  company: CompanyRef,
  /** "1 December": when every budget starts again. */
  resetsOn: z.string(),
  budgets: z.array(BudgetDto),
});
export type BudgetsAnswer = z.infer<typeof BudgetsAnswer>;

/** PUT /api/admin/budgets: sets (or replaces) the limit of one scope. */
export const BudgetBody = z.object({
  module: ModuleKey.nullable().default(null),
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(255)
    .nullable()
    .default(null)
    .transform((v) => v || null),
  unit: BudgetUnit,
  limit: z
    .number({ error: 'The limit is a whole number' })
    .int('The limit is a whole number')
    .min(1, 'The limit is at least 1')
    .max(1_000_000_000_000, 'The limit is at most 1,000,000,000,000'),
});
export type BudgetBody = z.infer<typeof BudgetBody>;
