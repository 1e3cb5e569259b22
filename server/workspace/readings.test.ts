import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TableReading } from '@contract/reading';
import { ChatDto } from '@contract/chats';
import { StructuredResponse, type ReadingItem } from '@contract/structured-response';
import { aReading, useTestApp } from '../../test-support/server-tests';
import {
  companyWithModel,
  getChat,
  replyClosed,
  sendMessage,
  userWithChat,
} from '../../test-support/conversation';
import { createUser, signIn } from '../../test-support/factories';
import { chats, rememberedReadings } from '../db/schema';

// The "Check how I read this file" card (docs/decisions/0050-corrected-table-readings.md): a file with an unknown header gets
// the card asking for the role the question needs; correcting it stores the reading for the
// company and re-runs the question as a new reply with the right figures; the next file of the
// same layout, sent by anyone in the company, is read that way at once.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const HEADER = 'Employee ID,Zuordnung,Gender,Annual Salary,Hire Date';
type Row = [string, string, string, number, string];
const csvOf = (rows: Row[]) => [HEADER, ...rows.map((r) => r.join(','))].join('\n');
const FIRST: Row[] = [
  ['E1', 'Sales', 'F', 50000, '2020-01-01'],
  ['E2', 'Sales', 'M', 60000, '2021-01-01'],
  ['E3', 'IT', 'F', 70000, '2019-01-01'],
  ['E4', 'IT', 'M', 80000, '2018-01-01'],
  ['E5', 'IT', 'M', 90000, '2022-01-01'],
];
const SECOND: Row[] = [
  ['K1', 'Legal', 'F', 71000, '2020-03-01'],
  ['K2', 'Legal', 'M', 61000, '2021-04-01'],
  ['K3', 'Ops', 'F', 52000, '2019-05-01'],
  ['K4', 'Legal', 'F', 83000, '2018-06-01'],
];
const QUESTION = 'What is the headcount by department?';
/** Headcount per value of the second column, counted here. */
const countsOf = (rows: Row[]) => {
  const out = new Map<string, number>();
  for (const r of rows) out.set(r[1], (out.get(r[1]) ?? 0) + 1);
  return out;
};

function fileMessage(chatId: string, rows: Row[], name = 'staff.csv') {
  return {
    chatId,
    message: [
      { type: 'text', text: QUESTION },
      {
        type: 'file',
        filename: name,
        mimeType: 'text/csv',
        base64: Buffer.from(csvOf(rows)).toString('base64'),
      },
    ],
  };
}

const cardOf = (report: unknown) =>
  StructuredResponse.parse(report).content.find((c) => c.type === 'reading') as
    ReadingItem | undefined;
const textOf = (report: unknown) =>
  StructuredResponse.parse(report)
    .content.map((c) => (c.type === 'text' ? c.text : c.type === 'file' ? c.file_data : ''))
    .join('\n');

