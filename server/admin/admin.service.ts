import { and, asc, count, eq, ilike, inArray, isNull, or } from 'drizzle-orm';
import type {
  ModelPrice,
  AdminMe,
  BudgetBody,
  BudgetsAnswer,
  AdminStarterDto,
  AdminStarterPatch,
  CompanySettings,
  CompanySettingsPatch,
  CompanySummary,
  ModuleModels,
  NewCompanyBody,
  Role,
} from '@contract/admin';
import { MODULE_KEYS, type ModuleKey } from '@contract/modules';
import type { StarterInput } from '@contract/starters';
import { destroyUserSessions, announceSessionsEnded } from '../accounts/sessions';
import { validateModelString } from '../analyst/registry';
import { recordAudit, type AuditEvent, type AuditOrigin } from '../audit/audit';
import type { Config } from '../config';
import type { Database } from '../db/connect';
import type { Clock } from '../lib/clock';
import type { Mailer } from '../mail/mailer';
import type { Bus } from '../realtime/bus';
import { companies, invitations, starters, users, type User } from '../db/schema';
import { containsPattern } from '../lib/like';
import {
  ConflictError,
  ForbiddenError,
  MailFailedError,
  NotFoundError,
  UnauthorizedError,
  ValidationError,
} from '../lib/errors';
import type { InvitationsPage } from '@contract/invitations';
import { invitationMail } from '../mail/templates';
import { newLinkToken } from '../accounts/tokens';
import { listInvitations } from '../accounts/invitations';
import {
  findCompany,
  listCompanies,
  setCompanyRetired,
  updateCompany,
  addCompany,
  type CompanyWithDomains,
} from './companies';
import { companyOwnsAddress, toMemberDto } from './members';
import { assertStarterNameFree, inStarterScope } from './starters';
import { setModelPrices } from './usage';
import { personUsage } from './usage-people';
import type { PersonUsageAnswer, PersonUsageBody } from '@contract/usage-people';
import { budgetScopeLabel, listBudgets, removeBudget, setBudget } from './budgets';

// The rules of the admin console (docs/decisions/0020-roles-and-admin-api.md): who may do what to
// which company. A member gets 403 for everything; a company admin gets 404 for anything of
// another company (never a hint that it exists); an operator reaches every company.

/** The signed-in caller of an admin route, with the role the database gives them now. */
export interface Admin {
  user: User;
  role: Exclude<Role, 'member'>;
  origin: AuditOrigin;
}

const MODEL_FIELD: Record<
  ModuleKey,
  'brandHubModel' | 'governanceModel' | 'talentIntelligenceModel'
> = {
  'brand-hub': 'brandHubModel',
  governance: 'governanceModel',
  'talent-intelligence': 'talentIntelligenceModel',
};

export const ADMIN_MESSAGES = {
  membersOnly: 'Only company admins and operators can use the admin console',
  operatorsOnly: 'Only an operator can do this',
  nameCompany: 'Name the company: ?company=<id>',
  notAllowedModel: (m: string) =>
    `${m} is not one of the models allowed for this company; ask an operator to allow it`,
  noSuchPerson: 'No member of this company has that address',
  inviteDomain: (domains: string[]) =>
    domains.length
      ? `Invitations go to addresses on the company's domains: ${domains.join(', ')}`
      : 'The company owns no e-mail domain yet: an operator adds one first',
  alreadyMember: 'That address already has an account',
  notSelf: 'You cannot disable your own account',
  operatorRole: "An operator's role is changed with the admin command",
};

export class AdminService {
  constructor(
    private readonly deps: {
      config: Config;
      database: Database;
      bus: Bus;
      mailer: Mailer;
      clock: Clock;
    },
  ) {}

  private get db() {
    return this.deps.database.db;
  }

  private audit(admin: Admin, event: Omit<AuditEvent, 'actorId' | 'actorEmail'>) {
    return recordAudit(this.db, this.deps.clock, {
      ...admin.origin,
      actorId: admin.user.id,
      actorEmail: admin.user.email,
      ...event,
    });
  }

