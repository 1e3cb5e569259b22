import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatDto } from '@contract/chats';
import type { LibraryDocumentDto } from '@contract/library';
import type { ModuleKey } from '@contract/modules';
import { uniqueEmail } from '../../test-support/app';
import { useTestApp } from '../../test-support/server-tests';
import { getChat, replyClosed, sendMessage } from '../../test-support/conversation';
import { createUser, signIn } from '../../test-support/factories';
import { libraryPassages, uploadToLibrary } from '../../test-support/library';
import { addCompany } from '../admin/companies';
import { closeToolPool } from '../analyst/tools/runner';
import { chats, companies } from '../db/schema';
import { readPassages } from './library.service';

// The builtin answers a question from the company library when no file is in scope
// (docs/decisions/0096-library-answer.md): it quotes the passages its search received, each cited
// with a link to the document and version, never another company's; a question the library says
// nothing about gets the answer of before (attach the document, a template).

const tag = () => randomBytes(3).toString('hex');

const gifts = (limit: string) => `# Gifts and hospitality policy

## 1 Purpose
This policy sets how employees handle gifts and hospitality from suppliers and customers.

## 2 Gifts
An employee may accept a gift worth up to ${limit}. Any gift above ${limit} must be declined or declared to the compliance officer within five working days.

## 3 Hospitality
Hospitality must be modest and recorded in the gifts register.
`;

const LEAVE = `# Family leave policy

## 1 Parental leave
Each parent may take up to 26 weeks of parental leave, of which the first 12 weeks are on full pay.

## 2 Notice
Give your manager notice of at least eight weeks before the leave starts.
`;

const GIFT_QUESTION = 'What is the most an employee may accept as a gift?';

type Person = { cookie: string; userId: string };

describe('the builtin answers a question from the company library', () => {
  const people: Record<string, Person> = {};

  const company = async (name: string) => {
    const c = await addCompany(t.database.db, { name: `${name} ${tag()}` });
    await t.database.db
      .update(companies)
      .set({
        brandHubModel: 'builtin',
        governanceModel: 'builtin',
        talentIntelligenceModel: 'builtin',
      })
      .where(eq(companies.id, c.id));
    return c.id;
  };
  const person = async (key: string, companyId: number, role: 'member' | 'admin') => {
    const user = await createUser(t.database.db, {
      email: uniqueEmail(`la${tag()}.com`),
      companyId,
      role,
    });
    people[key] = { cookie: await signIn(t, user), userId: user.id };
  };
  const upload = (who: string, module: ModuleKey, fileName: string, text: string) =>
    uploadToLibrary(t, people[who]!.cookie, module, fileName, text);
  /** The passage of a document holding these words, as the library viewer lists it. */
  const passageWith = async (who: string, doc: LibraryDocumentDto, words: string) =>
    (await libraryPassages(t, people[who]!.cookie, doc)).find((p) => p.text.includes(words))!;
  /** The reply to a question asked in a new chat of the module, no attachment. */
  const ask = async (who: string, module: ModuleKey, message: string) => {
    const [chat] = await t.database.db
      .insert(chats)
      .values({ userId: people[who]!.userId, title: 'Chat', module })
      .returning();
    const res = await sendMessage(t, people[who]!.cookie, { chatId: chat!.id, message });
    expect(res.statusCode, res.body).toBeLessThan(300);
    const reply = await replyClosed(t, chat!.id, 60_000);
    expect(reply.status, String(reply.content)).toBe('complete');
    const dto = ChatDto.parse((await getChat(t, people[who]!.cookie, chat!.id)).json());
    const last = dto.messages.at(-1)!;
    return JSON.stringify(last.structuredResponse ?? last.content);
  };

  let giftsA: LibraryDocumentDto;

  const t = useTestApp({}, 120_000);
  beforeAll(async () => {
    const A = await company('Answers A');
    const B = await company('Answers B');
    const C = await company('Answers C');
    await person('adminA', A, 'admin');
    await person('memberA', A, 'member');
    await person('adminB', B, 'admin');
    await person('memberC', C, 'member');
    await readPassages('warm-up.txt', 'text/plain', Buffer.from('Warm up'));
    await upload('adminA', 'governance', 'Gifts and hospitality policy.md', gifts('£30'));
    giftsA = await upload('adminA', 'governance', 'Gifts and hospitality policy.md', gifts('£50'));
    // B's policy is the same document with its own limit: never quoted to A.
    await upload('adminB', 'governance', 'Gifts and hospitality policy.md', gifts('£200'));
  }, 120_000);
  afterAll(async () => {
    await closeToolPool();
  });

  it("answers the gift question with the library's figure, cited to the document and version it read", async () => {
    expect(giftsA.version).toBe(2);
    const answer = await ask('memberA', 'governance', GIFT_QUESTION);
    const passage = await passageWith('memberA', giftsA, '£50');
    expect(answer).toContain('From your company library');
    expect(answer).toContain('An employee may accept a gift worth up to £50');
    expect(answer).toContain(
      `[${passage.citation}](/governance?library=${giftsA.id}&version=2&passage=${passage.id})`,
    );
    expect(answer).toContain('Gifts and hospitality policy v2');
    expect(answer).toContain('Attach a document to review it against your company library');
    // Neither the other company's limit nor the replaced version's.
    expect(answer).not.toContain('£200');
    expect(answer).not.toContain('£30');
    expect(answer).not.toContain('version=1&');
    expect(answer).not.toContain('no such document');
  }, 120_000);

  it('gives the answer of before when the library says nothing on the question', async () => {
    const question = 'Who chairs the audit committee?';
    const withLibrary = await ask('memberA', 'governance', question);
    const without = await ask('memberC', 'governance', question);
    expect(withLibrary).not.toContain('From your company library');
    expect(withLibrary).not.toContain('?library=');
    expect(withLibrary).toBe(without);
  }, 120_000);

  it('answers in Talent Intelligence from its own library, not from the Governance one', async () => {
    const leave = await upload('adminA', 'talent-intelligence', 'Family leave policy.md', LEAVE);
    const answer = await ask(
      'memberA',
      'talent-intelligence',
      'How many weeks of parental leave can a parent take?',
    );
    const passage = await passageWith('memberA', leave, '26 weeks');
    expect(answer).toContain('From your company library');
    expect(answer).toContain('up to 26 weeks of parental leave');
    expect(answer).toContain(
      `[${passage.citation}](/talent-intelligence?library=${leave.id}&version=1&passage=${passage.id})`,
    );
    expect(answer).not.toContain('/governance?library=');
    // The gift question in Talent Intelligence finds nothing of Governance's library.
    const gift = await ask('memberA', 'talent-intelligence', GIFT_QUESTION);
    expect(gift).not.toContain('£50');
  }, 120_000);
});
