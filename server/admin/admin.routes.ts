import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { eq } from 'drizzle-orm';
import {
  AdminMe,
  AdminStarterBody,
  AdminStarterDto,
  AdminStarterPatch,
  AdminStartersAnswer,
  AdminStartersQuery,
  AuditPage,
  BudgetBody,
  BudgetsAnswer,
  AuditQuery,
  AuditVerifyAnswer,
  CompaniesPage,
  CompaniesQuery,
  CompanyQuery,
  CompanySettings,
  CompanySettingsPatch,
  IdParam,
  InvitationBody,
  MemberDto,
  MembersPage,
  MembersQuery,
  ModelTestAnswer,
  ModelTestBody,
  NewCompanyBody,
  NumericIdParam,
  ProvidersAnswer,
  RoleBody,
  ModelPrices,
  UsageAnswer,
  UsageQuery,
  type AuditEntryDto,
  type UsageRow,
} from '@contract/admin';
import { MessageBody } from '@contract/errors';
import { InvitationsPage } from '@contract/invitations';
import { PersonUsageAnswer, PersonUsageBody, UsagePeopleAnswer } from '@contract/usage-people';
import { peopleSpread } from './usage-people';
import { ReadingsAnswer } from '@contract/reading';
import { deleteReading, listReadings } from '../workspace/readings';
import { requireUserId } from '../accounts/sessions';
import { auditRows, listAudit, originOf, verifyAudit, type AuditFilter } from '../audit/audit';
import { toCsv } from '../lib/csv';
import { starters, users } from '../db/schema';
import { NotFoundError, ValidationError } from '../lib/errors';
import { contentDisposition } from '../lib/content-disposition';
import { AdminService, type Admin } from './admin.service';
import { allMembers, listMembers } from './members';
import { checkModel, providersHealth } from './models';
import { listModelPrices, usageReport } from './usage';
import { ssoConsoleRoutes } from './sso-console.routes';
import { adminRetentionRoutes } from './retention.routes';

/** Seconds a model test or a provider check may take before it counts as no answer. */
const MODEL_TEST_MS = 20_000;

/** The audit CSV's columns: an entry's fields of those names, in this order. */
const AUDIT_CSV_COLUMNS = [
  'at',
  'companyId',
  'actorEmail',
  'action',
  'target',
  'ip',
  'userAgent',
  'detail',
] as const satisfies ReadonlyArray<keyof AuditEntryDto>;

/** The usage CSV's columns after the group's key: [header, the row's field]. */
const USAGE_CSV_COLUMNS = [
  ['label', 'label'],
  ['turns', 'turns'],
  ['activeUsers', 'activeUsers'],
  ['inputTokens', 'inputTokens'],
  ['outputTokens', 'outputTokens'],
  ['costUsd', 'cost'],
  ['errors', 'errors'],
] as const satisfies ReadonlyArray<readonly [string, keyof UsageRow]>;

