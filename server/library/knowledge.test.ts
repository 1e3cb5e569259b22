import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatDto } from '@contract/chats';
import type { LibraryDocumentDto } from '@contract/library';
import { createTestApp, uniqueEmail, type TestApp } from '../../test-support/app';
import { getChat, replyClosed, sendMessage } from '../../test-support/conversation';
import { createUser, signIn } from '../../test-support/factories';
import { b64, brandGuide, libraryPassages, uploadToLibrary } from '../../test-support/library';
import {
  startOpenAiFixture,
  textReply,
  toolCallReply,
  type OpenAiFixture,
} from '../../test-support/openai-fixture';
import { addCompany } from '../admin/companies';
import type { KnowledgeResult } from '../analyst/tools/knowledge';
import { closeToolPool } from '../analyst/tools/runner';
import { chats, companies } from '../db/schema';
import { eq } from 'drizzle-orm';
import { readPassages } from './library.service';

// Every model searches the company library (search_knowledge, ADR 0069): the builtin's copy
// review applies the library's brand guidelines and cites them; a real model (the fake model
// server) calls the tool, is told the titles, and can cite only passages it received; a company
// never gets another's passages.

const tag = () => randomBytes(3).toString('hex');

const COPY =
  'Review this copy for our brand voice: "Our ninja team ships awesome rockstar features every week for you."';

type Person = { cookie: string; companyId: number; userId: string };

