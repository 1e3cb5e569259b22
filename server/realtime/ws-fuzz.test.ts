import type { AddressInfo, Socket } from 'node:net';
import fc from 'fast-check';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useTestApp } from '../../test-support/server-tests';
import { userWithChat } from '../../test-support/conversation';
import { CHAT_NOT_FOUND, INVALID_MESSAGE } from './ws';

// Fuzzing the socket messages. Whatever a client sends, the server answers with one of
// its clear errors or a join, never drops the socket for an error of its own, and logs no error.

describe('socket messages, fuzzed', () => {
  let url: string;
  const lines: string[] = [];
  const t = useTestApp({
    logger: pino({ level: 'info' }, { write: (l: string) => void lines.push(l) }),
  });
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
  });

  it('answers every message with a join or a clear error, and the socket stays usable', async () => {
    const { cookie, chat } = await userWithChat(t, 'builtin');
    const text = fc.string({ unit: 'binary', maxLength: 80 });
    const message = fc.oneof(
      text,
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      fc
        .record(
          {
            type: fc.oneof(fc.constant('join_chat'), text),
            chatId: fc.oneof(fc.uuid(), text, fc.constant(chat.id), fc.integer()),
            lastSeq: fc.oneof(fc.integer(), fc.double(), text),
            messageId: fc.oneof(fc.uuid(), text),
          },
          { requiredKeys: [] },
        )
        .map((v) => JSON.stringify(v)),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(message, { minLength: 1, maxLength: 5 }), async (batch) => {
        const ws = new WebSocket(url, { headers: { cookie } });
        const got: Array<{ type: string; content?: string }> = [];
        let closed: number | null = null;
        ws.on('message', (d) => got.push(JSON.parse(String(d)) as (typeof got)[0]));
        ws.on('close', (code) => (closed = code));
        await new Promise((resolve, reject) => {
          ws.once('open', resolve);
          ws.once('error', reject);
        });
        for (const m of batch) ws.send(m);
        // A known-good join last: the socket still serves after whatever came before.
        ws.send(JSON.stringify({ type: 'join_chat', chatId: chat.id }));
        const end = Date.now() + 5_000;
        while (!got.some((e) => e.type === 'joined') && Date.now() < end) {
          await new Promise((r) => setTimeout(r, 10));
        }
        ws.close();
        expect(closed).toBeNull();
        expect(got.some((e) => e.type === 'joined')).toBe(true);
        for (const e of got) {
          if (e.type === 'error') expect([INVALID_MESSAGE, CHAT_NOT_FOUND]).toContain(e.content);
          else expect(e.type).toBe('joined');
        }
      }),
      { numRuns: 40 },
    );
    expect(lines.filter((l) => l.includes('"level":50'))).toEqual([]);
  }, 120_000);
  // A client breaking the WebSocket protocol (a reserved opcode, a frame past maxPayload) is the
  // client's fault: logged as a warning, not at error level (it paged operators for nothing).
  it('logs a client that breaks the protocol as a warning, not an error', async () => {
    const { cookie } = await userWithChat(t, 'builtin');
    const from = lines.length;
    const ws = new WebSocket(url, { headers: { cookie } });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const closed = new Promise<number>((resolve) => ws.once('close', resolve));
    ws.on('error', () => undefined);
    // A masked frame with the reserved opcode 3 and no payload.
    (ws as unknown as { _socket: Socket })._socket.write(Buffer.from([0x83, 0x80, 0, 0, 0, 0]));
    await closed;
    await new Promise((r) => setTimeout(r, 100));
    const logged = lines.slice(from).map((l) => JSON.parse(l) as { level: number; msg?: string });
    expect(logged.filter((l) => l.level >= 50)).toEqual([]);
    expect(logged.some((l) => l.level === 40)).toBe(true);
  });
});