  /** The caller as an admin, or 401 (signed out or disabled) / 403 (a member). */
  async admin(userId: string, origin: AuditOrigin): Promise<Admin> {
    const [user] = await this.db.select().from(users).where(eq(users.id, userId));
    if (!user || user.disabledAt) throw new UnauthorizedError();
    if (user.role === 'operator') return { user, role: 'operator', origin };
    if (user.role === 'admin' && user.companyId !== null) return { user, role: 'admin', origin };
    throw new ForbiddenError(ADMIN_MESSAGES.membersOnly);
  }

  requireOperator(admin: Admin): void {
    if (admin.role !== 'operator') throw new ForbiddenError(ADMIN_MESSAGES.operatorsOnly);
  }

  /**
   * The company a request is about: an admin's own (naming another one is a 404), or the one an
   * operator names (?company=), defaulting to their own.
   */
  async companyOf(admin: Admin, requested: number | undefined): Promise<CompanyWithDomains> {
    if (admin.role === 'admin') {
      if (requested !== undefined && requested !== admin.user.companyId) throw new NotFoundError();
      return findCompany(this.db, String(admin.user.companyId));
    }
    const id = requested ?? admin.user.companyId;
    if (id === null || id === undefined) throw new ValidationError(ADMIN_MESSAGES.nameCompany);
    try {
      return await findCompany(this.db, String(id));
    } catch {
      throw new NotFoundError('Company not found');
    }
  }

  /** For the audit log and usage: an operator without ?company= reads every company's. */
  async auditScope(admin: Admin, requested: number | undefined): Promise<number | undefined> {
    if (admin.role === 'operator' && requested === undefined) return undefined;
    return (await this.companyOf(admin, requested)).id;
  }

  /** Replaces the prices per model (operators only), in the deployment's audit chain. */
  async setPrices(admin: Admin, prices: ModelPrice[]): Promise<void> {
    this.requireOperator(admin);
    await setModelPrices(this.db, prices, this.deps.clock.now());
    await this.audit(admin, {
      action: 'settings_changed',
      companyId: null,
      target: 'model prices',
      detail:
        prices
          .map((p) => `${p.model}: ${p.inputPerMillion} in, ${p.outputPerMillion} out`)
          .join('; ')
          .slice(0, 1000) || 'no prices',
    });
  }

  /** A company's budgets with what each has used this month. */
  async budgets(admin: Admin, companyId: number | undefined): Promise<BudgetsAnswer> {
    const company = await this.companyOf(admin, companyId);
    const list = await listBudgets(this.db, company.id, this.deps.clock.now());
    return { company: { id: company.id, name: company.name }, ...list };
  }

  /** Sets one limit of the company, in its audit log. */
  async setBudget(
    admin: Admin,
    companyId: number | undefined,
    body: BudgetBody,
  ): Promise<BudgetsAnswer> {
    const company = await this.companyOf(admin, companyId);
    await setBudget(this.db, company.id, body, this.deps.clock.now());
    await this.audit(admin, {
      action: 'settings_changed',
      companyId: company.id,
      target: `budget: ${budgetScopeLabel({ module: body.module, email: body.email })}`,
      detail: `${body.limit} ${body.unit} a month`,
    });
    return this.budgets(admin, company.id);
  }

  async removeBudget(
    admin: Admin,
    companyId: number | undefined,
    id: number,
  ): Promise<BudgetsAnswer> {
    const company = await this.companyOf(admin, companyId);
    const module = await removeBudget(this.db, company.id, id);
    await this.audit(admin, {
      action: 'settings_changed',
      companyId: company.id,
      target: `budget ${id}: ${budgetScopeLabel({ module: module ?? null, email: null })}`,
      detail: 'removed',
    });
    return this.budgets(admin, company.id);
  }

  /** A company's id and name (the caller's access already checked). */
  async companyRef(id: number): Promise<{ id: number; name: string } | null> {
    const [row] = await this.db
      .select({ id: companies.id, name: companies.name })
      .from(companies)
      .where(eq(companies.id, id));
    return row ?? null;
  }

  async me(admin: Admin): Promise<AdminMe> {
    const company =
      admin.user.companyId === null
        ? null
        : ((
            await this.db
              .select({ id: companies.id, name: companies.name })
              .from(companies)
              .where(eq(companies.id, admin.user.companyId))
          )[0] ?? null);
    return { role: admin.role, company };
  }

