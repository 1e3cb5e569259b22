import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import type { MemberRetentionAnswer, RetentionAnswer } from '@contract/retention';
import { call } from '../../test-support/accounts';
import { openTestDatabase, uniqueEmail } from '../../test-support/app';
import { useTestApp } from '../../test-support/server-tests';
import { createUser, signIn } from '../../test-support/factories';
import { runAdmin } from '../admin/commands';
import type { Database } from '../db/connect';
import {
  auditLog,
  chatMessages,
  chats,
  companies,
  legalHolds,
  messageAttachments,
  retentionPolicies,
  savedFiles,
  type User,
} from '../db/schema';
import { ManualClock } from '../lib/clock';
import { chatsDueForDeletion, purgeRetention, RETENTION_LOCK_KEY } from './retention-purge';

// Retention (ADRs 0071, 0073) with a clock the test moves: the console's routes for each role,
// the members' note, the purge deleting exactly the chats past their limit (held ones stay) with
// their messages, attachments, saved files and search entries, its audit rows, the admin command,
// and two processes racing the purge.

const tag = () => randomBytes(3).toString('hex');
const DAY = 24 * 60 * 60_000;
// Far ahead: on a PostgreSQL shared by the run's test files, another file's server purging on the
// real clock never finds these chats past their limit.
const NOW = new Date('2100-11-15T10:00:00Z');
const ago = (days: number, from = NOW) => new Date(from.getTime() - days * DAY);

