import { rmSync } from 'node:fs';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { clientBuild, useTestApp } from '../test-support/server-tests';
import { signedInUser } from '../test-support/factories';
import { insertMessages } from './workspace/conversation.repo';
import { streamLines, userWithChat } from '../test-support/conversation';
import { scriptedAgentFor } from '../test-support/scripted-agents';

const ASSET = `export const words = ${JSON.stringify('atrium '.repeat(500))};`;

describe('compression on the wire', () => {
  let clientDir: string;
  const t = useTestApp(() => {
    // A build as vite.config.ts writes it: each asset with its .br and .gz beside it.
    clientDir = clientBuild({
      'chat-abc123.js': ASSET,
      'chat-abc123.js.br': brotliCompressSync(ASSET),
      'chat-abc123.js.gz': gzipSync(ASSET),
    });
    return { clientDir, agentFor: scriptedAgentFor };
  });
  afterAll(() => rmSync(clientDir, { recursive: true, force: true }));

  const getAsset = (acceptEncoding?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/assets/chat-abc123.js',
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  it('sends a built asset as brotli to a browser that takes it, gzip to one that takes only gzip, plain otherwise', async () => {
    const br = await getAsset('gzip, deflate, br, zstd');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toContain('immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(ASSET);
    expect(br.rawPayload.length).toBeLessThan(ASSET.length / 4);

    const gz = await getAsset('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['vary']).toMatch(/accept-encoding/i);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(ASSET);

    for (const plain of [await getAsset(), await getAsset('identity')]) {
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(ASSET);
    }
  });

  it('answers 404 for a built file that is not there, and the app for client routes', async () => {
    // An old chunk a tab open across a deploy asks for.
    const gone = await t.app.inject({ method: 'GET', url: '/assets/chat-old999.js' });
    expect(gone.statusCode).toBe(404);
    expect(gone.headers['content-type']).not.toMatch(/html/);
    expect(gone.body).not.toContain('<!doctype html>');
    const route = await t.app.inject({ method: 'GET', url: '/chat/some-chat' });
    expect(route.statusCode).toBe(200);
    expect(route.headers['content-type']).toMatch(/html/);
  });

  it('compresses a large JSON answer and leaves a small one as it is', async () => {
    const { cookie } = await signedInUser(t);
    const many = Array.from({ length: 40 }, (_, i) => ({
      title: `Workforce plan number ${i} for the northern region`,
      module: 'governance',
    }));
    for (const payload of many) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/chats',
        headers: { cookie, 'accept-encoding': 'gzip, br' },
        payload,
      });
      expect(res.statusCode).toBe(201);
      // One chat is a small answer: sent as it is.
      expect(res.headers['content-encoding']).toBeUndefined();
      await insertMessages(t.database.db, [
        {
          chatId: res.json<{ id: string }>().id,
          seq: 1,
          role: 'user',
          content: 'hi',
          status: 'complete',
        },
      ]);
    }

    const url = '/api/chats/all';
    const plain = await t.app.inject({ method: 'GET', url, headers: { cookie } });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await t.app.inject({
      method: 'GET',
      url,
      headers: { cookie, 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);

    const gz = await t.app.inject({
      method: 'GET',
      url,
      headers: { cookie, 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
  });

  it('never compresses a streamed reply (each chunk must reach the browser as it is written)', async () => {
    const { cookie, chat } = await userWithChat(t, 'scripted:quick');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/chats/message',
      headers: { cookie, 'content-type': 'application/json', 'accept-encoding': 'gzip, br' },
      payload: { chatId: chat.id, message: 'Profile my workforce' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(streamLines(res.body).done).toBe(true);
  });
});
