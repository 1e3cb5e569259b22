import pino from 'pino';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ErrorBody } from '@contract/errors';
import { useTestApp } from '../../test-support/server-tests';
import { signedInUser } from '../../test-support/factories';

// The starters service stands in for a handler's data source: what it hands back is what the
// route answers, so a wrong shape from it is a wrong shape from the handler.
const listStarters = vi.hoisted(() => vi.fn());
vi.mock('./starters.service', () => ({ listStarters }));

describe('routes declared with the contract schemas', () => {
  let cookie: string;
  const lines: string[] = [];
  const t = useTestApp({
    logger: pino({ level: 'info' }, { write: (l: string) => void lines.push(l) }),
  });
  beforeAll(async () => {
    ({ cookie } = await signedInUser(t));
  });

  it('answers a malformed body with the first message and every field', async () => {
    const send = await t.app.inject({
      method: 'POST',
      url: '/api/chats/message',
      headers: { cookie },
      payload: { chatId: 'not-a-chat', message: 42 },
    });
    expect(send.statusCode).toBe(400);
    expect(send.json<ErrorBody>()).toEqual({
      message: 'Invalid chat id',
      code: 'VALIDATION',
      fields: { chatId: 'Invalid chat id', message: expect.any(String) },
    });

    // No body at all reads as an empty one: the missing fields are named, with the spec's texts.
    const create = await t.app.inject({ method: 'POST', url: '/api/chats', headers: { cookie } });
    expect(create.statusCode).toBe(400);
    expect(create.json<ErrorBody>()).toEqual({
      message: 'Title is required',
      code: 'VALIDATION',
      fields: {
        title: 'Title is required',
        module: 'Module must be one of brand-hub, governance, talent-intelligence, dashboard',
      },
    });

    const query = await t.app.inject({ url: '/api/chats?module=sales', headers: { cookie } });
    expect(query.statusCode).toBe(400);
    expect(query.json<ErrorBody>().fields).toEqual({
      module: 'Module must be one of brand-hub, governance, talent-intelligence, dashboard',
    });
  });

  it('refuses a signed-out caller with 401 before looking at its payload', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/chats', payload: { title: '' } });
    expect(res.statusCode).toBe(401);
  });

  it('answers only the fields of its schema', async () => {
    const starter = {
      id: 1,
      name: 'Board pack',
      description: 'a board pack',
      taskType: 'report',
      module: 'governance',
    };
    listStarters.mockResolvedValueOnce([{ ...starter, createdBy: 'admin@northwind.com' }]);
    const res = await t.app.inject({ url: '/api/starters?module=governance', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([starter]);
  });

  it('turns an answer that does not match its schema into a logged 500 with the request id', async () => {
    listStarters.mockResolvedValueOnce([{ id: 'seven', name: 'Secret plan' }]);
    lines.length = 0;
    const res = await t.app.inject({ url: '/api/starters?module=governance', headers: { cookie } });
    expect(res.statusCode).toBe(500);
    const requestId = res.headers['x-request-id'];
    expect(res.json<ErrorBody>()).toEqual({
      message: 'Something went wrong on our side. Please try again.',
      code: 'INTERNAL',
      requestId,
    });
    expect(res.body).not.toContain('Secret plan');
    const logged = lines
      .map((l) => JSON.parse(l) as { level: number; reqId?: string; msg: string; issues?: unknown })
      .find((l) => l.level === 50 && l.reqId === requestId);
    expect(logged?.msg).toBe('answer does not match its schema');
    expect(logged?.issues).toEqual(
      expect.arrayContaining([{ path: '0.id', message: expect.any(String) }]),
    );
  });
});