describe('the reading card', () => {
  const t = useTestApp();

  it('asks for the role, re-runs with the correction, and reads the next file of the layout at once', async () => {
    const { user, cookie, chat } = await userWithChat(t, 'builtin');
    const sent = await sendMessage(t, cookie, fileMessage(chat.id, FIRST));
    expect(sent.statusCode, sent.body).toBe(200);
    const first = await replyClosed(t, chat.id, 120_000);
    expect(first.status).toBe('complete');
    const card = cardOf(first.structuredResponse)!;
    expect(card.needs).toEqual(['department']);
    expect(textOf(first.structuredResponse)).toMatch(/which column holds the department/);
    const guessed = card.readings[0]!;
    expect(guessed.columns.find((c) => c.name === 'Zuordnung')?.role).toBeNull();

    const corrected: TableReading = {
      ...guessed,
      columns: guessed.columns.map((c) =>
        c.name === 'Zuordnung' ? { ...c, role: 'department' } : c,
      ),
    };
    const post = (who: string, body: unknown, chatId = chat.id) =>
      t.app.inject({
        method: 'POST',
        url: `/api/chats/${chatId}/reading`,
        headers: { cookie: who, 'content-type': 'application/json' },
        payload: body as Record<string, unknown>,
      });

    // Someone else's chat is not found; a bad reading is refused, and nothing is stored.
    const other = await createUser(t.database.db, { companyId: user.companyId });
    const otherCookie = await signIn(t, other);
    expect(
      (await post(otherCookie, { messageId: first.id, readings: [corrected] })).statusCode,
    ).toBe(404);
    const badKey = await post(cookie, {
      messageId: first.id,
      readings: [{ ...corrected, personKey: 'Nope' }],
    });
    expect(badKey.statusCode).toBe(400);
    expect(badKey.json().message).toMatch(/"Nope" is not a column of staff.csv/);
    const twice = await post(cookie, {
      messageId: first.id,
      readings: [
        {
          ...corrected,
          columns: corrected.columns.map((c) =>
            c.name === 'Gender' ? { ...c, role: 'department' } : c,
          ),
        },
      ],
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toMatch(/same role \(department\)/);
    const foreign = await post(cookie, {
      messageId: first.id,
      readings: [{ ...corrected, signature: 'abc' }],
    });
    expect(foreign.statusCode).toBe(400);
    const badRole = await post(cookie, {
      messageId: first.id,
      readings: [{ ...corrected, columns: [{ name: 'Zuordnung', role: 'boss' }] }],
    });
    expect(badRole.statusCode).toBe(400);
    // This company's readings only: other files of a run share the database and store theirs.
    const companyReadings = () =>
      t.database.db
        .select()
        .from(rememberedReadings)
        .where(eq(rememberedReadings.companyId, user.companyId!));
    expect(await companyReadings()).toEqual([]);

    // Confirm and re-run: a new reply, below a copy of the question, with the right figures.
    const res = await post(cookie, { messageId: first.id, readings: [corrected] });
    expect(res.statusCode).toBe(202);
    const rerun = await replyClosed(t, chat.id, 120_000);
    expect(rerun.id).toBe(res.json().replyId);
    const dto = ChatDto.parse((await getChat(t, cookie, chat.id)).json());
    expect(dto.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(dto.messages[2]!.content).toBe(QUESTION);
    const [stored] = await companyReadings();
    const day = `${stored!.confirmedAt.getUTCDate()} ${MONTHS[stored!.confirmedAt.getUTCMonth()]}`;
    const answer = textOf(rerun.structuredResponse);
    for (const [dept, n] of countsOf(FIRST))
      expect(answer).toMatch(new RegExp(`${dept}\\D+${n}\\b`));
    expect(answer).toContain(`Read as you confirmed on ${day}`);
    const after = cardOf(rerun.structuredResponse)!;
    expect(after.needs).toBeUndefined();
    expect(after.readings[0]!.columns.find((c) => c.name === 'Zuordnung')?.role).toBe('department');

    // Another member of the company, a new chat, another file of the same layout: read at once.
    const [chat2] = await t.database.db
      .insert(chats)
      .values({
        userId: other.id,
        title: 'Talent Intelligence Chat',
        module: 'talent-intelligence',
      })
      .returning();
    await sendMessage(t, otherCookie, fileMessage(chat2!.id, SECOND, 'staff_2026-10-31.csv'));
    const second = await replyClosed(t, chat2!.id, 120_000);
    const text2 = textOf(second.structuredResponse);
    expect(cardOf(second.structuredResponse)?.needs).toBeUndefined();
    for (const [dept, n] of countsOf(SECOND))
      expect(text2).toMatch(new RegExp(`${dept}\\D+${n}\\b`));
    expect(text2).toContain(`Read as you confirmed on ${day}`);

    // Confirm without a re-run: stored, no new reply.
    const n = (await getChat(t, cookie, chat.id)).json().messages.length;
    const confirm = await post(cookie, {
      messageId: rerun.id,
      readings: [corrected],
      rerun: false,
    });
    expect(confirm.statusCode).toBe(200);
    expect((await getChat(t, cookie, chat.id)).json().messages).toHaveLength(n);
  }, 300_000);

  it("a confirmed as-of date dates that export's re-run, never the next export of the layout, even under the same name", async () => {
    const { cookie, chat } = await userWithChat(t, 'builtin');
    await sendMessage(t, cookie, fileMessage(chat.id, FIRST));
    const first = await replyClosed(t, chat.id, 120_000);
    const guessed = cardOf(first.structuredResponse)!.readings[0]!;
    expect(guessed.asOf).not.toBe('2025-12-31');
    const corrected: TableReading = {
      ...guessed,
      asOf: '2025-12-31',
      // What the request says of the bytes does not count: the card's digest is stored.
      fileDigest: 'forged',
      columns: guessed.columns.map((c) =>
        c.name === 'Zuordnung' ? { ...c, role: 'department' } : c,
      ),
    };
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/chats/${chat.id}/reading`,
      headers: { cookie, 'content-type': 'application/json' },
      payload: { messageId: first.id, readings: [corrected] },
    });
    expect(res.statusCode, res.body).toBe(202);
    const rerun = await replyClosed(t, chat.id, 120_000);
    expect(cardOf(rerun.structuredResponse)!.readings[0]!.asOf).toBe('2025-12-31');

    // Next month's export keeps its name; its own dates decide its as-of date.
    await sendMessage(t, cookie, fileMessage(chat.id, SECOND));
    const next = await replyClosed(t, chat.id, 120_000);
    const reading = cardOf(next.structuredResponse)!.readings[0]!;
    expect(reading.columns.find((c) => c.name === 'Zuordnung')?.role).toBe('department');
    expect(reading.asOf).not.toBe('2025-12-31');
  }, 300_000);

  it('lists and deletes remembered readings for the company admins only', async () => {
    const companyId = await companyWithModel(t.database.db, 'builtin');
    const otherCompany = await companyWithModel(t.database.db, 'builtin');
    const member = await createUser(t.database.db, { companyId });
    const admin = await createUser(t.database.db, { companyId, role: 'admin' });
    const otherAdmin = await createUser(t.database.db, { companyId: otherCompany, role: 'admin' });
    const operator = await createUser(t.database.db, { companyId: otherCompany, role: 'operator' });
    const reading = aReading({ columns: [{ name: 'Kst', role: 'department' }] });
    const [row] = await t.database.db
      .insert(rememberedReadings)
      .values({
        companyId,
        signature: 'sig-1',
        reading,
        confirmedBy: member.id,
        confirmedAt: new Date('2026-11-12T10:00:00Z'),
      })
      .returning();
    const get = async (who: { id: string }, url: string, method: 'GET' | 'DELETE' = 'GET') =>
      t.app.inject({ method, url, headers: { cookie: await signIn(t, who) } });

    // Signed out: 401 for the list, the delete and the card's own route; nothing goes.
    for (const [method, url] of [
      ['GET', '/api/admin/readings'],
      ['DELETE', `/api/admin/readings/${row!.id}`],
      ['POST', `/api/chats/00000000-0000-4000-8000-000000000000/reading`],
    ] as const)
      expect(
        (await t.app.inject({ method, url, payload: method === 'POST' ? {} : undefined }))
          .statusCode,
      ).toBe(401);
    expect(
      await t.database.db
        .select()
        .from(rememberedReadings)
        .where(eq(rememberedReadings.id, row!.id)),
    ).toHaveLength(1);
    expect((await get(member, '/api/admin/readings')).statusCode).toBe(403);
    const listed = await get(admin, '/api/admin/readings');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().readings).toEqual([
      {
        id: row!.id,
        signature: 'sig-1',
        fileName: 'staff.csv',
        sheet: null,
        columns: [{ name: 'Kst', role: 'department' }],
        confirmedBy: member.email,
        confirmedAt: '2026-11-12T10:00:00.000Z',
      },
    ]);
    expect((await get(otherAdmin, `/api/admin/readings?company=${companyId}`)).statusCode).toBe(
      404,
    );
    expect((await get(otherAdmin, '/api/admin/readings')).json().readings).toEqual([]);
    expect((await get(otherAdmin, `/api/admin/readings/${row!.id}`, 'DELETE')).statusCode).toBe(
      404,
    );
    expect(
      (await get(operator, `/api/admin/readings?company=${companyId}`)).json().readings,
    ).toHaveLength(1);
    expect((await get(member, `/api/admin/readings/${row!.id}`, 'DELETE')).statusCode).toBe(403);
    const deleted = await get(admin, `/api/admin/readings/${row!.id}`, 'DELETE');
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().readings).toEqual([]);
    expect((await get(admin, `/api/admin/readings/${row!.id}`, 'DELETE')).statusCode).toBe(404);
  });
});