  /** A member the caller may manage: of the admin's company (else 404); anyone for an operator. */
  private async memberOf(admin: Admin, id: string): Promise<User> {
    const [user] = await this.db.select().from(users).where(eq(users.id, id));
    if (!user) throw new NotFoundError('Member not found');
    if (admin.role === 'admin' && user.companyId !== admin.user.companyId)
      throw new NotFoundError('Member not found');
    return user;
  }

  /** Disables a member and ends every session and socket of theirs at once; or enables them. */
  async setDisabled(admin: Admin, id: string, disabled: boolean) {
    const member = await this.memberOf(admin, id);
    if (member.id === admin.user.id) throw new ValidationError(ADMIN_MESSAGES.notSelf);
    if (member.role === 'operator' && admin.role !== 'operator')
      throw new NotFoundError('Member not found');
    const now = this.deps.clock.now();
    const { updated, sids } = await this.db.transaction(async (tx) => {
      const [u] = await tx
        .update(users)
        .set({ disabledAt: disabled ? (member.disabledAt ?? now) : null, updatedAt: now })
        .where(eq(users.id, member.id))
        .returning();
      return { updated: u!, sids: disabled ? await destroyUserSessions(tx, member.id, null) : [] };
    });
    await announceSessionsEnded(this.deps.bus, sids);
    if (disabled !== (member.disabledAt !== null)) {
      await this.audit(admin, {
        action: disabled ? 'member_disabled' : 'member_enabled',
        companyId: member.companyId,
        target: member.email,
        detail: disabled ? `${sids.length} session(s) ended` : null,
      });
    }
    return toMemberDto(updated);
  }

  async setRole(admin: Admin, id: string, role: 'member' | 'admin') {
    const member = await this.memberOf(admin, id);
    if (member.role === 'operator') throw new ValidationError(ADMIN_MESSAGES.operatorRole);
    if (member.companyId === null) throw new ValidationError('The member belongs to no company');
    if (member.role === role) return toMemberDto(member);
    const [updated] = await this.db
      .update(users)
      .set({ role, updatedAt: this.deps.clock.now() })
      .where(eq(users.id, member.id))
      .returning();
    await this.audit(admin, {
      action: 'role_changed',
      companyId: member.companyId,
      target: member.email,
      detail: `${member.role} -> ${role}`,
    });
    return toMemberDto(updated!);
  }

