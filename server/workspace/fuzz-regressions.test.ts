import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/server-tests';
import { signedInUser } from '../../test-support/factories';
import { replyClosed, sendMessage, userWithChat } from '../../test-support/conversation';
import { INVALID_CURSOR } from './chats.service';
import { scriptedAgentFor } from '../../test-support/scripted-agents';

// Inputs the workspace fuzzing (workspace-fuzz*.test.ts) found answering 500, each kept here as a
// plain case.

describe('inputs the fuzzing found', () => {
  const t = useTestApp({ agentFor: scriptedAgentFor });

  const get = (cookie: string, url: string) =>
    t.app.inject({ method: 'GET', url, headers: { cookie } });

  it('a Chats-page cursor naming an impossible time is a 400, not a 500', async () => {
    const { cookie } = await signedInUser(t);
    const cursorOf = (stamp: string) =>
      Buffer.from(`${stamp}|2026-11-24 02:16:24.123456+00|${crypto.randomUUID()}`).toString(
        'base64url',
      );
    for (const stamp of [
      '0000-00-00 00:00:00',
      '2026-02-30 10:00:00+00',
      '2026-13-01 10:00:00+00',
      '2026-01-01 25:00:00+00',
      '2026-01-01 10:00:00+99:99',
      '2026-01-01 1:2:3:4',
    ]) {
      const res = await get(cookie, `/api/chats/all?cursor=${cursorOf(stamp)}`);
      expect(res.statusCode, stamp).toBe(400);
      expect(res.json()).toMatchObject({ message: INVALID_CURSOR });
    }
    // A cursor as the server writes it still pages.
    const ok = await get(cookie, `/api/chats/all?cursor=${cursorOf('2026-11-24 02:16:24.5+00')}`);
    expect(ok.statusCode).toBe(200);
  });

  it('a history page before a position past the integer range is every message, not a 500', async () => {
    const { cookie, chat } = await userWithChat(t, 'builtin');
    expect((await sendMessage(t, cookie, { chatId: chat.id, message: 'Hello' })).statusCode).toBe(
      200,
    );
    await replyClosed(t, chat.id);
    for (const before of ['2147483648', '99999999999', '9007199254740991']) {
      const res = await get(cookie, `/api/chats/${chat.id}?limit=10&before=${before}`);
      expect(res.statusCode, before).toBe(200);
      expect(res.json<{ messages: unknown[] }>().messages).toHaveLength(2);
    }
  });

  it('exporting a chat whose title is not Latin-1 downloads it, named exactly', async () => {
    const { cookie } = await signedInUser(t);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/chats',
      headers: { cookie },
      payload: { title: 'Отчёт за квартал', module: 'governance' },
    });
    const id = created.json<{ id: string }>().id;
    const res = await get(cookie, `/api/chats/${id}/export?format=json`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent('отчёт_за_квартал.json')}`,
    );
  });
});
