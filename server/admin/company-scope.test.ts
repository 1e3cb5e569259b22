import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { uniqueEmail } from '../../test-support/app';
import { aReading, useTestApp } from '../../test-support/server-tests';
import {
  ROLES,
  ofCompany,
  twoCompaniesWithRoles,
  type RoleName,
} from '../../test-support/factories';
import { call } from '../../test-support/accounts';
import { rememberedReadings, type User } from '../db/schema';
import { addCompany, type CompanyWithDomains } from './companies';

// ?company=<id> on every admin route (docs/decisions/0015-company-parameter-everywhere.md): one
// table of every route in admin.routes.ts × (member 403, the company's admin 200, another
// company's admin 404, an operator naming the company 200), and each 200 is about that company.

const tag = () => randomBytes(3).toString('hex');
type Role = RoleName;
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface Case {
  /** "METHOD /path" as admin.routes.ts declares it. */
  route: string;
  /** The request about company A (`?company=A` is added); fresh targets each call. */
  request: () => Promise<{ path: string; body?: unknown }>;
  /** Company A's admin gets 403 on the operators' routes; everything else is 200. */
  operatorsOnly?: boolean;
  /** What shows the 200 is about company A. */
  about?: (res: LightMyRequestResponse) => void;
}

describe('?company=<id> on every admin route', () => {
  let A: CompanyWithDomains;
  let B: CompanyWithDomains;
  const people = {} as Record<Role, User>;
  const cookies = {} as Record<Role, string>;

  const t = useTestApp();
  beforeAll(async () => {
    // The operator belongs to company B: a request naming A must not fall back to B.
    ({ A, B } = await twoCompaniesWithRoles(t, { people, cookies }, { operatorOf: 'B' }));
    // Something of A's in its audit log and budgets.
    const res = await call(
      t,
      'PUT',
      `/api/admin/budgets?company=${A.id}`,
      {
        unit: 'turns',
        limit: 100,
      },
      { cookie: cookies.adminA },
    );
    expect(res.statusCode, res.body).toBe(200);
  });

  const memberOfA = () => ofCompany(t, A).member();
  const starterOfA = () => ofCompany(t, A).starter();
  const budgetOfA = async () => {
    const res = await call(
      t,
      'PUT',
      `/api/admin/budgets?company=${A.id}`,
      { unit: 'tokens', limit: 1000, email: people.member.email },
      { cookie: cookies.adminA },
    );
    const list = res.json<{ budgets: { id: number; userEmail: string | null }[] }>().budgets;
    return list.find((b) => b.userEmail === people.member.email)!.id;
  };
  /** A layout reading company A's people confirmed (ADR 0052). */
  const readingOfA = async () => {
    const signature = `sig-${tag()}`;
    const [row] = await t.database.db
      .insert(rememberedReadings)
      .values({
        companyId: A.id,
        signature,
        confirmedAt: new Date(),
        reading: aReading({
          fileName: 'hr-export.csv',
          signature,
          columns: [{ name: 'Kst', role: 'department' }],
        }),
      })
      .returning();
    return row!.id;
  };
  const companyIs = (res: LightMyRequestResponse) =>
    expect(res.json<{ company: { id: number } }>().company.id).toBe(A.id);
  const json = <T>(res: LightMyRequestResponse) => res.json<T>();

  const CASES: Case[] = [
    { route: 'GET /me', request: async () => ({ path: '/me' }) },
    {
      route: 'GET /members',
      request: async () => ({ path: '/members' }),
      about: (res) =>
        expect(json<{ members: { email: string }[] }>(res).members.map((m) => m.email)).toContain(
          people.member.email,
        ),
    },
    {
      route: 'GET /members.csv',
      request: async () => ({ path: '/members.csv' }),
      about: (res) => {
        expect(res.body).toContain(people.member.email);
        expect(res.body).not.toContain(people.adminB.email);
      },
    },
    ...(['disable', 'enable'] as const).map((a) => ({
      route: `POST /members/:id/${a}`,
      request: async () => ({ path: `/members/${(await memberOfA()).id}/${a}` }),
      about: (res: LightMyRequestResponse) =>
        expect(json<{ companyId: number }>(res).companyId).toBe(A.id),
    })),
    {
      route: 'POST /members/:id/role',
      request: async () => ({
        path: `/members/${(await memberOfA()).id}/role`,
        body: { role: 'admin' },
      }),
      about: (res) =>
        expect(json<{ role: string }>(res)).toMatchObject({ role: 'admin', companyId: A.id }),
    },
    {
      route: 'POST /invitations',
      request: async () => ({
        path: '/invitations',
        body: { email: uniqueEmail(A.emailDomains[0]) },
      }),
    },
    {
      route: 'GET /invitations',
      request: async () => ({ path: '/invitations' }),
      about: (res) =>
        expect(json<{ invitations: unknown[] }>(res).invitations.length).toBeGreaterThan(0),
    },
    {
      route: 'GET /company',
      request: async () => ({ path: '/company' }),
      about: (res) => expect(json<{ id: number }>(res).id).toBe(A.id),
    },
    {
      route: 'PATCH /company',
      request: async () => ({ path: '/company', body: { models: { governance: 'builtin' } } }),
      about: (res) => expect(json<{ id: number }>(res).id).toBe(A.id),
    },
    {
      route: 'POST /models/test',
      request: async () => ({ path: '/models/test', body: { model: 'builtin' } }),
    },
    {
      route: 'GET /starters',
      request: async () => {
        await starterOfA();
        return { path: '/starters' };
      },
      about: (res) => {
        const own = json<{ own: { companyId: number }[] }>(res).own;
        expect(own.length).toBeGreaterThan(0);
        expect(own.every((s) => s.companyId === A.id)).toBe(true);
      },
    },
    {
      route: 'POST /starters',
      request: async () => ({
        path: '/starters',
        body: {
          module: 'brand-hub',
          taskType: 'Copy Review',
          name: `Alpha tone ${tag()}`,
          description: 'checking copy against our tone',
        },
      }),
      about: (res) => expect(json<{ companyId: number }>(res).companyId).toBe(A.id),
    },
    {
      route: 'PATCH /starters/:id',
      request: async () => ({
        path: `/starters/${(await starterOfA()).id}`,
        body: { description: 'a sharper policy check' },
      }),
      about: (res) => expect(json<{ companyId: number }>(res).companyId).toBe(A.id),
    },
    ...(['retire', 'restore'] as const).map((a) => ({
      route: `POST /starters/:id/${a}`,
      request: async () => ({ path: `/starters/${(await starterOfA()).id}/${a}` }),
      about: (res: LightMyRequestResponse) =>
        expect(json<{ companyId: number }>(res).companyId).toBe(A.id),
    })),
    { route: 'GET /companies', operatorsOnly: true, request: async () => ({ path: '/companies' }) },
    {
      route: 'POST /companies',
      operatorsOnly: true,
      request: async () => ({ path: '/companies', body: { name: `New Co ${tag()}` } }),
    },
    ...(['retire', 'restore'] as const).map((a) => ({
      route: `POST /companies/:id/${a}`,
      operatorsOnly: true,
      request: async () => ({
        path: `/companies/${(await addCompany(t.database.db, { name: `Throwaway ${tag()}` })).id}/${a}`,
      }),
    })),
    { route: 'GET /providers', operatorsOnly: true, request: async () => ({ path: '/providers' }) },
    {
      route: 'GET /audit',
      request: async () => ({ path: '/audit' }),
      about: (res) => {
        const entries = json<{ entries: { companyId: number }[] }>(res).entries;
        expect(entries.length).toBeGreaterThan(0);
        expect(entries.every((e) => e.companyId === A.id)).toBe(true);
      },
    },
    {
      route: 'GET /audit.csv',
      request: async () => ({ path: '/audit.csv' }),
      about: (res) => {
        const rows = res.body.trim().split('\r\n').slice(1);
        expect(rows.length).toBeGreaterThan(0);
        expect(rows.every((r) => r.split(',')[1] === String(A.id))).toBe(true);
      },
    },
    {
      route: 'GET /audit/verify',
      request: async () => ({ path: '/audit/verify' }),
      about: (res) => expect(json<{ intact: boolean; checked: number }>(res).intact).toBe(true),
    },
    {
      route: 'GET /usage',
      request: async () => ({ path: '/usage?from=2026-11-01&to=2026-11-30&groupBy=module' }),
      about: companyIs,
    },
    {
      route: 'GET /usage.csv',
      request: async () => ({ path: '/usage.csv?from=2026-11-01&to=2026-11-30' }),
    },
    { route: 'GET /usage/prices', request: async () => ({ path: '/usage/prices' }) },
    {
      route: 'PUT /usage/prices',
      operatorsOnly: true,
      request: async () => ({
        path: '/usage/prices',
        body: [{ model: 'openai:gpt-4.1-mini', inputPerMillion: 0.4, outputPerMillion: 1.6 }],
      }),
    },
    {
      route: 'GET /usage/people',
      request: async () => ({ path: '/usage/people?from=2026-11-01&to=2026-11-30' }),
      about: companyIs,
    },
    {
      route: 'POST /usage/person',
      request: async () => ({
        path: '/usage/person',
        body: {
          email: people.member.email,
          reason: 'checking the table of routes',
          from: '2026-11-01',
          to: '2026-11-30',
        },
      }),
      about: (res) =>
        expect(json<{ person: { email: string } }>(res).person.email).toBe(people.member.email),
    },
    { route: 'GET /budgets', request: async () => ({ path: '/budgets' }), about: companyIs },
    {
      route: 'PUT /budgets',
      request: async () => ({
        path: '/budgets',
        body: { module: 'governance', unit: 'turns', limit: 50 },
      }),
      about: companyIs,
    },
    {
      route: 'DELETE /budgets/:id',
      request: async () => ({ path: `/budgets/${await budgetOfA()}` }),
      about: companyIs,
    },
    {
      route: 'GET /readings',
      request: async () => {
        await readingOfA();
        return { path: '/readings' };
      },
      about: (res) => {
        companyIs(res);
        expect(json<{ readings: unknown[] }>(res).readings.length).toBeGreaterThan(0);
      },
    },
    {
      route: 'DELETE /readings/:id',
      request: async () => ({ path: `/readings/${await readingOfA()}` }),
      about: companyIs,
    },
  ];

  const withCompany = (path: string, company: number) =>
    `/api/admin${path}${path.includes('?') ? '&' : '?'}company=${company}`;

  it('covers every route admin.routes.ts declares', () => {
    const source = readFileSync(new URL('./admin.routes.ts', import.meta.url), 'utf8');
    const declared = [...source.matchAll(/app\.(get|post|put|patch|delete)\(\s*'([^']+)'/g)].map(
      (m) => `${m[1]!.toUpperCase()} ${m[2]}`,
    );
    expect(declared.length).toBeGreaterThan(20);
    expect(declared.filter((r) => !CASES.some((c) => c.route === r))).toEqual([]);
  });

  describe.each(CASES)('$route', (c) => {
    it.each(ROLES)('as %s, naming company A', async (role) => {
      const { path, body } = await c.request();
      const method = c.route.split(' ')[0] as Method;
      const res = await call(t, method, withCompany(path, A.id), body, { cookie: cookies[role] });
      const expected = {
        member: 403,
        adminA: c.operatorsOnly ? 403 : 200,
        adminB: 404,
        operator: 200,
      }[role];
      expect(res.statusCode, res.body).toBe(expected);
      if (expected === 404) expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
      if (expected === 200 && c.about) c.about(res);
    });
  });

  it('a member or starter named by id must belong to the company ?company= names', async () => {
    const member = await memberOfA();
    const starter = await starterOfA();
    for (const path of [`/members/${member.id}/disable`, `/starters/${starter.id}/retire`]) {
      const res = await call(t, 'POST', withCompany(path, B.id), undefined, {
        cookie: cookies.operator,
      });
      expect(res.statusCode, path).toBe(404);
    }
    // An unknown company is a 404 too, and a malformed one a 400.
    expect(
      (
        await call(t, 'GET', withCompany('/members', 99_999_999), undefined, {
          cookie: cookies.operator,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await call(t, 'GET', '/api/admin/budgets?company=abc', undefined, {
          cookie: cookies.operator,
        })
      ).statusCode,
    ).toBe(400);
  });
});
