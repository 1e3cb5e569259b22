import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';

export type Unsubscribe = () => Promise<void>;

/**
 * The event bus: WebSocket fan-out across processes, rate-limit counters and short-lived
 * turn logs. In-process by default; Redis when REDIS_URL is set, so N processes share it.
 */
export interface Bus {
  readonly kind: 'memory' | 'redis';
  publish(channel: string, message: unknown): Promise<void>;
  subscribe(channel: string, handler: (message: unknown) => void): Promise<Unsubscribe>;
  /**
   * Counts one hit on a fixed window that starts with the first hit.
   * Returns the count so far and the milliseconds until the window ends.
   */
  hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }>;
  /** Reads a counter without counting. */
  peek(key: string): Promise<{ count: number; resetMs: number }>;
  resetCounter(key: string): Promise<void>;
  /** Appends to a list that expires ttlMs after its last append (turn event logs). */
  append(key: string, value: string, ttlMs: number): Promise<void>;
  /** The whole list, oldest first. */
  readList(key: string): Promise<string[]>;
  /** Sets a value that expires after ttlMs. */
  setValue(key: string, value: string, ttlMs: number): Promise<void>;
  getValue(key: string): Promise<string | null>;
  deleteKeys(...keys: string[]): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

interface Expiring<T> {
  value: T;
  expiresAt: number;
}

export class MemoryBus implements Bus {
  readonly kind = 'memory' as const;
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  private readonly counters = new Map<string, Expiring<number>>();
  private readonly lists = new Map<string, Expiring<string[]>>();
  private readonly values = new Map<string, Expiring<string>>();

  constructor(private readonly now: () => number = Date.now) {}

  private live<T>(map: Map<string, Expiring<T>>, key: string): Expiring<T> | undefined {
    const e = map.get(key);
    if (e && e.expiresAt <= this.now()) {
      map.delete(key);
      return undefined;
    }
    return e;
  }

  async publish(channel: string, message: unknown): Promise<void> {
    // Serialise like Redis would, so handlers never share mutable objects with the publisher.
    const copy: unknown = JSON.parse(JSON.stringify(message));
    this.emitter.emit(channel, copy);
  }

  async subscribe(channel: string, handler: (message: unknown) => void): Promise<Unsubscribe> {
    this.emitter.on(channel, handler);
    return async () => {
      this.emitter.off(channel, handler);
    };
  }

  async hit(key: string, windowMs: number) {
    const now = this.now();
    const e = this.live(this.counters, key);
    if (!e) {
      this.counters.set(key, { value: 1, expiresAt: now + windowMs });
      return { count: 1, resetMs: windowMs };
    }
    e.value += 1;
    return { count: e.value, resetMs: e.expiresAt - now };
  }

  async peek(key: string) {
    const e = this.live(this.counters, key);
    return e ? { count: e.value, resetMs: e.expiresAt - this.now() } : { count: 0, resetMs: 0 };
  }

  async resetCounter(key: string) {
    this.counters.delete(key);
  }

  async append(key: string, value: string, ttlMs: number) {
    const e = this.live(this.lists, key);
    const expiresAt = this.now() + ttlMs;
    if (e) {
      e.value.push(value);
      e.expiresAt = expiresAt;
    } else this.lists.set(key, { value: [value], expiresAt });
  }

  async readList(key: string) {
    return [...(this.live(this.lists, key)?.value ?? [])];
  }

  async setValue(key: string, value: string, ttlMs: number) {
    this.values.set(key, { value, expiresAt: this.now() + ttlMs });
  }

  async getValue(key: string) {
    return this.live(this.values, key)?.value ?? null;
  }

  async deleteKeys(...keys: string[]) {
    for (const k of keys) {
      this.counters.delete(k);
      this.lists.delete(k);
      this.values.delete(k);
    }
  }

  async ping() {}

  async close() {
    this.emitter.removeAllListeners();
  }
}

export class RedisBus implements Bus {
  readonly kind = 'redis' as const;
  private readonly cmd: Redis;
  private readonly sub: Redis;
  private readonly handlers = new Map<string, Set<(message: unknown) => void>>();

  constructor(
    url: string,
    /** Prefix for every key and channel, so tests and deployments can share one Redis. */
    private readonly prefix = 'atrium:',
  ) {
    this.cmd = new Redis(url, { maxRetriesPerRequest: 2, lazyConnect: false });
    this.sub = new Redis(url, { maxRetriesPerRequest: 2, lazyConnect: false });
    this.cmd.on('error', () => undefined);
    this.sub.on('error', () => undefined);
    this.sub.on('message', (channel: string, raw: string) => {
      const set = this.handlers.get(channel);
      if (!set) return;
      let message: unknown;
      try {
        message = JSON.parse(raw);
      } catch {
        return;
      }
      for (const h of set) h(message);
    });
  }

  private k(key: string) {
    return this.prefix + key;
  }

  async publish(channel: string, message: unknown) {
    await this.cmd.publish(this.k(channel), JSON.stringify(message));
  }

  async subscribe(channel: string, handler: (message: unknown) => void): Promise<Unsubscribe> {
    const ch = this.k(channel);
    let set = this.handlers.get(ch);
    if (!set) {
      set = new Set();
      this.handlers.set(ch, set);
      await this.sub.subscribe(ch);
    }
    set.add(handler);
    return async () => {
      const s = this.handlers.get(ch);
      if (!s) return;
      s.delete(handler);
      if (s.size === 0) {
        this.handlers.delete(ch);
        await this.sub.unsubscribe(ch);
      }
    };
  }

  async hit(key: string, windowMs: number) {
    const k = this.k(key);
    // INCR then set the window only on the first hit, atomically.
    const [count, ttl] = (await this.cmd.eval(
      "local c = redis.call('INCR', KEYS[1]) if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return {c, redis.call('PTTL', KEYS[1])}",
      1,
      k,
      String(windowMs),
    )) as [number, number];
    return { count, resetMs: Math.max(0, ttl) };
  }

  async peek(key: string) {
    const k = this.k(key);
    const [count, ttl] = await Promise.all([this.cmd.get(k), this.cmd.pttl(k)]);
    return { count: count ? Number(count) : 0, resetMs: Math.max(0, ttl) };
  }

  async resetCounter(key: string) {
    await this.cmd.del(this.k(key));
  }

  async append(key: string, value: string, ttlMs: number) {
    const k = this.k(key);
    await this.cmd.multi().rpush(k, value).pexpire(k, ttlMs).exec();
  }

  async readList(key: string) {
    return this.cmd.lrange(this.k(key), 0, -1);
  }

  async setValue(key: string, value: string, ttlMs: number) {
    await this.cmd.set(this.k(key), value, 'PX', ttlMs);
  }

  async getValue(key: string) {
    return this.cmd.get(this.k(key));
  }

  async deleteKeys(...keys: string[]) {
    if (keys.length) await this.cmd.del(...keys.map((k) => this.k(k)));
  }

  async ping() {
    await this.cmd.ping();
  }

  async close() {
    await Promise.allSettled([this.sub.quit(), this.cmd.quit()]);
  }
}

export function createBus(redisUrl: string | undefined, prefix?: string): Bus {
  return redisUrl ? new RedisBus(redisUrl, prefix) : new MemoryBus();
}
