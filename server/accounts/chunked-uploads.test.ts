import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/server-tests';
import { userWithChat } from '../../test-support/conversation';
import { MAX_BIG_UPLOADS_IN_FLIGHT, TOO_DEEP_MESSAGE } from './route-limits';

// Bodies sent with Transfer-Encoding: chunked declare no length: the hourly upload budget, the
// storage quota and the in-flight limit read only Content-Length, so such bodies passed them all.

interface Answer {
  status: number;
  body: string;
}

describe('uploads without a declared length (chunked)', () => {
  let port: number;
  const t = useTestApp({ env: { UPLOAD_MB_PER_HOUR: '3', STORAGE_QUOTA_MB: '2' } });
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });

  /**
   * A real chunked request (node's http sends no Content-Length when none is set). The body is
   * written in pieces; `end` false leaves the request open after them.
   */
  function chunked(path: string, cookie: string, pieces: string[], end = true) {
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path,
      headers: { cookie, 'content-type': 'application/json' },
    });
    const answer = new Promise<Answer>((resolve, reject) => {
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
    });
    // A refused body may be cut by the server while it is still being written, and a request
    // left open is destroyed by the test: neither is a failure unless the answer is awaited.
    answer.catch(() => {});
    void (async () => {
      for (const p of pieces) {
        if (!req.write(p)) await new Promise((r) => req.once('drain', r));
      }
      if (end) req.end();
    })();
    expect(req.getHeader('content-length')).toBeUndefined();
    return { req, answer };
  }

  /** A save-file body of `bytes` characters of content, in 64 KB pieces. */
  const savePieces = (bytes: number) => {
    const piece = 'x'.repeat(64 * 1024);
    const pieces = ['{"fileName":"big.txt","fileType":"text","fileContent":"'];
    for (let n = 0; n < bytes; n += piece.length) pieces.push(piece);
    pieces.push('"}');
    return pieces;
  };

  const filesOf = async (chatId: string, cookie: string) =>
    (
      await t.app.inject({ method: 'GET', url: `/api/chats/${chatId}/files`, headers: { cookie } })
    ).json<Array<{ id: string }>>();

  it('keeps a chunked upload within the storage quota, and stores nothing of it', async () => {
    const { cookie, chat } = await userWithChat(t, 'builtin');
    const { answer } = chunked(
      `/api/chats/${chat.id}/files`,
      cookie,
      savePieces(2.5 * 1024 * 1024),
    );
    const res = await answer;
    expect(res.status, res.body).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({
      message: expect.stringMatching(/^Your storage is full: you use 0 MB of your 2 MB\./),
    });
    expect(await filesOf(chat.id, cookie)).toEqual([]);
  });

  it('counts chunked bytes against the hourly upload budget', async () => {
    const { cookie, chat } = await userWithChat(t, 'builtin');
    // 1.2 MB fits the 2 MB quota; it is deleted after each send so only the hour counts.
    for (let i = 0; i < 2; i++) {
      const ok = await chunked(`/api/chats/${chat.id}/files`, cookie, savePieces(1.2 * 1024 * 1024))
        .answer;
      expect(ok.status, ok.body).toBe(201);
      const [file] = await filesOf(chat.id, cookie);
      await t.app.inject({ method: 'DELETE', url: `/api/files/${file!.id}`, headers: { cookie } });
    }
    const over = await chunked(`/api/chats/${chat.id}/files`, cookie, savePieces(1.2 * 1024 * 1024))
      .answer;
    expect(over.status, over.body).toBe(429);
    expect(JSON.parse(over.body)).toMatchObject({
      message: expect.stringMatching(
        /^You have uploaded [23] MB in the last hour; the limit is 3 MB\./,
      ),
    });
    expect(await filesOf(chat.id, cookie)).toEqual([]);
  });

  it('holds a big-upload place for each chunked body being received', async () => {
    const { cookie, chat } = await userWithChat(t, 'builtin');
    const open = Array.from({ length: MAX_BIG_UPLOADS_IN_FLIGHT }, () =>
      chunked('/api/chats/message', cookie, [`{"chatId":"${chat.id}","message":"`], false),
    );
    // Each open request has reached the route once its first piece is read; give them time.
    await new Promise((r) => setTimeout(r, 300));
    const third = await chunked('/api/chats/message', cookie, ['{"chatId":"x"}']).answer;
    expect(third.status, third.body).toBe(429);
    expect(JSON.parse(third.body)).toMatchObject({
      message: 'Another upload of yours is still being received. Please wait for it to finish.',
    });
    // Cut off, they give their places back.
    for (const o of open) o.req.destroy();
    await expect
      .poll(
        async () => (await chunked('/api/chats/message', cookie, ['{"chatId":"x"}']).answer).status,
      )
      .not.toBe(429);
  });

  it('refuses a body of `[` repeated at its first piece, without waiting for the rest', async () => {
    const { cookie } = await userWithChat(t, 'builtin');
    // The request stays open: an answer can only come from reading the first 64 KB.
    const { req, answer } = chunked('/api/chats/message', cookie, ['['.repeat(64 * 1024)], false);
    const res = await answer;
    req.destroy();
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ message: TOO_DEEP_MESSAGE });
  });
});
