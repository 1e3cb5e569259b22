import { LRUCache } from 'lru-cache';
import type { ChatModule } from '@contract/chats';
import { MODULE_KEYS } from '@contract/module-list';
import type { Clock } from '../../lib/clock';
import type { Bus, Unsubscribe } from '../../realtime/bus';

/**
 * Bus channel on which every change to users' Recent lists is announced after commit, so every
 * process drops those users' cached lists. Message: ChatListsChangedMessage.
 */
export const CHAT_LISTS_CHANGED_CHANNEL = 'chat-lists-changed';
export interface ChatListsChangedMessage {
  userIds: string[];
}

/** Safety net only: a lost bus message keeps a list stale at most this long. */
export const CHAT_LIST_CACHE_TTL_MS = 30_000;
/** Lists (user x module) one process keeps cached (least recently used go first). */
export const CHAT_LIST_CACHE_MAX = 20_000;

const CHAT_MODULES: readonly ChatModule[] = [...MODULE_KEYS, 'dashboard'];

/** Every list cache of this process: a change made here leaves all of them at once. */
const processCaches = new Set<ChatListCache>();

/**
 * Each user's Recent list per module, served from memory (the module page asks for it on every
 * visit; on PGlite even a prepared query costs milliseconds). Exact, not eventually right: every
 * write that changes what a list shows calls chatListsChanged after its commit, the turn runtime
 * closing a reply included (docs/decisions/0009-recent-list-cache.md).
 */
export class ChatListCache {
  /** Each list as the JSON answer it is sent as (checked against its schema when read). */
  private readonly lists: LRUCache<string, string>;
  /**
   * Bumped by every change: a list read from the database while a change committed (read before,
   * stored after) may be the old one, so it is answered but not kept.
   */
  private epoch = 0;
  private unsubscribe: Unsubscribe | undefined;

  private constructor(
    readonly bus: Bus,
    clock: Clock,
  ) {
    // The clock drives the TTL too, so a test that moves its clock moves it; read on every get
    // (ttlResolution 0), not remembered for a millisecond of real time the clock may have jumped.
    const perf = { now: () => clock.now().getTime() };
    this.lists = new LRUCache({
      max: CHAT_LIST_CACHE_MAX,
      ttl: CHAT_LIST_CACHE_TTL_MS,
      ttlResolution: 0,
      perf,
    });
  }

  static async start(deps: { bus: Bus; clock: Clock }): Promise<ChatListCache> {
    const cache = new ChatListCache(deps.bus, deps.clock);
    cache.unsubscribe = await deps.bus.subscribe(CHAT_LISTS_CHANGED_CHANNEL, (raw) => {
      const userIds = (raw as Partial<ChatListsChangedMessage> | null)?.userIds;
      if (Array.isArray(userIds)) cache.forget(userIds.filter((u) => typeof u === 'string'));
    });
    processCaches.add(cache);
    return cache;
  }

  async close(): Promise<void> {
    processCaches.delete(this);
    this.lists.clear();
    await this.unsubscribe?.();
  }

  forget(userIds: readonly string[]): void {
    this.epoch += 1;
    for (const userId of userIds) {
      for (const module of CHAT_MODULES) this.lists.delete(keyOf(userId, module));
    }
  }

  /** The cached list, or `load`'s (kept unless a change came in while it was read). */
  async get(userId: string, module: ChatModule, load: () => Promise<string>): Promise<string> {
    const key = keyOf(userId, module);
    const hit = this.lists.get(key);
    if (hit) return hit;
    const epoch = this.epoch;
    const list = await load();
    if (epoch === this.epoch) this.lists.set(key, list);
    return list;
  }
}

const keyOf = (userId: string, module: ChatModule) => `${userId} ${module}`;

/**
 * The one way to say "these users' Recent lists changed": call it after the write committed
 * (chat created, retitled, deleted, restored or purged; a message stored or a reply closed, which
 * reorders the list or makes an empty chat listable). Drops the lists here at once, then tells
 * the other processes through the bus. A bus failure is not the writer's: the TTL bounds it.
 */
export async function chatListsChanged(userIds: Iterable<string>): Promise<void> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return;
  const buses = new Set<Bus>();
  for (const cache of processCaches) {
    cache.forget(ids);
    buses.add(cache.bus);
  }
  const message: ChatListsChangedMessage = { userIds: ids };
  await Promise.all(
    [...buses].map((bus) =>
      bus.publish(CHAT_LISTS_CHANGED_CHANNEL, message).catch(() => undefined),
    ),
  );
}
