import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CompanyQuery, NumericIdParam } from '@contract/admin';
import {
  LegalHoldBody,
  MemberRetentionAnswer,
  RetentionAnswer,
  RetentionBody,
} from '@contract/retention';
import { requireUserId } from '../accounts/sessions';
import { recordAudit } from '../audit/audit';
import { users } from '../db/schema';
import { AdminService, type Admin } from './admin.service';
import {
  addHold,
  deletingPolicies,
  lastPurgeAt,
  listHolds,
  listPolicies,
  policyLabel,
  removeHold,
  setPolicy,
} from './retention';

// Retention in the console (docs/decisions/0071-retention-policies-and-legal-holds.md):
// registered inside the admin routes, so their role check (401, member 403) runs first; a company
// admin reads and sets their own company (another one is 404), an operator names one (?company=).

export const adminRetentionRoutes: FastifyPluginAsyncZod = async (app) => {
  const admins = new AdminService(app.deps);
  const { db } = app.deps.database;
  const { clock } = app.deps;

  const answer = async (company: { id: number; name: string }): Promise<RetentionAnswer> => ({
    company: { id: company.id, name: company.name },
    policies: await listPolicies(db, company.id),
    holds: await listHolds(db, company.id),
    lastPurgeAt: await lastPurgeAt(db),
  });
  const audit = (admin: Admin, companyId: number, target: string, detail: string) =>
    recordAudit(db, clock, {
      ...admin.origin,
      action: 'settings_changed',
      actorId: admin.user.id,
      actorEmail: admin.user.email,
      companyId,
      target,
      detail,
    });

  app.get(
    '/retention',
    { schema: { querystring: CompanyQuery, response: { 200: RetentionAnswer } } },
    async (req) => answer(await admins.companyOf(req.admin!, req.query.company)),
  );
  app.put(
    '/retention',
    {
      schema: {
        querystring: CompanyQuery,
        body: RetentionBody,
        response: { 200: RetentionAnswer },
      },
    },
    async (req) => {
      const company = await admins.companyOf(req.admin!, req.query.company);
      await setPolicy(db, company.id, req.body, clock.now());
      await audit(
        req.admin!,
        company.id,
        `retention: ${req.body.module}`,
        policyLabel(req.body.module, req.body.days),
      );
      return answer(company);
    },
  );
  app.post(
    '/retention/holds',
    {
      schema: {
        querystring: CompanyQuery,
        body: LegalHoldBody,
        response: { 200: RetentionAnswer },
      },
    },
    async (req) => {
      const admin = req.admin!;
      const company = await admins.companyOf(admin, req.query.company);
      const held = await addHold(
        db,
        company.id,
        req.body,
        { id: admin.user.id, email: admin.user.email },
        clock.now(),
      );
      await audit(admin, company.id, `legal hold: ${held}`, req.body.reason || 'placed');
      return answer(company);
    },
  );
  app.delete(
    '/retention/holds/:id',
    {
      schema: {
        params: NumericIdParam,
        querystring: CompanyQuery,
        response: { 200: RetentionAnswer },
      },
    },
    async (req) => {
      const company = await admins.companyOf(req.admin!, req.query.company);
      const held = await removeHold(db, company.id, req.params.id);
      await audit(req.admin!, company.id, `legal hold: ${held}`, 'lifted');
      return answer(company);
    },
  );
};

/** GET /api/retention: the caller's company's policies that delete chats (the Recent note). */
export const memberRetentionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  app.get('/retention', { schema: { response: { 200: MemberRetentionAnswer } } }, async (req) => {
    const [me] = await db
      .select({ companyId: users.companyId })
      .from(users)
      .where(eq(users.id, requireUserId(req)));
    return { policies: await deletingPolicies(db, me?.companyId ?? null) };
  });
};
