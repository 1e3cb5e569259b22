import { randomBytes } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BudgetsAnswer } from '@contract/admin';
import { createTestApp, uniqueEmail, type TestApp } from '../../test-support/app';
import { useTestApp } from '../../test-support/server-tests';
import { call } from '../../test-support/accounts';
import { replyClosed, sendMessage, waitFor } from '../../test-support/conversation';
import { createUser, signIn } from '../../test-support/factories';
import { seededRandom } from '../../test-support/fixtures/random';
import { runs, scriptedAgentFor } from '../../test-support/scripted-agents';
import {
  budgetReservations,
  chatMessages,
  chats,
  companies,
  logs,
  notifications,
  type User,
} from '../db/schema';
import { ManualClock } from '../lib/clock';
import { recordTurnUsage } from '../workspace/turns/usage.repo';
import { runAdmin } from './commands';

// Budgets (docs/decisions/0070-budgets.md): the console's routes for each role, the refusal of a
// send over a limit with the words the user reads, nothing left half-written, parallel sends
// through two processes at the limit, and the 75%/90% warnings to the company's admins.

const tag = () => randomBytes(3).toString('hex');
// Mid-November: every budget resets on 1 December.
const NOW = new Date('2026-11-15T10:00:00Z');
const COMPANY_USED_UP =
  "Your company's monthly Talent Intelligence budget is used up. It resets on 1 December.";
const PERSON_USED_UP =
  'Your monthly Talent Intelligence budget is used up. It resets on 1 December.';