/**
 * The admin console's API under /api/admin (docs/decisions/0020-roles-and-admin-api.md): HTTP
 * only; who may do what lives in AdminService. Payloads and answers are contract/admin.ts.
 */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const admins = new AdminService(app.deps);
  const { db } = app.deps.database;

  // Signed out: 401 before anything; a member: 403 on every route, before its payload is read.
  app.decorateRequest('admin', null);
  app.addHook('preValidation', async (req) => {
    req.admin = await admins.admin(requireUserId(req), originOf(req));
    // ?company= means the same on every route (ADR 0015): a company the caller may not see is a
    // bare 404 (an admin naming another company, an unknown id), whatever the route does with it.
    const named = namedCompany(req.query);
    if (named !== undefined) await admins.companyOf(req.admin, named);
  });
  /** With ?company=, a member or starter named by id must belong to that company (else 404). */
  const ownedByNamed =
    (owner: (id: string) => Promise<number | null | undefined>) => async (req: FastifyRequest) => {
      const named = namedCompany(req.query);
      const { id } = req.params as { id: string };
      if (named !== undefined && (await owner(id)) !== named) throw new NotFoundError();
    };
  const memberInNamed = ownedByNamed(async (id) =>
    z.string().uuid().safeParse(id).success
      ? (await db.select({ c: users.companyId }).from(users).where(eq(users.id, id)))[0]?.c
      : undefined,
  );
  const starterInNamed = ownedByNamed(async (id) =>
    /^\d{1,9}$/.test(id)
      ? (
          await db
            .select({ c: starters.companyId })
            .from(starters)
            .where(eq(starters.id, Number(id)))
        )[0]?.c
      : undefined,
  );
  const adminOf = (req: FastifyRequest) => req.admin!;
  const operator = (req: FastifyRequest) => {
    admins.requireOperator(adminOf(req));
    return adminOf(req);
  };
  const csv = (reply: FastifyReply, name: string, body: string) =>
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', contentDisposition(name))
      .send(body);
  // Retention and legal holds (ADR 0071), behind the role check above.
  await app.register(adminRetentionRoutes);

  app.get('/me', { schema: { response: { 200: AdminMe } } }, async (req) =>
    admins.me(adminOf(req)),
  );

  // --- members ---
  app.get(
    '/members',
    { schema: { querystring: MembersQuery, response: { 200: MembersPage } } },
    async (req) => {
      const company = await admins.companyOf(adminOf(req), req.query.company);
      const { page, pageSize, q } = req.query;
      return { ...(await listMembers(db, company.id, { q, page, pageSize })), page, pageSize };
    },
  );

  app.get('/members.csv', { schema: { querystring: MembersQuery } }, async (req, reply) => {
    const company = await admins.companyOf(adminOf(req), req.query.company);
    const rows = await allMembers(db, company.id, req.query.q);
    return csv(
      reply,
      'members.csv',
      toCsv(
        [
          'email',
          'firstName',
          'lastName',
          'role',
          'disabled',
          'emailVerified',
          'lastSignInAt',
          'createdAt',
        ],
        rows.map((m) => [
          m.email,
          m.firstName,
          m.lastName,
          m.role,
          m.disabled,
          m.emailVerified,
          m.lastSignInAt,
          m.createdAt,
        ]),
      ),
    );
  });

  const memberAction = {
    schema: { params: IdParam, querystring: CompanyQuery, response: { 200: MemberDto } },
    preHandler: memberInNamed,
  };
  app.post('/members/:id/disable', memberAction, async (req) =>
    admins.setDisabled(adminOf(req), req.params.id, true),
  );
  app.post('/members/:id/enable', memberAction, async (req) =>
    admins.setDisabled(adminOf(req), req.params.id, false),
  );
  app.post(
    '/members/:id/role',
    { ...memberAction, schema: { ...memberAction.schema, body: RoleBody } },
    async (req) => admins.setRole(adminOf(req), req.params.id, req.body.role),
  );

  app.post(
    '/invitations',
    { schema: { querystring: CompanyQuery, body: InvitationBody, response: { 200: MessageBody } } },
    async (req) => {
      await admins.invite(adminOf(req), req.query.company, req.body.email);
      return { message: `Invitation sent to ${req.body.email}` };
    },
  );

  app.get(
    '/invitations',
    { schema: { querystring: MembersQuery, response: { 200: InvitationsPage } } },
    async (req) => {
      const { company, q, page, pageSize } = req.query;
      return admins.invitations(adminOf(req), company, { q, page, pageSize });
    },
  );

  // --- company settings ---
  app.get(
    '/company',
    { schema: { querystring: CompanyQuery, response: { 200: CompanySettings } } },
    async (req) => admins.settings(adminOf(req), req.query.company),
  );
  app.patch(
    '/company',
    {
      schema: {
        querystring: CompanyQuery,
        body: CompanySettingsPatch,
        response: { 200: CompanySettings },
      },
    },
    async (req) => admins.updateSettings(adminOf(req), req.query.company, req.body),
  );
  app.post(
    '/models/test',
    {
      schema: {
        querystring: CompanyQuery,
        body: ModelTestBody,
        response: { 200: ModelTestAnswer },
      },
    },
    async (req) => {
      await admins.assertTestable(adminOf(req), req.body.model, req.query.company);
      const r = await checkModel(req.body.model, app.deps.config, MODEL_TEST_MS);
      return { model: req.body.model, ...r };
    },
  );

  // --- starters ---
  app.get(
    '/starters',
    { schema: { querystring: AdminStartersQuery, response: { 200: AdminStartersAnswer } } },
    async (req) => {
      const scope = await admins.starterScope(adminOf(req), req.query.company, req.query.scope);
      return admins.starters(scope, req.query.module, req.query.q);
    },
  );
  app.post(
    '/starters',
    {
      schema: {
        querystring: AdminStartersQuery.pick({ company: true, scope: true }),
        body: AdminStarterBody,
        response: { 200: AdminStarterDto },
      },
    },
    async (req) => {
      const scope = await admins.starterScope(adminOf(req), req.query.company, req.query.scope);
      return admins.createStarter(adminOf(req), scope, req.body);
    },
  );
  app.patch(
    '/starters/:id',
    {
      schema: {
        params: NumericIdParam,
        querystring: CompanyQuery,
        body: AdminStarterPatch,
        response: { 200: AdminStarterDto },
      },
      preHandler: starterInNamed,
    },
    async (req) => admins.editStarter(adminOf(req), req.params.id, req.body),
  );
  const starterAction = {
    schema: {
      params: NumericIdParam,
      querystring: CompanyQuery,
      response: { 200: AdminStarterDto },
    },
    preHandler: starterInNamed,
  };
  app.post('/starters/:id/retire', starterAction, async (req) =>
    admins.retireStarter(adminOf(req), req.params.id, true),
  );
  app.post('/starters/:id/restore', starterAction, async (req) =>
    admins.retireStarter(adminOf(req), req.params.id, false),
  );

  // --- companies and providers (operators) ---
  app.get(
    '/companies',
    { schema: { querystring: CompaniesQuery, response: { 200: CompaniesPage } } },
    async (req) => {
      operator(req);
      return admins.companies(req.query.q, req.query.page, req.query.pageSize);
    },
  );
  app.post(
    '/companies',
    { schema: { body: NewCompanyBody, response: { 200: CompanySettings } } },
    async (req) => admins.createCompany(operator(req), req.body),
  );
  const companyAction = { params: NumericIdParam, response: { 200: CompanySettings } };
  app.post('/companies/:id/retire', { schema: companyAction }, async (req) =>
    admins.retireCompany(operator(req), req.params.id, true),
  );
  app.post('/companies/:id/restore', { schema: companyAction }, async (req) =>
    admins.retireCompany(operator(req), req.params.id, false),
  );
  app.get('/providers', { schema: { response: { 200: ProvidersAnswer } } }, async (req) => {
    operator(req);
    return providersHealth(db, app.deps.config, MODEL_TEST_MS);
  });

  // --- audit log ---
  const filterOf = async (req: FastifyRequest, query: AuditQueryValue): Promise<AuditFilter> => {
    const { company, from, to, actor, action, target } = query;
    return {
      companyId: await admins.auditScope(adminOf(req), company),
      from,
      to,
      actor,
      action,
      target,
    };
  };
  app.get(
    '/audit',
    { schema: { querystring: AuditQuery, response: { 200: AuditPage } } },
    async (req) => {
      const { page, pageSize } = req.query;
      return {
        ...(await listAudit(db, await filterOf(req, req.query), page, pageSize)),
        page,
        pageSize,
      };
    },
  );
  app.get('/audit.csv', { schema: { querystring: AuditQuery } }, async (req, reply) => {
    const rows = await auditRows(db, await filterOf(req, req.query));
    return csv(
      reply,
      'audit-log.csv',
      toCsv(
        [...AUDIT_CSV_COLUMNS],
        rows.map((r) => AUDIT_CSV_COLUMNS.map((c) => r[c])),
      ),
    );
  });
  // --- usage (docs/decisions/0039-usage-api-and-cost.md) ---
  const usageOf = async (req: FastifyRequest, query: z.infer<typeof UsageQuery>) => {
    const companyId = await admins.auditScope(adminOf(req), query.company);
    const company = companyId === undefined ? null : await admins.companyRef(companyId);
    const report = await usageReport(db, { ...query, companyId });
    return { ...report, company };
  };
  app.get(
    '/usage',
    { schema: { querystring: UsageQuery, response: { 200: UsageAnswer } } },
    async (req) => usageOf(req, req.query),
  );
  app.get('/usage.csv', { schema: { querystring: UsageQuery } }, async (req, reply) => {
    const usage = await usageOf(req, req.query);
    return csv(
      reply,
      `usage-${usage.groupBy}-${usage.from}-${usage.to}.csv`,
      toCsv(
        [usage.groupBy, ...USAGE_CSV_COLUMNS.map(([header]) => header)],
        usage.rows.map((r) => [r.key, ...USAGE_CSV_COLUMNS.map(([, field]) => r[field])]),
      ),
    );
  });
  // Prices are the operator's: every admin reads them (the page shows them), only operators set them.
  app.get('/usage/prices', { schema: { response: { 200: ModelPrices } } }, async () =>
    listModelPrices(db),
  );
  app.put(
    '/usage/prices',
    { schema: { body: ModelPrices, response: { 200: ModelPrices } } },
    async (req) => {
      await admins.setPrices(adminOf(req), req.body);
      return listModelPrices(db);
    },
  );

  // --- per-person usage (ADR 0016): unnamed spread for groups of 5 or more; one named person
  // only on request, with a reason, audited ---
  app.get(
    '/usage/people',
    { schema: { querystring: UsageQuery, response: { 200: UsagePeopleAnswer } } },
    async (req) => {
      const companyId = await admins.auditScope(adminOf(req), req.query.company);
      const company = companyId === undefined ? null : await admins.companyRef(companyId);
      return { ...(await peopleSpread(db, companyId, req.query.from, req.query.to)), company };
    },
  );
  app.post(
    '/usage/person',
    {
      schema: {
        querystring: CompanyQuery,
        body: PersonUsageBody,
        response: { 200: PersonUsageAnswer },
      },
    },
    async (req) => admins.personUsage(adminOf(req), req.query.company, req.body),
  );

  // --- remembered readings (ADR 0052) ---
  const readingsOf = async (req: FastifyRequest, company: number | undefined) => {
    const c = await admins.companyOf(adminOf(req), company);
    return { company: { id: c.id, name: c.name }, readings: await listReadings(db, c.id) };
  };
  app.get(
    '/readings',
    { schema: { querystring: CompanyQuery, response: { 200: ReadingsAnswer } } },
    async (req) => readingsOf(req, req.query.company),
  );
  app.delete(
    '/readings/:id',
    {
      schema: {
        params: NumericIdParam,
        querystring: CompanyQuery,
        response: { 200: ReadingsAnswer },
      },
    },
    async (req) => {
      const c = await admins.companyOf(adminOf(req), req.query.company);
      await deleteReading(db, c.id, req.params.id);
      return readingsOf(req, c.id);
    },
  );

  // --- budgets (ADR 0070) ---
  app.get(
    '/budgets',
    { schema: { querystring: CompanyQuery, response: { 200: BudgetsAnswer } } },
    async (req) => admins.budgets(adminOf(req), req.query.company),
  );
  app.put(
    '/budgets',
    { schema: { querystring: CompanyQuery, body: BudgetBody, response: { 200: BudgetsAnswer } } },
    async (req) => admins.setBudget(adminOf(req), req.query.company, req.body),
  );
  app.delete(
    '/budgets/:id',
    {
      schema: {
        params: NumericIdParam,
        querystring: CompanyQuery,
        response: { 200: BudgetsAnswer },
      },
    },
    async (req) => admins.removeBudget(adminOf(req), req.query.company, req.params.id),
  );

  // --- single sign-on (ADR 0079): its own file ---
  await app.register(ssoConsoleRoutes(admins), { prefix: '/sso' });

  app.get(
    '/audit/verify',
    { schema: { querystring: CompanyQuery, response: { 200: AuditVerifyAnswer } } },
    async (req) => verifyAudit(db, await admins.auditScope(adminOf(req), req.query.company)),
  );
};

type AuditQueryValue = z.infer<typeof AuditQuery>;

/** The company a request names with ?company=, or undefined; a malformed one is a 400. */
function namedCompany(query: unknown): number | undefined {
  const raw = (query as { company?: unknown } | undefined)?.company;
  if (raw === undefined) return undefined;
  const parsed = CompanyQuery.safeParse({ company: raw });
  if (!parsed.success) throw new ValidationError('Company must be a company id');
  return parsed.data.company;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller of an /api/admin route, once the role check passed. */
    admin: Admin | null;
  }
}
