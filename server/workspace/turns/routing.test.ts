import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatDto } from '@contract/chats';
import { createTestApp, type TestApp } from '../../../test-support/app';
import { signedInUser } from '../../../test-support/factories';
import {
  startOpenAiFixture,
  textReply,
  type OpenAiFixture,
} from '../../../test-support/openai-fixture';
import { chats, companies, companyDomains } from '../../db/schema';
import { getChat, sendMessage } from '../../../test-support/conversation';

/**
 * Per-company routing through the real runtime and the real registry: the model of a message is
 * the model of the caller's company for the chat's module at the time of sending.
 */
describe('model routing by company', () => {
  let t: TestApp;
  let upstream: OpenAiFixture;
  beforeAll(async () => {
    upstream = await startOpenAiFixture();
    t = await createTestApp({
      env: { OPENAI_BASE_URL: upstream.baseUrl, OPENAI_API_KEY: 'sk-routing' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  const modelAnswer = {
    task_name: 'Answer from ti-model',
    content: [{ type: 'text', text: 'From the model.' }],
    next_steps: [],
  };

  async function company(
    name: string,
    models: { brandHubModel: string; governanceModel: string; talentIntelligenceModel: string },
  ) {
    const [c] = await t.database.db
      .insert(companies)
      .values({ name, ...models })
      .returning();
    return c!.id;
  }

  async function newChat(userId: string, module: 'talent-intelligence' | 'governance') {
    const [chat] = await t.database.db
      .insert(chats)
      .values({ userId, title: 'Routing chat', module })
      .returning();
    return chat!;
  }

  it('uses the new company model for new messages after a switch; old chats keep their answers', async () => {
    const offline = await company('Routing Offline', {
      brandHubModel: 'builtin',
      governanceModel: 'openai:gov-model',
      talentIntelligenceModel: 'builtin',
    });
    const online = await company('Routing Online', {
      brandHubModel: 'openai:brand-model',
      governanceModel: 'builtin',
      talentIntelligenceModel: 'openai:ti-model',
    });
    const { user, cookie } = await signedInUser(t, { companyId: offline });
    // Settings offers only the companies that own the user's domain: both of a group do here.
    const domain = user.email.split('@')[1]!;
    await t.database.db.insert(companyDomains).values([
      { companyId: offline, domain },
      { companyId: online, domain },
    ]);

    // Company 1: Talent Intelligence runs the builtin analyst, no call upstream.
    const first = await newChat(user.id, 'talent-intelligence');
    expect(
      (await sendMessage(t, cookie, { chatId: first.id, message: 'Help me profile my workforce' }))
        .statusCode,
    ).toBe(200);
    const before = (await getChat(t, cookie, first.id)).json<ChatDto>();
    expect(before.messages[1]!.status).toBe('complete');
    // No file attached: the builtin analyst says what data it needs.
    expect(before.messages[1]!.structuredResponse!.task_name).toMatch(/data needed$/);
    expect(upstream.requests).toHaveLength(0);

    // The user switches company in settings.
    const patched = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/profile',
      headers: { cookie, 'content-type': 'application/json' },
      payload: {
        firstName: user.firstName,
        lastName: user.lastName,
        companyId: online,
        email: user.email,
      },
    });
    expect(patched.statusCode).toBe(200);

    // A new message now goes to company 2's model for the module.
    upstream.enqueue(textReply(JSON.stringify(modelAnswer)));
    const second = await newChat(user.id, 'talent-intelligence');
    expect(
      (await sendMessage(t, cookie, { chatId: second.id, message: 'Help me profile my workforce' }))
        .statusCode,
    ).toBe(200);
    const after = (await getChat(t, cookie, second.id)).json<ChatDto>();
    expect(after.messages[1]!.structuredResponse).toEqual(modelAnswer);
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]!.body.model).toBe('ti-model');
    // MODEL_MAX_OUTPUT_TOKENS' default goes with every request.
    expect(upstream.requests[0]!.body.max_tokens).toBe(8_192);
    expect(upstream.requests[0]!.headers.authorization).toBe('Bearer sk-routing');

    // Governance in company 2 is builtin again: routing is per module.
    const governance = await newChat(user.id, 'governance');
    await sendMessage(t, cookie, { chatId: governance.id, message: 'Help me with a policy' });
    expect(
      (await getChat(t, cookie, governance.id)).json<ChatDto>().messages[1]!.structuredResponse!
        .task_name,
    ).toBe('Policy checklist and template');
    expect(upstream.requests).toHaveLength(1);

    // The old chat is unchanged.
    const old = (await getChat(t, cookie, first.id)).json<ChatDto>();
    expect(old.messages).toEqual(before.messages);
    const [row] = await t.database.db.select().from(chats).where(eq(chats.id, first.id));
    expect(row!.title).toBe(before.title);
  });
});