describe('retention', () => {
  const clock = new ManualClock(NOW);

  const t = useTestApp({ clock });

  async function company() {
    const db = t.database.db;
    const domain = `r-${tag()}.com`;
    const [c] = await db
      .insert(companies)
      .values({ name: `Retention Co ${tag()}` })
      .returning();
    const admin = await createUser(db, {
      email: uniqueEmail(domain),
      companyId: c!.id,
      role: 'admin',
    });
    const member = () => createUser(db, { email: uniqueEmail(domain), companyId: c!.id });
    return { id: c!.id, name: c!.name, admin, member };
  }

  /** A chat last active `days` ago, with messages (searchable text), attachments and files. */
  async function chat(
    user: User,
    module: string,
    days: number,
    content: { messages?: string[]; attachments?: number; files?: number } = {},
    from = clock.now(),
  ): Promise<string> {
    const db = t.database.db;
    const at = ago(days, from);
    const [c] = await db
      .insert(chats)
      .values({ userId: user.id, title: `Chat ${tag()}`, module, createdAt: at, updatedAt: at })
      .returning();
    const messages = content.messages ?? [];
    const rows = messages.length
      ? await db
          .insert(chatMessages)
          .values(
            messages.map((text, i) => ({
              chatId: c!.id,
              seq: i + 1,
              role: i % 2 ? 'assistant' : 'user',
              content: text,
              searchText: text,
              timestamp: at,
            })),
          )
          .returning()
      : [];
    for (let i = 0; i < (content.attachments ?? 0); i += 1)
      await db.insert(messageAttachments).values({
        chatId: c!.id,
        userId: user.id,
        messageId: rows[0]?.id ?? null,
        fileName: `cv-${i}.txt`,
        size: 5,
        data: Buffer.from('hello'),
      });
    for (let i = 0; i < (content.files ?? 0); i += 1)
      await db
        .insert(savedFiles)
        .values({ chatId: c!.id, userId: user.id, fileName: `note-${i}.md`, fileContent: '# n' });
    return c!.id;
  }

  const setPolicy = (cookie: string, body: unknown, companyId?: number) =>
    call(t, 'PUT', `/api/admin/retention${companyId ? `?company=${companyId}` : ''}`, body, {
      cookie,
    });

  /** Brand Hub chats kept 5 days in company `companyId`, and `n` chats of `userId` 6 days old. */
  async function brandHubKeptFiveDaysWithOldChats(companyId: number, userId: string, n: number) {
    await t.database.db
      .insert(retentionPolicies)
      .values({ companyId, module: 'brand-hub', days: 5 });
    await t.database.db.insert(chats).values(
      Array.from({ length: n }, (_, i) => ({
        userId,
        title: `Old ${i}`,
        module: 'brand-hub',
        createdAt: ago(6, clock.now()),
        updatedAt: ago(6, clock.now()),
      })),
    );
  }

  const exists = async (ids: string[]) =>
    (await t.database.db.select({ id: chats.id }).from(chats).where(inArray(chats.id, ids))).map(
      (r) => r.id,
    );

  it('the console: a member is refused, an admin sets their own company, another company is not found, an operator names one', async () => {
    const a = await company();
    const b = await company();
    const member = await a.member();
    const memberCookie = await signIn(t, member);
    const adminA = await signIn(t, a.admin);
    const adminB = await signIn(t, b.admin);
    const operator = await signIn(
      t,
      await createUser(t.database.db, { email: uniqueEmail(), companyId: null, role: 'operator' }),
    );

    expect((await call(t, 'GET', '/api/admin/retention')).statusCode).toBe(401);
    expect(
      (await call(t, 'GET', '/api/admin/retention', undefined, { cookie: memberCookie }))
        .statusCode,
    ).toBe(403);
    expect(
      (await setPolicy(memberCookie, { module: 'talent-intelligence', days: 90 })).statusCode,
    ).toBe(403);

    const fresh = await call(t, 'GET', '/api/admin/retention', undefined, { cookie: adminA });
    expect(fresh.statusCode).toBe(200);
    expect((fresh.json() as RetentionAnswer).policies).toEqual([
      { module: 'brand-hub', days: null },
      { module: 'governance', days: null },
      { module: 'talent-intelligence', days: null },
    ]);
    // Members see nothing while chats are kept for ever.
    const before = await call(t, 'GET', '/api/retention', undefined, { cookie: memberCookie });
    expect((before.json() as MemberRetentionAnswer).policies).toEqual([]);

    const set = await setPolicy(adminA, { module: 'talent-intelligence', days: 90 });
    expect(set.statusCode).toBe(200);
    expect((set.json() as RetentionAnswer).policies[2]).toEqual({
      module: 'talent-intelligence',
      days: 90,
    });
    const note = await call(t, 'GET', '/api/retention', undefined, { cookie: memberCookie });
    expect(note.json()).toEqual({ policies: [{ module: 'talent-intelligence', days: 90 }] });
    // Another company's member reads their own company's rules (none); signed out is 401.
    const otherMember = await signIn(t, await b.member());
    expect(
      (await call(t, 'GET', '/api/retention', undefined, { cookie: otherMember })).json(),
    ).toEqual({ policies: [] });
    expect((await call(t, 'GET', '/api/retention')).statusCode).toBe(401);

    // Bad values: the field's message, nothing written.
    for (const [days, message] of [
      [0, 'Chats are kept at least 1 day'],
      [3651, 'Chats are kept at most 3650 days (or for ever)'],
      [1.5, 'Days are a whole number'],
    ] as const) {
      const bad = await setPolicy(adminA, { module: 'talent-intelligence', days });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe(message);
    }
    const badModule = await setPolicy(adminA, { module: 'payroll', days: 5 });
    expect(badModule.statusCode).toBe(400);

    // Another company's admin: 404, for reading, setting and holds.
    expect(
      (await call(t, 'GET', `/api/admin/retention?company=${a.id}`, undefined, { cookie: adminB }))
        .statusCode,
    ).toBe(404);
    expect((await setPolicy(adminB, { module: 'governance', days: 1 }, a.id)).statusCode).toBe(404);
    const [policy] = await t.database.db
      .select()
      .from(retentionPolicies)
      .where(eq(retentionPolicies.companyId, a.id));
    expect(policy).toMatchObject({ module: 'talent-intelligence', days: 90 });

    // The operator reads and sets it by ?company=.
    const op = await call(t, 'GET', `/api/admin/retention?company=${a.id}`, undefined, {
      cookie: operator,
    });
    expect((op.json() as RetentionAnswer).company).toEqual({ id: a.id, name: a.name });
    const forever = await setPolicy(operator, { module: 'talent-intelligence', days: null }, a.id);
    expect((forever.json() as RetentionAnswer).policies[2]!.days).toBeNull();
    const after = await call(t, 'GET', '/api/retention', undefined, { cookie: memberCookie });
    expect(after.json()).toEqual({ policies: [] });

    // Legal holds: a person of the company or a chat of one of its people, nobody else's.
    const outsider = await b.member();
    const notMember = await call(
      t,
      'POST',
      '/api/admin/retention/holds',
      { email: outsider.email },
      { cookie: adminA },
    );
    expect(notMember.statusCode).toBe(400);
    expect(notMember.json().message).toBe(`${outsider.email} is not a member of this company`);
    const outsiderChat = await chat(outsider, 'talent-intelligence', 1);
    expect(
      (
        await call(
          t,
          'POST',
          '/api/admin/retention/holds',
          { chatId: outsiderChat },
          {
            cookie: adminA,
          },
        )
      ).statusCode,
    ).toBe(404);
    const both = await call(
      t,
      'POST',
      '/api/admin/retention/holds',
      { email: member.email, chatId: outsiderChat },
      { cookie: adminA },
    );
    expect(both.statusCode).toBe(400);
    expect(both.json().message).toBe('Name a person (email) or a chat (chatId), one of them');

    const held = await call(
      t,
      'POST',
      '/api/admin/retention/holds',
      { email: member.email, reason: 'Tribunal case 42' },
      { cookie: adminA },
    );
    expect(held.statusCode).toBe(200);
    const [hold] = (held.json() as RetentionAnswer).holds;
    expect(hold).toMatchObject({
      kind: 'person',
      userEmail: member.email,
      reason: 'Tribunal case 42',
      createdByEmail: a.admin.email,
    });
    const again = await call(
      t,
      'POST',
      '/api/admin/retention/holds',
      { email: member.email },
      { cookie: adminA },
    );
    expect(again.statusCode).toBe(400);
    expect(
      (
        await call(t, 'DELETE', `/api/admin/retention/holds/${hold!.id}`, undefined, {
          cookie: adminB,
        })
      ).statusCode,
    ).toBe(404);
    const lifted = await call(t, 'DELETE', `/api/admin/retention/holds/${hold!.id}`, undefined, {
      cookie: adminA,
    });
    expect((lifted.json() as RetentionAnswer).holds).toEqual([]);

    // Every change is in the company's audit log.
    const audit = await t.database.db
      .select({ target: auditLog.target, detail: auditLog.detail })
      .from(auditLog)
      .where(and(eq(auditLog.companyId, a.id), eq(auditLog.action, 'settings_changed')));
    expect(audit).toEqual([
      {
        target: 'retention: talent-intelligence',
        detail: 'Talent Intelligence chats deleted 90 days after their last activity',
      },
      {
        target: 'retention: talent-intelligence',
        detail: 'Talent Intelligence chats kept for ever',
      },
      { target: `legal hold: person ${member.email}`, detail: 'Tribunal case 42' },
      { target: `legal hold: person ${member.email}`, detail: 'lifted' },
    ]);
  });

  it('the purge deletes exactly the chats past the limit, with their messages, attachments, files and search entries; held ones stay', async () => {
    const a = await company();
    const b = await company();
    const [ada, bob, held] = [await a.member(), await a.member(), await a.member()];
    const other = await b.member();
    const adminA = await signIn(t, a.admin);
    expect((await setPolicy(adminA, { module: 'talent-intelligence', days: 30 })).statusCode).toBe(
      200,
    );
    const word = `zephyrine${tag()}`;
    const content = {
      messages: [`Who leads the ${word} project?`, `The ${word} project is led by Dana.`, 'Thanks'],
      attachments: 1,
      files: 1,
    };
    const old1 = await chat(ada, 'talent-intelligence', 31, content);
    const old2 = await chat(bob, 'talent-intelligence', 45, { messages: ['Hello'] });
    const edge = await chat(ada, 'talent-intelligence', 29, { messages: ['Recent enough'] });
    const governance = await chat(ada, 'governance', 400, { messages: ['Kept for ever'] });
    const chatHeld = await chat(bob, 'talent-intelligence', 100, { messages: ['Evidence'] });
    const personHeld = await chat(held, 'talent-intelligence', 100, { messages: ['Mine'] });
    const otherCompany = await chat(other, 'talent-intelligence', 100, { messages: ['B'] });
    for (const body of [{ chatId: chatHeld }, { email: held.email }])
      expect(
        (await call(t, 'POST', '/api/admin/retention/holds', body, { cookie: adminA })).statusCode,
      ).toBe(200);

    const adaCookie = await signIn(t, ada);
    const search = async () =>
      (
        await call(t, 'GET', `/api/chats/search?q=${word}`, undefined, { cookie: adaCookie })
      ).json() as Array<{ chatId: string }>;
    expect([...new Set((await search()).map((h) => h.chatId))]).toEqual([old1]);

    // Within 7 days: the edge chat (due tomorrow) joins them, for its owner; held ones never.
    const upcoming = await chatsDueForDeletion(t.database.db, clock.now());
    expect(upcoming.get(ada.id)?.map((c) => c.chatId)).toEqual([old1, edge]);
    expect(upcoming.get(ada.id)?.[1]?.deletesAt).toBe(
      new Date(ago(29).getTime() + 30 * DAY).toISOString(),
    );
    expect(upcoming.get(bob.id)?.map((c) => c.chatId)).toEqual([old2]);
    expect(upcoming.has(held.id)).toBe(false);
    expect(upcoming.has(other.id)).toBe(false);

    const recent = async () =>
      (
        (
          await call(t, 'GET', '/api/chats?module=talent-intelligence', undefined, {
            cookie: adaCookie,
          })
        ).json() as Array<{ id: string }>
      ).map((c) => c.id);
    expect((await recent()).sort()).toEqual([old1, edge].sort());

    const result = await purgeRetention(t.database, clock);
    const mine = result.ran ? result.groups.filter((g) => g.companyId === a.id) : [];
    // What was inserted above: old1 (3 messages, 1 attachment, 1 file) and old2 (1 message).
    expect(mine).toEqual([
      {
        companyId: a.id,
        companyName: a.name,
        module: 'talent-intelligence',
        days: 30,
        chats: 2,
        messages: 4,
        attachments: 1,
        savedFiles: 1,
      },
    ]);
    expect(await exists([old1, old2])).toEqual([]);
    expect((await exists([edge, governance, chatHeld, personHeld, otherCompany])).sort()).toEqual(
      [edge, governance, chatHeld, personHeld, otherCompany].sort(),
    );
    const db = t.database.db;
    expect(
      await db
        .select()
        .from(chatMessages)
        .where(inArray(chatMessages.chatId, [old1, old2])),
    ).toEqual([]);
    expect(
      await db.select().from(messageAttachments).where(eq(messageAttachments.chatId, old1)),
    ).toEqual([]);
    expect(await db.select().from(savedFiles).where(eq(savedFiles.chatId, old1))).toEqual([]);
    expect(await search()).toEqual([]);
    // The Recent list (cached per process) no longer shows it.
    expect(await recent()).toEqual([edge]);
    expect(
      (await call(t, 'GET', `/api/chats/${old1}`, undefined, { cookie: adaCookie })).statusCode,
    ).toBe(404);

    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, a.id), eq(auditLog.action, 'retention_purged')));
    expect(audit).toMatchObject({
      target: 'retention: Talent Intelligence',
      detail:
        '2 chats, 4 messages, 1 attachment, 1 saved file deleted (kept 30 days after their last activity)',
    });

    // The daily run does not start again within a day.
    expect(await purgeRetention(t.database, clock, { daily: true })).toMatchObject({
      ran: false,
      reason: 'not-due',
    });
    // Two days on, the edge chat is past its 30 days; the held ones still stay.
    clock.advance(2 * DAY);
    const later = await purgeRetention(t.database, clock, { daily: true });
    expect(later.ran && later.groups.find((g) => g.companyId === a.id)?.chats).toBe(1);
    expect(await exists([edge])).toEqual([]);
    expect((await exists([chatHeld, personHeld])).length).toBe(2);
    // Lifting the hold on the chat lets the next purge take it.
    await db.delete(legalHolds).where(eq(legalHolds.chatId, chatHeld));
    await purgeRetention(t.database, clock);
    expect(await exists([chatHeld, personHeld])).toEqual([personHeld]);
  });

  it('retention set and purge from the admin command', async () => {
    const a = await company();
    const ada = await a.member();
    const lines: string[] = [];
    const io = {
      db: t.database.db,
      database: t.database,
      out: (s: string) => lines.push(s),
      err: (s: string) => lines.push(`ERR ${s}`),
    };
    expect(
      await runAdmin(['retention', 'set', a.name, '--module', 'governance', '--days', '10'], io),
    ).toBe(0);
    expect(lines.pop()).toBe(
      `Retention set for ${a.name}: Governance chats deleted 10 days after their last activity.`,
    );
    expect(await runAdmin(['retention', 'set', a.name, '--module', 'governance'], io)).toBe(2);
    expect(lines.pop()).toMatch(/^ERR error: Give --days N or --forever/);
    expect(
      await runAdmin(['retention', 'set', a.name, '--module', 'governance', '--days', '0'], io),
    ).toBe(1);
    expect(lines.pop()).toBe('ERR error: days: Chats are kept at least 1 day');

    // The command runs on the system's clock.
    const gone = await chat(ada, 'governance', 11, { messages: ['a', 'b'], files: 1 }, new Date());
    const kept = await chat(ada, 'governance', 9, { messages: ['c'] }, new Date());
    expect(await runAdmin(['retention', 'purge'], io)).toBe(0);
    const printed = lines.pop()!;
    expect(printed).toContain(
      `  ${a.name}, Governance (10 days): 1 chat, 2 messages, 0 attachments, 1 saved file deleted`,
    );
    expect(await exists([gone, kept])).toEqual([kept]);

    expect(
      await runAdmin(['retention', 'set', a.name, '--module', 'governance', '--forever'], io),
    ).toBe(0);
    expect(lines.pop()).toBe(`Retention set for ${a.name}: Governance chats kept for ever.`);
  });

  it('requests are answered while a long purge runs (batches of 500, each its own transaction)', async () => {
    const a = await company();
    const ada = await a.member();
    const reader = await a.member();
    const readerCookie = await signIn(t, reader);
    const kept = await chat(reader, 'governance', 1, { messages: ['Still here'] });
    const n = 2_600;
    await brandHubKeptFiveDaysWithOldChats(a.id, ada.id, n);
    // One message each: not the empty chats the list calls' own sweep tidies away.
    await t.database.db.execute(
      sql`insert into chat_messages (chat_id, seq, role, content)
          select id, 1, 'user', '"Old question"'::jsonb from chats where user_id = ${ada.id}`,
    );
    let purgeDone = false;
    const purge = purgeRetention(t.database, clock).then((r) => {
      purgeDone = true;
      return r;
    });
    const list = await call(t, 'GET', '/api/chats?module=governance', undefined, {
      cookie: readerCookie,
    });
    expect(list.statusCode).toBe(200);
    expect((list.json() as Array<{ id: string }>).map((c) => c.id)).toEqual([kept]);
    expect(purgeDone).toBe(false);
    const r = await purge;
    expect(r.ran && r.groups.find((g) => g.companyId === a.id)).toMatchObject({
      chats: n,
      messages: n,
    });
  });

  it('two purges racing delete each chat once, and a purge held off by the lock does nothing', async () => {
    const a = await company();
    const ada = await a.member();
    // More than two batches, so the two runs overlap.
    const n = 1_100;
    await brandHubKeptFiveDaysWithOldChats(a.id, ada.id, n);
    // A second process: its own connections to the same PostgreSQL; PGlite is one process.
    const onPostgres = t.database.kind === 'postgres';
    const second: Database = onPostgres ? await openTestDatabase() : t.database;
    try {
      const [r1, r2] = await Promise.all([
        purgeRetention(t.database, clock),
        purgeRetention(second, clock),
      ]);
      const deleted = [r1, r2].map((r) =>
        r.ran ? (r.groups.find((g) => g.companyId === a.id)?.chats ?? 0) : 0,
      );
      expect(deleted.reduce((x, y) => x + y, 0)).toBe(n);
      // One of them did the work: the other was held off (or came after and found nothing).
      expect(deleted.sort((x, y) => x - y)).toEqual([0, n]);
      const audit = await t.database.db
        .select({ detail: auditLog.detail })
        .from(auditLog)
        .where(and(eq(auditLog.companyId, a.id), eq(auditLog.action, 'retention_purged')));
      expect(audit).toEqual([
        {
          detail: `${n} chats, 0 messages, 0 attachments, 0 saved files deleted (kept 5 days after their last activity)`,
        },
      ]);
      const left = await t.database.db.select().from(chats).where(eq(chats.userId, ada.id));
      expect(left).toEqual([]);

      if (onPostgres) {
        // Another process holding the advisory lock: the purge does nothing until it lets go.
        const waiting = await chat(ada, 'brand-hub', 6);
        const holder = new pg.Client({ connectionString: inject('testDatabaseUrl')! });
        await holder.connect();
        try {
          await holder.query('select pg_advisory_lock($1)', [RETENTION_LOCK_KEY]);
          expect(await purgeRetention(t.database, clock)).toMatchObject({
            ran: false,
            reason: 'running',
          });
          expect(await exists([waiting])).toEqual([waiting]);
          await holder.query('select pg_advisory_unlock($1)', [RETENTION_LOCK_KEY]);
          expect((await purgeRetention(t.database, clock)).totals.chats).toBeGreaterThanOrEqual(1);
          expect(await exists([waiting])).toEqual([]);
        } finally {
          await holder.end();
        }
      }
    } finally {
      if (second !== t.database) await second.close();
    }
  });
});
