import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { JoinedEvent, StreamEvent } from '@contract/ws-events';
import { WS_CLOSE_SESSION_ENDED } from '@contract/ws-events';
import { useTestApp } from '../../test-support/server-tests';
import { SESSION_ENDED_CHANNEL, hashToken } from '../accounts/sessions';
import { lastRun, scriptedAgentFor } from '../../test-support/scripted-agents';
import { replyClosed, sendMessage, userWithChat, waitFor } from '../../test-support/conversation';
import { recordTurnEvent } from './turn-feed';
import { replayFrom } from './ws';

type Received = StreamEvent | JoinedEvent;

/** A real socket client that records what it receives. */
class Client {
  readonly events: Received[] = [];
  closeCode: number | null = null;
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.events.push(JSON.parse(String(data)) as Received));
    ws.on('close', (code) => {
      this.closeCode = code;
    });
  }

  static connect(url: string, headers: Record<string, string>): Promise<Client> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers });
      const client = new Client(ws);
      ws.once('open', () => resolve(client));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  send(message: unknown) {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  async next(match: (e: Received) => boolean, timeoutMs = 5_000): Promise<Received> {
    return waitFor(async () => this.events.find(match), timeoutMs);
  }

  /** The reply's text as a client builds it: the stream_chunk contents in order. */
  text(messageId: string): string {
    return this.events
      .filter((e): e is StreamEvent => e.type === 'stream_chunk' && e.messageId === messageId)
      .map((e) => e.content)
      .join('');
  }

  turnSeqs(messageId: string): number[] {
    return this.events
      .filter((e): e is StreamEvent => 'messageId' in e && e.messageId === messageId)
      .map((e) => e.seq!);
  }
}

