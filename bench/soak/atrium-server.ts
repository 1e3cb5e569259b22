import { chats } from '../../server/db/schema';
import { MemoryBus } from '../../server/realtime/bus';
import { recordTurnEvent } from '../../server/realtime/turn-feed';
import { startAtrium } from '../lib/atrium';
import { startLoadingReply } from '../lib/chats';
import { CHATS, answerParent, streamTurns, type SoakReady } from './turns';

/**
 * The soak's Atrium side (run by index.ts with --expose-gc, pinned to the server core): the real
 * app (buildApp, PGlite, the in-process bus) streaming turns through its turn feed, as the agent
 * runtime does: the reply's row is written as `loading`, its events recorded on the bus (list,
 * then channel), and /ws sends them to the sockets that joined the chat.
 */
const bus = new MemoryBus();
const atrium = await startAtrium({ bus });
const db = atrium.database.db;
const chatIds = [atrium.chatId];
for (let i = 1; i < CHATS; i += 1) {
  const [chat] = await db
    .insert(chats)
    .values({ userId: atrium.user.id, title: `Soak ${i}`, module: 'talent-intelligence' })
    .returning();
  chatIds.push(chat!.id);
}

/** A new `loading` reply at the end of the chat (the one before it finished). */
async function startTurn(chatId: string): Promise<string> {
  return (await startLoadingReply(db, chatId)).id;
}

const streaming = streamTurns(chatIds, (e) => recordTurnEvent(atrium.bus, e), startTurn);
answerParent(streaming, () => bus.size);
process.on('SIGTERM', () => {
  void streaming
    .stop()
    .then(() => atrium.close())
    .then(() => bus.close())
    .finally(() => process.exit(0));
});
process.send!({
  url: `${atrium.base.replace(/^http/, 'ws')}/ws`,
  cookie: atrium.cookie.header,
  chatIds,
} satisfies SoakReady);
