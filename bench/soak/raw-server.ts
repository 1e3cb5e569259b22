import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { CHATS, answerParent, streamTurns, type SoakReady } from './turns';

/**
 * The soak's reference: a bare `ws` server doing the same job with nothing else: sockets join a
 * chat's room with a join_chat message and get each event of its turns as a JSON frame.
 */
const rooms = new Map<string, Set<WebSocket>>();
const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
server.on('connection', (socket) => {
  let room: Set<WebSocket> | undefined;
  socket.on('message', (data) => {
    try {
      const msg = JSON.parse(String(data)) as { type?: string; chatId?: string };
      if (msg.type !== 'join_chat' || typeof msg.chatId !== 'string') return;
      room?.delete(socket);
      room = rooms.get(msg.chatId);
      room?.add(socket);
      socket.send(JSON.stringify({ type: 'joined', content: '', chatId: msg.chatId }));
    } catch {
      // Not JSON: ignored, as the reference does nothing else.
    }
  });
  socket.on('close', () => room?.delete(socket));
});
await new Promise((r) => server.once('listening', r));

const chatIds = Array.from({ length: CHATS }, () => randomUUID());
for (const id of chatIds) rooms.set(id, new Set());
const streaming = streamTurns(chatIds, async (e) => {
  const frame = JSON.stringify(e);
  for (const s of rooms.get(e.chatId) ?? []) s.send(frame);
});
answerParent(streaming);
process.on('SIGTERM', () => {
  void streaming.stop().finally(() => server.close(() => process.exit(0)));
});
process.send!({
  url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`,
  cookie: '',
  chatIds,
} satisfies SoakReady);