describe('/ws: rooms, resume, ownership', () => {
  let url: string;
  const origin = 'http://localhost:5000';

  const t = useTestApp({ agentFor: scriptedAgentFor });
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
  });

  it('refuses an upgrade without a session (401) and from a foreign origin (403)', async () => {
    await expect(Client.connect(url, { origin })).rejects.toThrow('HTTP 401');
    const { cookie } = await userWithChat(t, 'scripted:quick');
    await expect(Client.connect(url, { cookie, origin: 'https://evil.example' })).rejects.toThrow(
      'HTTP 403',
    );
  });

  it('joins only the caller’s own chat, and answers bad input with an error event', async () => {
    const owner = await userWithChat(t, 'scripted:quick');
    const intruder = await userWithChat(t, 'scripted:quick');
    const c = await Client.connect(url, { cookie: intruder.cookie, origin });
    c.send('{not json');
    expect(await c.next((e) => e.type === 'error')).toMatchObject({
      content: 'Invalid message format',
    });
    c.send({ type: 'join_chat', chatId: owner.chat.id });
    await waitFor(async () => c.events.filter((e) => e.type === 'error').length === 2);
    expect(c.events.at(-1)).toMatchObject({ type: 'error', content: 'Chat not found' });

    // The owner's turn is not seen by the intruder.
    await sendMessage(t, owner.cookie, { chatId: owner.chat.id, message: 'Private' });
    expect(c.events.some((e) => e.type === 'joined' || e.type === 'stream_chunk')).toBe(false);

    c.send({ type: 'join_chat', chatId: intruder.chat.id });
    expect(await c.next((e) => e.type === 'joined')).toMatchObject({
      chatId: intruder.chat.id,
      turn: null,
    });
    c.ws.close();
  });

  it('gives a client joining mid-turn what it missed, then the live events, each once and in order', async () => {
    const { cookie, chat } = await userWithChat(t, 'scripted:slow');
    const early = await Client.connect(url, { cookie, origin });
    early.send({ type: 'join_chat', chatId: chat.id });
    await early.next((e) => e.type === 'joined');

    const reply = sendMessage(t, cookie, { chatId: chat.id, message: 'Stream to everyone' });
    await waitFor(async () => lastRun(chat.id));
    await lastRun(chat.id)!.paused;
    const streamed = await early.next((e) => e.type === 'stream_chunk');
    const messageId = (streamed as StreamEvent).messageId!;
    await waitFor(async () => early.text(messageId) === 'Partial answer');

    const late = await Client.connect(url, { cookie, origin });
    late.send({ type: 'join_chat', chatId: chat.id });
    const joined = (await late.next((e) => e.type === 'joined')) as JoinedEvent;
    expect(joined.turn).toEqual({ messageId, lastSeq: 5, status: 'loading' });
    const resumed = await Client.connect(url, { cookie, origin });
    // Seq 2 was the thinking update: what follows is its end and the text.
    resumed.send({ type: 'join_chat', chatId: chat.id, lastSeq: 2, messageId });
    await resumed.next((e) => e.type === 'joined');
    await waitFor(async () => late.text(messageId) === 'Partial answer');

    lastRun(chat.id)!.release();
    await reply;
    for (const c of [early, late, resumed]) await c.next((e) => e.type === 'stream_complete');

    // Each client: seqs strictly rising and ending at the turn's last, the text whole, once.
    for (const c of [early, late, resumed]) {
      const seqs = c.turnSeqs(messageId);
      expect(seqs.every((s, i) => i === 0 || s > seqs[i - 1]!)).toBe(true);
      expect(seqs.at(-1)).toBe(7);
      expect(c.text(messageId)).toBe('Partial answer, finished.');
    }
    expect(early.turnSeqs(messageId)[0]).toBe(1);
    expect(late.turnSeqs(messageId)[0]).toBe(1);
    expect(resumed.turnSeqs(messageId)[0]).toBe(3);
    const kinds = early.events
      .filter((e) => 'seq' in e)
      .map((e) => e.type)
      .filter((type, i, all) => type !== all[i - 1]);
    expect(kinds).toEqual([
      'thinking_start',
      'thinking_update',
      'thinking_end',
      'stream_chunk',
      'stream_complete',
    ]);
    expect(late.events.at(-1)).toMatchObject({
      type: 'stream_complete',
      finalContent: 'Partial answer, finished.',
    });
    for (const c of [early, late, resumed]) c.ws.close();
  });

  it('sends a fast stream in fewer, larger events, its text and seqs intact', async () => {
    const { cookie, chat } = await userWithChat(t, 'scripted:quick');
    const c = await Client.connect(url, { cookie, origin });
    c.send({ type: 'join_chat', chatId: chat.id });
    await c.next((e) => e.type === 'joined');
    const messageId = 'fast-turn';
    const words = Array.from({ length: 60 }, (_, i) => `w${i + 1} `);
    for (const [i, word] of words.entries()) {
      await recordTurnEvent(t.bus, {
        type: 'stream_chunk',
        content: word,
        timestamp: new Date().toISOString(),
        chatId: chat.id,
        messageId,
        seq: i + 1,
      });
    }
    await waitFor(async () => c.turnSeqs(messageId).at(-1) === words.length);
    expect(c.text(messageId)).toBe(words.join(''));
    // 60 chunks written back to back: what follows the first within a frame travels merged.
    expect(c.turnSeqs(messageId).length).toBeLessThanOrEqual(30);
    c.ws.close();
  });

  it('sends a stream slower than a frame chunk by chunk, each as it comes', async () => {
    const { cookie, chat } = await userWithChat(t, 'scripted:quick');
    const c = await Client.connect(url, { cookie, origin });
    c.send({ type: 'join_chat', chatId: chat.id });
    await c.next((e) => e.type === 'joined');
    const messageId = 'steady-turn';
    const record = (seq: number, type: 'thinking_update' | 'stream_chunk', content: string) =>
      recordTurnEvent(t.bus, {
        type,
        content,
        timestamp: new Date().toISOString(),
        chatId: chat.id,
        messageId,
        seq,
      });
    // A model writing a chunk every 40 ms (slower than a frame), right after its thinking update.
    await record(1, 'thinking_update', 'Asking the model');
    for (let seq = 2; seq <= 6; seq++) {
      if (seq > 2) await new Promise((r) => setTimeout(r, 40));
      await record(seq, 'stream_chunk', `w${seq - 1} `);
    }
    await c.next((e) => 'seq' in e && e.seq === 6);
    // Every chunk went as it came: none waited for a window in which the next one joined it.
    expect(c.turnSeqs(messageId)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(c.text(messageId)).toBe('w1 w2 w3 w4 w5 ');
    c.ws.close();
  });

  it('keeps the turn going when the socket drops', async () => {
    const { cookie, chat } = await userWithChat(t, 'scripted:slow');
    const c = await Client.connect(url, { cookie, origin });
    c.send({ type: 'join_chat', chatId: chat.id });
    await c.next((e) => e.type === 'joined');
    void sendMessage(t, cookie, { chatId: chat.id, message: 'Keep going' });
    await waitFor(async () => lastRun(chat.id));
    await lastRun(chat.id)!.paused;
    c.ws.terminate();
    lastRun(chat.id)!.release();
    expect(await replyClosed(t, chat.id)).toMatchObject({
      status: 'complete',
      content: 'Partial answer, finished.',
    });
  });

  it('closes the sockets of an ended session', async () => {
    const { cookie } = await userWithChat(t, 'scripted:quick');
    const c = await Client.connect(url, { cookie, origin });
    const sid = hashToken(cookie.split('=')[1]!);
    await t.bus.publish(SESSION_ENDED_CHANNEL, { sids: [sid] });
    await waitFor(async () => c.closeCode !== null);
    expect(c.closeCode).toBe(WS_CLOSE_SESSION_ENDED);
  });
});

describe('replayFrom', () => {
  const turn = { messageId: 'm2', lastSeq: 7, status: 'loading' };
  it('resumes after lastSeq of the same turn, and replays a turn the client did not know from the start', () => {
    expect(replayFrom({ lastSeq: 3, messageId: 'm2' }, turn)).toBe(3);
    expect(replayFrom({ lastSeq: 3 }, turn)).toBe(3);
    expect(replayFrom({ lastSeq: 3, messageId: 'm1' }, turn)).toBe(0);
    expect(replayFrom({}, turn)).toBe(0);
    expect(replayFrom({}, { ...turn, status: 'complete' })).toBe(7);
  });
});
