import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { nextChunk, publishEvery, type FromServer, type ToServer } from './protocol';

/**
 * The reference of bench/ws-fanout, run as a child process pinned like Atrium's: a bare `ws`
 * server whose clients join a room by its id, and the same events (same shape and size) fanned
 * out to each room: serialised once, sent to every socket of the room. No auth, no bus, no feed.
 */
const ROOMS = 10;
const send = (m: FromServer) => process.send!(m);
const rooms = Array.from({ length: ROOMS }, () => ({
  chatId: crypto.randomUUID(),
  messageId: crypto.randomUUID(),
  seq: 0,
  sockets: new Set<WebSocket>(),
}));
const byId = new Map<string, (typeof rooms)[number]>(rooms.map((r) => [r.chatId, r]));

const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
wss.on('connection', (socket) => {
  socket.on('message', (data) => {
    const { chatId } = JSON.parse(String(data)) as { chatId: string };
    const room = byId.get(chatId);
    if (!room) return;
    room.sockets.add(socket);
    socket.on('close', () => room.sockets.delete(socket));
    socket.send(JSON.stringify({ type: 'joined', chatId }));
  });
});
await new Promise((r) => wss.once('listening', r));

/** A stream_chunk to the sockets in a room, as one frame serialised once. */
const publish = (room: (typeof rooms)[number]) => {
  const frame = JSON.stringify(nextChunk(room));
  for (const s of room.sockets) s.send(frame);
};

process.on('message', (m: ToServer) => {
  if (m.cmd === 'run')
    void publishEvery(rooms, m.ms, m.rate, publish).then((published) =>
      send({ kind: 'done', published }),
    );
  if (m.cmd === 'stop') wss.close(() => process.exit(0));
});

send({
  kind: 'ready',
  url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`,
  joins: rooms.map((r) => ({ chatId: r.chatId })),
});
