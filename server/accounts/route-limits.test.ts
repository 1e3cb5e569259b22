import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/server-tests';
import { signedInUser } from '../../test-support/factories';
import { userWithChat } from '../../test-support/conversation';
import { freshIp } from '../../test-support/accounts';
import { ROUTE_LIMITS } from './route-limits';

// One user's parallel big sends took the server to 2 GB with no limit on the
// message route and no storage quota.

describe('limits per route class, upload bytes and storage quota', () => {
  const t = useTestApp({
    env: { UPLOAD_MB_PER_HOUR: '3', STORAGE_QUOTA_MB: '2', READS_PER_USER_PER_MINUTE: '20' },
  });

  const send = (cookie: string, ip: string, payload: object) =>
    t.app.inject({
      method: 'POST',
      url: '/api/chats/message',
      headers: { cookie },
      remoteAddress: ip,
      payload,
    });

  it('limits the message route per user, whatever the address it comes from', async () => {
    const { cookie } = await signedInUser(t);
    const max = ROUTE_LIMITS.messagePerUser.max;
    // Refused bodies (an unknown chat) count too: the limit is on asking, before any work.
    for (let i = 0; i < max; i++) {
      const r = await send(cookie, freshIp(), { chatId: randomUUID(), message: 'hi' });
      expect(r.statusCode, r.body).toBe(404);
    }
    const over = await send(cookie, freshIp(), { chatId: randomUUID(), message: 'hi' });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: ROUTE_LIMITS.messagePerUser.message,
    });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // Another user is not affected.
    const other = await signedInUser(t);
    expect(
      (await send(other.cookie, freshIp(), { chatId: randomUUID(), message: 'hi' })).statusCode,
    ).toBe(404);
  });

  it('limits the message route per client address, whatever the user', async () => {
    const ip = freshIp();
    const max = ROUTE_LIMITS.messagePerIp.max;
    const perUser = ROUTE_LIMITS.messagePerUser.max;
    let sent = 0;
    while (sent < max) {
      const { cookie } = await signedInUser(t);
      for (let i = 0; i < perUser && sent < max; i++, sent++) {
        expect((await send(cookie, ip, { chatId: randomUUID(), message: 'hi' })).statusCode).toBe(
          404,
        );
      }
    }
    const { cookie } = await signedInUser(t);
    const over = await send(cookie, ip, { chatId: randomUUID(), message: 'hi' });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ message: ROUTE_LIMITS.messagePerIp.message });
  }, 60_000);

  it('counts uploaded bytes per user and hour, and keeps each user within the storage quota', async () => {
    const { cookie, chat } = await userWithChat(t, 'builtin');
    const save = (name: string, bytes: number) =>
      t.app.inject({
        method: 'POST',
        url: `/api/chats/${chat.id}/files`,
        headers: { cookie },
        remoteAddress: freshIp(),
        payload: { fileName: name, fileContent: 'x'.repeat(bytes), fileType: 'text' },
      });
    const kb700 = 700 * 1024;
    expect((await save('a.txt', kb700)).statusCode).toBe(201);
    expect((await save('b.txt', kb700)).statusCode).toBe(201);
    // 1.4 MB stored: another 700 KB would pass the 2 MB quota.
    const full = await save('c.txt', kb700);
    expect(full.statusCode).toBe(413);
    expect(full.json<{ message: string }>().message).toMatch(
      /^Your storage is full: you use 1 MB of your 2 MB\. Delete chats or files/,
    );
    // Deleting makes room again.
    const files = (
      await t.app.inject({ method: 'GET', url: `/api/chats/${chat.id}/files`, headers: { cookie } })
    ).json<Array<{ id: string }>>();
    await t.app.inject({
      method: 'DELETE',
      url: `/api/files/${files[0]!.id}`,
      headers: { cookie },
    });
    expect((await save('c.txt', kb700)).statusCode).toBe(201);
    // 2.1 MB (plus JSON) sent this hour: the 3 MB hourly budget refuses the next 1 MB, room or not.
    await t.app.inject({
      method: 'DELETE',
      url: `/api/files/${files[1]!.id}`,
      headers: { cookie },
    });
    const hourly = await save('d.txt', 1024 * 1024);
    expect(hourly.statusCode).toBe(429);
    expect(hourly.json<{ message: string }>().message).toMatch(
      /^You have uploaded 2 MB in the last hour; the limit is 3 MB\./,
    );
  });

  it('limits reads per user as READS_PER_USER_PER_MINUTE says', async () => {
    const { cookie } = await signedInUser(t);
    const read = () =>
      t.app.inject({ method: 'GET', url: '/api/chats?module=governance', headers: { cookie } });
    for (let i = 0; i < 20; i++) expect((await read()).statusCode).toBe(200);
    const over = await read();
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ message: ROUTE_LIMITS.readPerUser.message });
  });
});