  /** Mails an invitation with a link to sign-up, the address filled in. */
  async invite(admin: Admin, companyId: number | undefined, email: string): Promise<void> {
    const company = await this.companyOf(admin, companyId);
    if (!(await companyOwnsAddress(this.db, company.id, email)))
      throw new ValidationError(ADMIN_MESSAGES.inviteDomain(company.emailDomains), {
        email: ADMIN_MESSAGES.inviteDomain(company.emailDomains),
      });
    const [existing] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, email));
    if (existing) throw new ConflictError(ADMIN_MESSAGES.alreadyMember, 'ALREADY_MEMBER');
    const now = this.deps.clock.now();
    // Each sending is a new link, valid INVITATION_VALID_DAYS from now: a resend voids the last
    // one (ADR 0014).
    const { token, hash } = newLinkToken();
    await this.db
      .insert(invitations)
      .values({
        companyId: company.id,
        email,
        invitedBy: admin.user.id,
        createdAt: now,
        tokenHash: hash,
      })
      .onConflictDoUpdate({
        target: [invitations.companyId, invitations.email],
        set: { invitedBy: admin.user.id, createdAt: now, acceptedAt: null, tokenHash: hash },
      });
    const link = `${this.deps.config.appUrl}/auth?mode=register&email=${encodeURIComponent(email)}&token=${token}`;
    const inviter = `${admin.user.firstName} ${admin.user.lastName}`.trim();
    try {
      await this.deps.mailer.send(invitationMail(email, company.name, inviter, link));
    } catch {
      throw new MailFailedError();
    }
    await this.audit(admin, { action: 'invitation_sent', companyId: company.id, target: email });
  }

  /** The company's invitations not yet accepted (pending or expired), for the members panel. */
  async invitations(
    admin: Admin,
    companyId: number | undefined,
    opts: { q?: string; page: number; pageSize: number },
  ): Promise<InvitationsPage> {
    const company = await this.companyOf(admin, companyId);
    const page = await listInvitations(this.db, company.id, this.deps.clock.now(), opts);
    return { ...page, page: opts.page, pageSize: opts.pageSize };
  }

  /**
   * One named person's usage (ADR 0016): only on an admin's explicit request with a reason, and
   * the view is written to the company's audit log before anything is answered.
   */
  async personUsage(
    admin: Admin,
    companyId: number | undefined,
    body: PersonUsageBody,
  ): Promise<PersonUsageAnswer> {
    const company = await this.companyOf(admin, companyId);
    if (body.from > body.to)
      throw new ValidationError('from must not be after to', { from: 'from must not be after to' });
    const [person] = await this.db
      .select()
      .from(users)
      .where(and(eq(users.email, body.email), eq(users.companyId, company.id)));
    if (!person) throw new NotFoundError(ADMIN_MESSAGES.noSuchPerson);
    await this.audit(admin, {
      action: 'usage_person_viewed',
      companyId: company.id,
      target: person.email,
      detail: `${body.from} to ${body.to}; reason: ${body.reason}`,
    });
    const figures = await personUsage(this.db, company.id, person.id, body.from, body.to);
    return {
      person: { email: person.email, name: `${person.firstName} ${person.lastName}`.trim() },
      from: body.from,
      to: body.to,
      ...figures,
    };
  }

  async memberCount(companyId: number): Promise<number> {
    const [{ n } = { n: 0 }] = await this.db
      .select({ n: count() })
      .from(users)
      .where(eq(users.companyId, companyId));
    return n;
  }

  private async settingsOf(c: CompanyWithDomains): Promise<CompanySettings> {
    return summaryOf(c, await this.memberCount(c.id));
  }

  async settings(admin: Admin, companyId: number | undefined): Promise<CompanySettings> {
    return this.settingsOf(await this.companyOf(admin, companyId));
  }

  /** A model an admin may choose, or one an operator may set (the provider configured). */
  private checkModel(admin: Admin, company: CompanyWithDomains, model: string): void {
    if (admin.role === 'admin' && !allowedFor(company).includes(model))
      throw new ValidationError(ADMIN_MESSAGES.notAllowedModel(model));
    const problem = validateModelString(model, this.deps.config);
    if (problem) throw new ValidationError(problem);
  }

  async updateSettings(
    admin: Admin,
    companyId: number | undefined,
    patch: CompanySettingsPatch,
  ): Promise<CompanySettings> {
    const company = await this.companyOf(admin, companyId);
    if (
      admin.role !== 'operator' &&
      (patch.name !== undefined || patch.domains !== undefined || patch.allowedModels !== undefined)
    )
      throw new ForbiddenError(ADMIN_MESSAGES.operatorsOnly);
    const models = patch.models ?? {};
    for (const m of Object.values(models)) if (m !== undefined) this.checkModel(admin, company, m);
    for (const m of patch.allowedModels ?? []) {
      const problem = validateModelString(m, this.deps.config);
      if (problem) throw new ValidationError(problem);
    }
    const fields: Record<string, unknown> = {};
    for (const key of MODULE_KEYS)
      if (models[key] !== undefined) fields[MODEL_FIELD[key]] = models[key];
    const updated = await updateCompany(this.db, String(company.id), {
      ...fields,
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.domains !== undefined ? { emailDomains: patch.domains } : {}),
      ...(patch.allowedModels !== undefined ? { allowedModels: patch.allowedModels } : {}),
    });
    for (const key of MODULE_KEYS) {
      const before = company[MODEL_FIELD[key]];
      const after = updated[MODEL_FIELD[key]];
      if (before !== after)
        await this.audit(admin, {
          action: 'model_changed',
          companyId: company.id,
          target: key,
          detail: `${before} -> ${after}`,
        });
    }
    const added = updated.emailDomains.filter((d) => !company.emailDomains.includes(d));
    const removed = company.emailDomains.filter((d) => !updated.emailDomains.includes(d));
    if (added.length || removed.length)
      await this.audit(admin, {
        action: 'domain_changed',
        companyId: company.id,
        target: company.name,
        detail: [
          added.length ? `added ${added.join(', ')}` : '',
          removed.length ? `removed ${removed.join(', ')}` : '',
        ]
          .filter(Boolean)
          .join('; '),
      });
    if (updated.name !== company.name)
      await this.audit(admin, {
        action: 'settings_changed',
        companyId: company.id,
        target: updated.name,
        detail: `renamed from ${company.name}`,
      });
    if (updated.allowedModels.join() !== company.allowedModels.join())
      await this.audit(admin, {
        action: 'settings_changed',
        companyId: company.id,
        target: updated.name,
        detail: `allowed models: ${updated.allowedModels.join(', ') || '(builtin only)'}`,
      });
    return this.settingsOf(updated);
  }

  /** The model test: an admin may test only the models allowed for their company. */
  async assertTestable(admin: Admin, model: string, companyId?: number): Promise<void> {
    if (admin.role === 'operator') return;
    const company = await this.companyOf(admin, companyId);
    if (!allowedFor(company).includes(model))
      throw new ValidationError(ADMIN_MESSAGES.notAllowedModel(model));
  }

  // --- starters ---

  /** Whose starters a request is about: a company's own, or (operators) the global library. */
  async starterScope(
    admin: Admin,
    companyId: number | undefined,
    scope: 'company' | 'global' | undefined,
  ): Promise<{ companyId: number | null }> {
    if (scope === 'global') {
      this.requireOperator(admin);
      return { companyId: null };
    }
    return { companyId: (await this.companyOf(admin, companyId)).id };
  }

  async starters(
    scope: { companyId: number | null },
    module: ModuleKey | undefined,
    q: string | undefined,
  ): Promise<{ own: AdminStarterDto[]; global: AdminStarterDto[] }> {
    const filter = and(
      module ? eq(starters.module, module) : undefined,
      q
        ? or(
            ilike(starters.name, containsPattern(q)),
            ilike(starters.taskType, containsPattern(q)),
            ilike(starters.description, containsPattern(q)),
          )
        : undefined,
    );
    const order = [asc(starters.module), asc(starters.taskType), asc(starters.name)];
    const own = await this.db
      .select()
      .from(starters)
      .where(and(inStarterScope(scope), filter))
      .orderBy(...order);
    const global =
      scope.companyId === null
        ? []
        : await this.db
            .select()
            .from(starters)
            .where(and(isNull(starters.companyId), isNull(starters.retiredAt), filter))
            .orderBy(...order);
    return { own: own.map(toAdminStarter), global: global.map(toAdminStarter) };
  }

  async createStarter(
    admin: Admin,
    scope: { companyId: number | null },
    input: StarterInput,
  ): Promise<AdminStarterDto> {
    const row = await this.db.transaction(async (tx) => {
      await assertStarterNameFree(tx, scope, input.module, input.name, null);
      const [r] = await tx
        .insert(starters)
        .values({ ...input, companyId: scope.companyId })
        .returning();
      return r!;
    });
    await this.audit(admin, {
      action: 'starter_created',
      companyId: scope.companyId,
      target: `${row.module} / ${row.name}`,
    });
    return toAdminStarter(row);
  }

  /** A starter the caller may change: their company's own; any for an operator (404 otherwise). */
  private async starterOf(admin: Admin, id: number) {
    const [row] = await this.db.select().from(starters).where(eq(starters.id, id));
    if (!row) throw new NotFoundError('Starter not found');
    if (admin.role === 'admin' && row.companyId !== admin.user.companyId)
      throw new NotFoundError('Starter not found');
    return row;
  }

  async editStarter(admin: Admin, id: number, patch: AdminStarterPatch): Promise<AdminStarterDto> {
    const current = await this.starterOf(admin, id);
    const row = await this.db.transaction(async (tx) => {
      if (patch.name !== undefined)
        await assertStarterNameFree(tx, current, current.module, patch.name, current.id);
      const [r] = await tx.update(starters).set(patch).where(eq(starters.id, id)).returning();
      return r!;
    });
    await this.audit(admin, {
      action: 'starter_edited',
      companyId: current.companyId,
      target: `${row.module} / ${row.name}`,
      detail: `changed ${Object.keys(patch).join(', ')}`,
    });
    return toAdminStarter(row);
  }

  async retireStarter(admin: Admin, id: number, retired: boolean): Promise<AdminStarterDto> {
    const current = await this.starterOf(admin, id);
    const [row] = await this.db
      .update(starters)
      .set({ retiredAt: retired ? (current.retiredAt ?? this.deps.clock.now()) : null })
      .where(eq(starters.id, id))
      .returning();
    if (retired && !current.retiredAt)
      await this.audit(admin, {
        action: 'starter_retired',
        companyId: current.companyId,
        target: `${current.module} / ${current.name}`,
      });
    if (!retired && current.retiredAt)
      await this.audit(admin, {
        action: 'starter_edited',
        companyId: current.companyId,
        target: `${current.module} / ${current.name}`,
        detail: 'brought back',
      });
    return toAdminStarter(row!);
  }

  // --- companies (operators) ---

  async companies(q: string | undefined, page: number, pageSize: number) {
    let list = await listCompanies(this.db);
    if (q) {
      const needle = q.toLowerCase();
      list = list.filter(
        (c) =>
          c.name.toLowerCase().includes(needle) || c.emailDomains.some((d) => d.includes(needle)),
      );
    }
    const slice = list.slice((page - 1) * pageSize, page * pageSize);
    const counts = slice.length
      ? await this.db
          .select({ companyId: users.companyId, n: count() })
          .from(users)
          .where(
            inArray(
              users.companyId,
              slice.map((c) => c.id),
            ),
          )
          .groupBy(users.companyId)
      : [];
    const companiesPage: CompanySummary[] = slice.map((c) =>
      summaryOf(c, counts.find((r) => r.companyId === c.id)?.n ?? 0),
    );
    return { companies: companiesPage, total: list.length, page, pageSize };
  }

  async createCompany(admin: Admin, body: NewCompanyBody): Promise<CompanySettings> {
    for (const m of body.allowedModels ?? []) {
      const problem = validateModelString(m, this.deps.config);
      if (problem) throw new ValidationError(problem);
    }
    const c = await addCompany(this.db, {
      name: body.name,
      emailDomains: body.domains,
      allowedModels: body.allowedModels,
    });
    await this.audit(admin, {
      action: 'company_created',
      companyId: c.id,
      target: c.name,
      detail: c.emailDomains.length ? `domains ${c.emailDomains.join(', ')}` : null,
    });
    return this.settingsOf(c);
  }

  async retireCompany(admin: Admin, id: number, retired: boolean): Promise<CompanySettings> {
    const before = await this.companyOf(admin, id);
    await setCompanyRetired(this.db, id, retired);
    if (retired !== (before.retiredAt !== null))
      await this.audit(admin, {
        action: retired ? 'company_retired' : 'settings_changed',
        companyId: id,
        target: before.name,
        detail: retired ? null : 'brought back from retirement',
      });
    return this.settingsOf(await findCompany(this.db, String(id)));
  }
}

/** What an admin may choose for a module: builtin, the allowed models, and what is set now. */
export function allowedFor(c: CompanyWithDomains): string[] {
  return [
    ...new Set([
      'builtin',
      ...c.allowedModels,
      c.brandHubModel,
      c.governanceModel,
      c.talentIntelligenceModel,
    ]),
  ];
}

function summaryOf(c: CompanyWithDomains, members: number): CompanySummary {
  return {
    id: c.id,
    name: c.name,
    domains: c.emailDomains,
    models: modelsOf(c),
    allowedModels: allowedFor(c),
    retired: c.retiredAt !== null,
    members,
  };
}

function modelsOf(c: CompanyWithDomains): ModuleModels {
  return {
    'brand-hub': c.brandHubModel,
    governance: c.governanceModel,
    'talent-intelligence': c.talentIntelligenceModel,
  };
}

function toAdminStarter(s: typeof starters.$inferSelect): AdminStarterDto {
  return {
    id: s.id,
    module: s.module as ModuleKey,
    taskType: s.taskType,
    name: s.name,
    description: s.description,
    companyId: s.companyId,
    retired: s.retiredAt !== null,
  };
}