describe('budgets', () => {
  const clock = new ManualClock(NOW);
  let second: TestApp;

  /** A company whose modules run `model`, its admin, and members with one chat each. */
  async function company(model: string, members = 1) {
    const db = t.database.db;
    const domain = `b-${tag()}.com`;
    const [c] = await db
      .insert(companies)
      .values({
        name: `Budget Co ${tag()}`,
        brandHubModel: model,
        governanceModel: model,
        talentIntelligenceModel: model,
      })
      .returning();
    const admin = await createUser(db, {
      email: uniqueEmail(domain),
      companyId: c!.id,
      role: 'admin',
    });
    const people: { user: User; cookie: string; chatId: string }[] = [];
    for (let i = 0; i < members; i += 1) {
      const user = await createUser(db, { email: uniqueEmail(domain), companyId: c!.id });
      people.push({ user, cookie: await signIn(t, user), chatId: await newChat(user.id) });
    }
    return { id: c!.id, name: c!.name, admin, adminCookie: await signIn(t, admin), people };
  }

  async function newChat(userId: string): Promise<string> {
    const [chat] = await t.database.db
      .insert(chats)
      .values({ userId, title: 'Talent Intelligence Chat', module: 'talent-intelligence' })
      .returning();
    return chat!.id;
  }

  /** Turns already closed this month, as the runtime records them. */
  async function pastTurns(companyUser: User, tokens: number[], module = 'talent-intelligence') {
    for (const n of tokens)
      await t.database.db.transaction((tx) =>
        recordTurnUsage(tx, {
          userId: companyUser.id,
          module,
          model: 'openai:gpt-4.1-mini',
          inputTokens: Math.floor(n / 3),
          outputTokens: n - Math.floor(n / 3),
          durationMs: 1_000,
          status: 200,
          starterId: null,
          now: new Date(NOW.getTime() - 3_600_000),
        }),
      );
  }

  const setBudget = (cookie: string, body: unknown, company?: number) =>
    call(t, 'PUT', `/api/admin/budgets${company ? `?company=${company}` : ''}`, body, { cookie });

  const messagesOf = (chatId: string) =>
    t.database.db.select().from(chatMessages).where(eq(chatMessages.chatId, chatId));

  const t = useTestApp({ clock, agentFor: scriptedAgentFor });
  beforeAll(async () => {
    // A second process behind the same database (and the same Redis when configured).
    second = await createTestApp({ clock, agentFor: scriptedAgentFor, database: t.database });
  });
  afterAll(async () => {
    for (const r of runs) r.release();
    await second.close();
  });

  describe('the console routes, for each role', () => {
    it('a member is refused; an admin sets and reads their company only; an operator names one', async () => {
      const a = await company('scripted:quick');
      const b = await company('scripted:quick');
      const operator = await signIn(
        t,
        await createUser(t.database.db, {
          email: uniqueEmail(),
          companyId: null,
          role: 'operator',
        }),
      );
      const member = a.people[0]!.cookie;

      expect(
        (await call(t, 'GET', '/api/admin/budgets', undefined, { cookie: member })).statusCode,
      ).toBe(403);
      expect((await setBudget(member, { unit: 'turns', limit: 5 })).statusCode).toBe(403);
      expect((await call(t, 'GET', '/api/admin/budgets')).statusCode).toBe(401);
      // Signed out, nothing is set or removed.
      expect(
        (await call(t, 'PUT', '/api/admin/budgets', { unit: 'turns', limit: 5 })).statusCode,
      ).toBe(401);
      expect((await call(t, 'DELETE', '/api/admin/budgets/1')).statusCode).toBe(401);
      expect(
        (await call(t, 'GET', '/api/admin/budgets', undefined, { cookie: a.adminCookie })).json<{
          budgets: unknown[];
        }>().budgets,
      ).toEqual([]);

      const set = await setBudget(a.adminCookie, {
        module: 'talent-intelligence',
        unit: 'tokens',
        limit: 50_000,
      });
      expect(set.statusCode).toBe(200);
      const answer = set.json<BudgetsAnswer>();
      expect(answer.company).toEqual({ id: a.id, name: a.name });
      expect(answer.resetsOn).toBe('1 December');
      expect(answer.budgets).toEqual([
        {
          id: expect.any(Number),
          module: 'talent-intelligence',
          userEmail: null,
          unit: 'tokens',
          limit: 50_000,
          used: 0,
        },
      ]);
      const id = answer.budgets[0]!.id;

      // Setting the same scope again replaces its limit; a person's limit names them.
      await setBudget(a.adminCookie, {
        module: 'talent-intelligence',
        unit: 'tokens',
        limit: 60_000,
      });
      const person = a.people[0]!.user.email;
      const both = (
        await setBudget(a.adminCookie, { email: person.toUpperCase(), unit: 'turns', limit: 40 })
      ).json<BudgetsAnswer>();
      expect(both.budgets.map((x) => [x.module, x.userEmail, x.unit, x.limit])).toEqual([
        ['talent-intelligence', null, 'tokens', 60_000],
        [null, person, 'turns', 40],
      ]);

      // Another company: named by an admin, or by way of its budget's id, is not found.
      expect(
        (
          await call(t, 'GET', `/api/admin/budgets?company=${b.id}`, undefined, {
            cookie: a.adminCookie,
          })
        ).statusCode,
      ).toBe(404);
      expect((await setBudget(a.adminCookie, { unit: 'turns', limit: 1 }, b.id)).statusCode).toBe(
        404,
      );
      expect(
        (await call(t, 'DELETE', `/api/admin/budgets/${id}`, undefined, { cookie: b.adminCookie }))
          .statusCode,
      ).toBe(404);
      // A person of another company cannot be given a limit here.
      const stranger = b.people[0]!.user.email;
      const refused = await setBudget(a.adminCookie, { email: stranger, unit: 'turns', limit: 3 });
      expect(refused.statusCode).toBe(400);
      expect(refused.json<{ message: string }>().message).toBe(
        `${stranger} is not a member of this company`,
      );
      // Bad limits get the contract's words.
      const bad = await setBudget(a.adminCookie, { unit: 'turns', limit: 0 });
      expect(bad.statusCode).toBe(400);
      expect(bad.json<{ message: string }>().message).toBe('The limit is at least 1');
      expect(
        (await setBudget(a.adminCookie, { unit: 'euros', limit: 3 })).json<{ message: string }>()
          .message,
      ).toBe('A limit is in tokens or turns');
      // B's admin sees none of A's budgets.
      expect(
        (
          await call(t, 'GET', '/api/admin/budgets', undefined, { cookie: b.adminCookie })
        ).json<BudgetsAnswer>().budgets,
      ).toEqual([]);

      // The operator reads and sets the company they name.
      const op = await call(t, 'GET', `/api/admin/budgets?company=${a.id}`, undefined, {
        cookie: operator,
      });
      expect(op.json<BudgetsAnswer>().budgets).toHaveLength(2);
      expect(
        (await setBudget(operator, { unit: 'turns', limit: 9 }, b.id)).json<BudgetsAnswer>()
          .budgets,
      ).toEqual([
        { id: expect.any(Number), module: null, userEmail: null, unit: 'turns', limit: 9, used: 0 },
      ]);
      const removed = await call(
        t,
        'DELETE',
        `/api/admin/budgets/${id}?company=${a.id}`,
        undefined,
        { cookie: operator },
      );
      expect(removed.json<BudgetsAnswer>().budgets.map((x) => x.userEmail)).toEqual([person]);

      // Each change is in the company's audit log, by who made it.
      const audit = await call(t, 'GET', `/api/admin/audit?action=settings_changed`, undefined, {
        cookie: a.adminCookie,
      });
      const targets = audit
        .json<{ entries: { target: string; actorEmail: string }[] }>()
        .entries.map((e) => e.target);
      expect(targets).toEqual(
        expect.arrayContaining([
          'budget: module talent-intelligence',
          `budget: every module, ${person}`,
          `budget ${id}: module talent-intelligence`,
        ]),
      );
    });

    it('the admin command sets and shows budgets', async () => {
      const a = await company('scripted:quick');
      const out: string[] = [];
      const err: string[] = [];
      const io = {
        db: t.database.db,
        out: (s: string) => out.push(s),
        err: (s: string) => err.push(s),
      };
      const person = a.people[0]!.user.email;
      expect(
        await runAdmin(
          ['budgets', 'set', a.name, '--module', 'governance', '--tokens', '2000'],
          io,
        ),
      ).toBe(0);
      expect(
        await runAdmin(['budgets', 'set', a.name, '--user', person, '--turns', '12'], io),
      ).toBe(0);
      expect(await runAdmin(['budgets', 'set', a.name, '--turns', '3', '--tokens', '4'], io)).toBe(
        2,
      );
      expect(
        await runAdmin(['budgets', 'set', a.name, '--user', 'nobody@x.com', '--turns', '3'], io),
      ).toBe(1);
      expect(err.join('\n')).toContain('nobody@x.com is not a member of this company');
      await pastTurns(a.people[0]!.user, [300, 500]);
      await pastTurns(a.people[0]!.user, [700], 'governance');
      out.length = 0;
      expect(await runAdmin(['budgets', 'show', a.name], io)).toBe(0);
      const lines = out.join('\n').split('\n');
      expect(lines[0]).toBe(`${a.name}: monthly budgets (they reset on ${'1 December'})`);
      // Governance: 700 tokens of 2000; the person: 3 turns of 12 (both modules).
      expect(lines.slice(1).map((l) => l.replace(/^#\d+ /, ''))).toEqual([
        'module governance: 700 of 2000 tokens used',
        `every module, ${person}: 3 of 12 turns used`,
      ]);
    });
  });

  describe('a send over a budget', () => {
    it('is refused with 429 and the spec words once the company module budget is used up, storing nothing', async () => {
      const a = await company('scripted:quick');
      const { user, cookie, chatId } = a.people[0]!;
      await setBudget(a.adminCookie, { module: 'talent-intelligence', unit: 'turns', limit: 2 });
      for (let i = 0; i < 2; i += 1) {
        const ok = await sendMessage(t, cookie, { chatId, message: `Question ${i}` });
        expect(ok.statusCode).toBe(200);
        await replyClosed(t, chatId);
      }
      const before = await messagesOf(chatId);
      const refused = await sendMessage(t, cookie, { chatId, message: 'One more' });
      expect(refused.statusCode).toBe(429);
      expect(refused.json<{ message: string }>().message).toBe(COMPANY_USED_UP);
      // Nothing half-written: no message, no loading reply, no Log row, no reservation.
      const after = await messagesOf(chatId);
      expect(after).toHaveLength(before.length);
      expect(after.some((m) => m.status === 'loading')).toBe(false);
      expect(await t.database.db.select().from(logs).where(eq(logs.userId, user.id))).toHaveLength(
        2,
      );
      expect(
        await t.database.db
          .select()
          .from(budgetReservations)
          .where(eq(budgetReservations.userId, user.id)),
      ).toEqual([]);
      // Another module of the company is not capped by the Talent Intelligence budget.
      const [gov] = await t.database.db
        .insert(chats)
        .values({ userId: user.id, title: 'Governance Chat', module: 'governance' })
        .returning();
      expect(
        (await sendMessage(t, cookie, { chatId: gov!.id, message: 'Board pack' })).statusCode,
      ).toBe(200);
      await replyClosed(t, gov!.id);
      // Regenerating a reply starts a turn too: refused the same way.
      const regen = await call(t, 'POST', `/api/chats/${chatId}/regenerate`, undefined, { cookie });
      expect(regen.statusCode).toBe(429);
      expect(regen.json<{ message: string }>().message).toBe(COMPANY_USED_UP);
      // The month after, the budget starts again (a session of that day: sessions expire).
      clock.advance(20 * 86_400_000);
      try {
        const december = await signIn(t, user);
        expect(
          (await sendMessage(t, december, { chatId, message: 'December question' })).statusCode,
        ).toBe(200);
        await replyClosed(t, chatId);
      } finally {
        clock.advance(-20 * 86_400_000);
      }
    });

    it("speaks of the person's own limit when that is the one reached; tokens count in and out", async () => {
      const a = await company('scripted:quick', 2);
      const [p1, p2] = a.people;
      await pastTurns(p1!.user, [400, 600]);
      // 1,000 tokens used by p1: their own limit is reached, the company's (tokens) is not.
      await setBudget(a.adminCookie, { email: p1!.user.email, unit: 'tokens', limit: 1_000 });
      await setBudget(a.adminCookie, { unit: 'tokens', limit: 5_000 });
      const refused = await sendMessage(t, p1!.cookie, { chatId: p1!.chatId, message: 'Hi' });
      expect(refused.statusCode).toBe(429);
      expect(refused.json<{ message: string }>().message).toBe(PERSON_USED_UP);
      // p2 is under every limit that applies to them.
      expect(
        (await sendMessage(t, p2!.cookie, { chatId: p2!.chatId, message: 'Hi' })).statusCode,
      ).toBe(200);
      await replyClosed(t, p2!.chatId);
      // The company's limit, once reached, refuses everyone with the company's words.
      await pastTurns(p2!.user, [4_000]);
      const overCompany = await sendMessage(t, p2!.cookie, {
        chatId: p2!.chatId,
        message: 'Again',
      });
      expect(overCompany.statusCode).toBe(429);
      expect(overCompany.json<{ message: string }>().message).toBe(COMPANY_USED_UP);
    });

    it('20 parallel sends through two processes at the limit: at most one turn runs over', async () => {
      const a = await company('scripted:slow', 20);
      // 9 turns of 900 tokens used; 100 left of 8,200: room for part of one more turn.
      const rand = seededRandom(25_070);
      const past = Array.from({ length: 9 }, () => 850 + Math.floor(rand() * 100));
      await pastTurns(a.people[0]!.user, past);
      const used = past.reduce((s, n) => s + n, 0);
      await setBudget(a.adminCookie, { unit: 'tokens', limit: used + 100 });
      const before = runs.length;
      const refused: { statusCode: number; message: string }[] = [];
      const sends = a.people.map((p, i) =>
        sendMessage(i % 2 ? second : t, p.cookie, {
          chatId: p.chatId,
          message: `Parallel ${i}`,
        }).then((r) => {
          // An admitted send streams until its (held) reply ends; a refused one answers at once.
          if (r.statusCode !== 200)
            refused.push({
              statusCode: r.statusCode,
              message: r.json<{ message: string }>().message,
            });
        }),
      );
      // Every send has either been refused or started its turn.
      await waitFor(async () => refused.length + (runs.length - before) >= 20, 30_000);
      expect(runs.length - before).toBe(1);
      expect(refused).toHaveLength(19);
      for (const r of refused) expect(r).toEqual({ statusCode: 429, message: COMPANY_USED_UP });
      // The refused chats hold nothing; the admitted one holds its message and loading reply.
      const rows = await t.database.db
        .select()
        .from(chatMessages)
        .where(
          inArray(
            chatMessages.chatId,
            a.people.map((p) => p.chatId),
          ),
        );
      expect(rows.map((r) => r.status).sort()).toEqual(['complete', 'loading']);
      const reservations = await t.database.db
        .select()
        .from(budgetReservations)
        .where(eq(budgetReservations.companyId, a.id));
      expect(reservations).toHaveLength(1);
      // Its turn settles: the reservation goes when its usage is recorded.
      for (const r of runs) r.release();
      await Promise.all(sends);
      await replyClosed(t, rows[0]!.chatId);
      await waitFor(
        async () =>
          (
            await t.database.db
              .select()
              .from(budgetReservations)
              .where(eq(budgetReservations.companyId, a.id))
          ).length === 0,
      );
    }, 90_000);

    it('turn budgets admit exactly the turns left, in parallel', async () => {
      const a = await company('scripted:slow', 20);
      await pastTurns(a.people[0]!.user, [10, 10, 10, 10, 10]);
      await setBudget(a.adminCookie, { module: 'talent-intelligence', unit: 'turns', limit: 8 });
      const before = runs.length;
      let refused = 0;
      const sends = a.people.map((p, i) =>
        sendMessage(i % 2 ? second : t, p.cookie, { chatId: p.chatId, message: `Turn ${i}` }).then(
          (r) => {
            if (r.statusCode === 429) refused += 1;
          },
        ),
      );
      await waitFor(async () => refused + (runs.length - before) >= 20, 30_000);
      // 5 used of 8: three turns start, seventeen are refused.
      expect(runs.length - before).toBe(3);
      expect(refused).toBe(17);
      for (const r of runs) r.release();
      await Promise.all(sends);
    }, 90_000);
  });

  describe('warnings', () => {
    it("tell the company's admins at 75% and 90%, once each in the month, in the bell and by e-mail", async () => {
      const a = await company('scripted:quick');
      const otherAdmin = await createUser(t.database.db, {
        email: uniqueEmail(a.admin.email.split('@')[1]),
        companyId: a.id,
        role: 'admin',
      });
      const { user, cookie, chatId } = a.people[0]!;
      await setBudget(a.adminCookie, { module: 'talent-intelligence', unit: 'turns', limit: 10 });
      await pastTurns(user, [1, 1, 1, 1, 1, 1]);
      const bell = async (userId: string) =>
        (await t.database.db.select().from(notifications).where(eq(notifications.userId, userId)))
          // The member's own replies finished with no socket open: those are theirs (ADR 0077).
          .filter((n) => n.kind === 'budget_warning')
          .map((n) => n.title)
          .sort();
      const send = async (text: string) => {
        expect((await sendMessage(t, cookie, { chatId, message: text })).statusCode).toBe(200);
        await replyClosed(t, chatId);
      };
      // 7 turns of 10: under 75%, no warning.
      await send('seventh');
      await new Promise((r) => setTimeout(r, 100));
      expect(await bell(a.admin.id)).toEqual([]);
      // 8 of 10 = 80%: the 75% warning, to both admins, not to the member.
      await send('eighth');
      const title75 = '75% of the monthly Talent Intelligence budget used';
      await waitFor(async () => (await bell(otherAdmin.id)).length === 1);
      expect(await bell(a.admin.id)).toEqual([title75]);
      expect(await bell(otherAdmin.id)).toEqual([title75]);
      expect(await bell(user.id)).toEqual([]);
      // 9 of 10: 90%. 10 of 10: nothing more this month.
      await send('ninth');
      await waitFor(async () => (await bell(otherAdmin.id)).length === 2);
      expect(await bell(a.admin.id)).toEqual([
        title75,
        '90% of the monthly Talent Intelligence budget used',
      ]);
      await send('tenth');
      await new Promise((r) => setTimeout(r, 100));
      expect(await bell(a.admin.id)).toHaveLength(2);
      const [n] = await t.database.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, a.admin.id)));
      expect(n!.link).toBe('/admin?tab=budgets');
      // And by e-mail, to each admin, once per threshold.
      await waitFor(
        async () => t.smtp.mails.filter((m) => m.to.includes(otherAdmin.email)).length === 2,
      );
      const subjects = t.smtp.mails
        .filter((m) => m.to.includes(a.admin.email))
        .map((m) => m.subject);
      expect(subjects).toEqual([
        `${a.name} has used 75% of its monthly Talent Intelligence turns budget`,
        `${a.name} has used 90% of its monthly Talent Intelligence turns budget`,
      ]);
    });
  });
});