describe('search_knowledge', () => {
  let t: TestApp;
  let upstream: OpenAiFixture;
  const people: Record<string, Person> = {};

  const person = async (key: string, companyId: number, role: 'member' | 'admin') => {
    const user = await createUser(t.database.db, {
      email: uniqueEmail(`k${tag()}.com`),
      companyId,
      role,
    });
    people[key] = { cookie: await signIn(t, user), companyId, userId: user.id };
  };
  const company = async (name: string, model: string) => {
    const c = await addCompany(t.database.db, { name: `${name} ${tag()}` });
    await t.database.db
      .update(companies)
      .set({ brandHubModel: model, governanceModel: model, talentIntelligenceModel: model })
      .where(eq(companies.id, c.id));
    return c.id;
  };
  const upload = (who: string, fileName: string, text: string, module = 'brand-hub') =>
    uploadToLibrary(t, people[who]!.cookie, module, fileName, text);
  const passagesOf = (who: string, doc: LibraryDocumentDto) =>
    libraryPassages(t, people[who]!.cookie, doc);
  const newChat = async (
    who: string,
    module: 'brand-hub' | 'governance' | 'talent-intelligence' = 'brand-hub',
  ) => {
    const userId = people[who]!.userId;
    const [chat] = await t.database.db
      .insert(chats)
      .values({ userId, title: 'Chat', module })
      .returning();
    return chat!.id;
  };
  const ask = async (who: string, chatId: string, message: string) => {
    const res = await sendMessage(t, people[who]!.cookie, { chatId, message });
    expect(res.statusCode, res.body).toBeLessThan(300);
    const reply = await replyClosed(t, chatId, 60_000);
    expect(reply.status, String(reply.content)).toBe('complete');
    const dto = ChatDto.parse((await getChat(t, people[who]!.cookie, chatId)).json());
    const last = dto.messages.at(-1)!;
    return JSON.stringify(last.structuredResponse ?? last.content);
  };

  beforeAll(async () => {
    upstream = await startOpenAiFixture();
    t = await createTestApp({
      env: { OPENAI_BASE_URL: upstream.baseUrl, OPENAI_API_KEY: 'sk-library' },
    });
    const A = await company('Knowledge A', 'builtin');
    const B = await company('Knowledge B', 'builtin');
    const C = await company('Knowledge C', 'openai:library-model');
    await person('adminA', A, 'admin');
    await person('memberA', A, 'member');
    await person('adminB', B, 'admin');
    await person('memberB', B, 'member');
    await person('adminC', C, 'admin');
    await person('memberC', C, 'member');
    await readPassages('warm-up.txt', 'text/plain', Buffer.from('Warm up'));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
    await closeToolPool();
  });

  it("a copy review without attachments applies the library's banned words and cites them; a replaced guideline is used in its new version from the next turn", async () => {
    const v1 = await upload('adminA', 'Brand guidelines.md', brandGuide('ninja, rockstar'));
    // B's guidelines are similar, with its own banned word: never applied to A's copy.
    await upload('adminB', 'Brand guidelines.md', brandGuide('weekly'));
    const chatId = await newChat('memberA');

    const first = await ask('memberA', chatId, COPY);
    const banned = (await passagesOf('memberA', v1)).find((p) => p.text.includes('ninja'))!;
    const link = `/brand-hub?library=${v1.id}&version=1&passage=${banned.id}`;
    expect(first).toContain('Brand guidelines v1');
    expect(first).toContain('company library');
    // The banned words are the library's, each cited with a link to the passage that bans it.
    expect(first).toContain(`\\"ninja\\" ([${banned.citation}](${link}))`);
    expect(first).toContain(`\\"rockstar\\" ([${banned.citation}](${link}))`);
    expect(first).not.toContain('\\"awesome\\" (');
    expect(first).not.toMatch(/\\"weekly\\" \(/);

    // A new version bans "awesome" too: the next turn applies and cites version 2.
    const v2 = await upload(
      'adminA',
      'Brand guidelines.md',
      brandGuide('ninja, rockstar, awesome'),
    );
    expect(v2.version).toBe(2);
    const second = await ask('memberA', chatId, COPY);
    const banned2 = (await passagesOf('memberA', v2)).find((p) => p.text.includes('awesome'))!;
    const link2 = `/brand-hub?library=${v2.id}&version=2&passage=${banned2.id}`;
    expect(second).toContain('Brand guidelines v2');
    expect(second).toContain(`\\"awesome\\" ([${banned2.citation}](${link2}))`);
    expect(second).not.toContain('version=1&');
  }, 120_000);

  it('an attached guideline wins over the library, and the report says so', async () => {
    const chatId = await newChat('memberA');
    const res = await sendMessage(t, people.memberA!.cookie, {
      chatId,
      message: [
        { type: 'text', text: COPY },
        {
          type: 'file',
          filename: 'Brand guidelines draft.md',
          mimeType: 'text/markdown',
          base64: b64(brandGuide('features')),
        },
      ],
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    const reply = await replyClosed(t, chatId, 60_000);
    const text = JSON.stringify(reply.structuredResponse ?? reply.content);
    expect(text).toContain('an attachment wins over the company library');
    expect(text).toMatch(/\*\*Brand guidelines v\d\*\* in the library was not used/);
    expect(text).not.toContain('?library=');
  }, 120_000);

  it('a policy review sets the related policies of the library beside it, cited', async () => {
    const travel = await upload(
      'adminA',
      'Travel policy.md',
      '# Travel policy\n\n## 3 Expenses\nHotel and flight expenses need a receipt and manager approval within 30 days.\n',
      'governance',
    );
    const chatId = await newChat('memberA', 'governance');
    const res = await sendMessage(t, people.memberA!.cookie, {
      chatId,
      message: [
        { type: 'text', text: 'Review this expenses policy' },
        {
          type: 'file',
          filename: 'Expenses policy.md',
          mimeType: 'text/markdown',
          base64: b64(
            '# Expenses policy\n\n## 1 Purpose\nStaff claim expenses for hotel and flight costs.\n\n## 2 Approval\nA manager approves each claim.\n',
          ),
        },
      ],
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    const reply = await replyClosed(t, chatId, 60_000);
    const text = JSON.stringify(reply.structuredResponse ?? reply.content);
    const [expenses] = (await passagesOf('memberA', travel)).filter((p) =>
      p.text.includes('receipt'),
    );
    expect(text).toContain('Related policies and regulations in your library');
    expect(text).toContain(
      `[${expenses!.citation}](/governance?library=${travel.id}&version=1&passage=${expenses!.id})`,
    );
  }, 120_000);

  it("a band check applies the pay bands of the library in their latest version, cited; never another company's", async () => {
    /** The company's "Pay bands 2026.csv", uploaded by its admin: [grade, minimum, maximum]. */
    const uploadBands = (admin: 'adminA' | 'adminB', bands: Array<[string, number, number]>) =>
      upload(
        admin,
        'Pay bands 2026.csv',
        [
          'Grade,Minimum,Midpoint,Maximum',
          ...bands.map(([g, mn, mx]) => `${g},${mn},${(mn + mx) / 2},${mx}`),
        ].join('\n'),
        'talent-intelligence',
      );
    const current: Array<[string, number, number]> = [
      ['G1', 25000, 32000],
      ['G2', 35000, 45000],
    ];
    await uploadBands('adminA', [
      ['G1', 20000, 30000],
      ['G2', 30000, 40000],
    ]);
    const v2 = await uploadBands('adminA', current);
    expect(v2.version).toBe(2);
    // B's bands would put nobody outside: never applied to A's check.
    await uploadBands('adminB', [
      ['G1', 1000, 900000],
      ['G2', 1000, 900000],
    ]);
    const staff: Array<[string, number]> = [
      ['G1', 22000],
      ['G1', 26000],
      ['G1', 31000],
      ['G1', 33000],
      ['G2', 34000],
      ['G2', 36000],
      ['G2', 44000],
      ['G2', 46000],
      ['G2', 47000],
    ];
    const exportCsv = [
      'Employee ID,Name,Department,Grade,Hire Date,Salary',
      ...staff.map(
        ([g, s], i) => `E${i + 1},Person ${i + 1},Sales,${g},2020-01-0${(i % 9) + 1},${s}`,
      ),
    ].join('\n');
    const chatId = await newChat('memberA', 'talent-intelligence');
    const res = await sendMessage(t, people.memberA!.cookie, {
      chatId,
      message: [
        { type: 'text', text: 'Check our salary bands: who is paid outside their band?' },
        { type: 'file', filename: 'hr-export.csv', mimeType: 'text/csv', base64: b64(exportCsv) },
      ],
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    const reply = await replyClosed(t, chatId, 60_000);
    const text = JSON.stringify(reply.structuredResponse ?? reply.content);
    const [table] = await passagesOf('memberA', v2);
    expect(text).toContain(
      `Bands from Pay bands 2026 v2 in the company library ([${table!.citation}](/talent-intelligence?library=${v2.id}&version=2&passage=${table!.id}))`,
    );
    const below = staff.filter(([g, s]) => s < current.find((b) => b[0] === g)![1]).length;
    const above = staff.filter(([g, s]) => s > current.find((b) => b[0] === g)![2]).length;
    expect(text).toContain(
      `**${below + above} people** paid outside their band (${below} below the minimum, ${above} above the maximum)`,
    );
  }, 120_000);

  it('a real model is told the titles, searches its own company only, and cites only passages it received', async () => {
    const doc = await upload('adminC', 'Tone of voice.md', brandGuide('ninja, synergy'));
    const [passage] = (await passagesOf('adminC', doc)).filter((p) => p.text.includes('Banned'));
    const link = `/brand-hub?library=${doc.id}&version=1&passage=${passage!.id}`;
    const madeUp = `/brand-hub?library=${doc.id}&version=1&passage=${passage!.id + 100_000}`;
    upstream.requests.length = 0;
    upstream.enqueue(
      toolCallReply([
        { id: 'call_k', name: 'search_knowledge', args: { query: 'banned words weekly ninja' } },
      ]),
      textReply(
        JSON.stringify({
          task_name: 'Banned words',
          content: [
            {
              type: 'text',
              text: `Never write ninja ([${passage!.citation}](${link})). Also avoid X ([Made up v1](${madeUp})).`,
            },
          ],
          next_steps: [],
        }),
      ),
    );
    const chatId = await newChat('memberC');
    const answer = await ask('memberC', chatId, 'Which words are banned?');

    const first = upstream.requests[0]!.body;
    expect(String(first.messages[0]!.content)).toContain('"Tone of voice" (v1)');
    expect(first.tools!.map((x) => x.function.name)).toContain('search_knowledge');
    const toolMessage = upstream.requests[1]!.body.messages.find((m) => m.role === 'tool')!;
    const result = JSON.parse(String(toolMessage.content)) as KnowledgeResult;
    // Passages with their place, all of C's own document (B's and A's also mention "weekly" or "ninja").
    expect(result.passages.length).toBeGreaterThan(0);
    for (const p of result.passages) {
      expect(p.documentId).toBe(doc.id);
      expect(p.link).toBe(`/brand-hub?library=${doc.id}&version=1&passage=${p.id}`);
    }
    expect(result.passages[0]).toMatchObject({
      title: 'Tone of voice',
      version: 1,
      headingPath: expect.stringContaining('2.2 Banned words'),
    });
    // The received passage stays a link; the one it never received is left as plain text.
    expect(answer).toContain(`[${passage!.citation}](${link})`);
    expect(answer).toContain('Also avoid X (Made up v1)');
    expect(answer).not.toContain(madeUp);
  }, 120_000);
});
