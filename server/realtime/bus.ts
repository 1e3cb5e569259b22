import { EventEmitter } from 'node:events';
import { LRUCache } from 'lru-cache';

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
  hit(key: string, windowMs: number, amount?: number): Promise<{ count: number; resetMs: number }>;
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
  /** True while Redis does not answer and this process runs on its in-process fallback. */
  readonly degraded: boolean;
}

/**
 * Bounds of the in-process state: every entry expires on its own (TTL, purged every 15 s, not
 * only when read again) and the number of keys is capped, least recently used first out.
 */
export const MEMORY_BUS_MAX_KEYS = 100_000;

interface Counter {
  count: number;
  expiresAt: number;
}

export class MemoryBus implements Bus {
  readonly kind = 'memory' as const;
  readonly degraded = false;
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  private readonly counters: LRUCache<string, Counter>;
  private readonly lists: LRUCache<string, string[]>;
  private readonly values: LRUCache<string, string>;

  constructor(
    private readonly now: () => number = Date.now,
    maxKeys = MEMORY_BUS_MAX_KEYS,
  ) {
    // perf.now is our clock too, so a test's clock moves expiry (lru-cache reads it for TTLs).
    const perf = { now };
    // ttlResolution 0: expiry reads the clock each time, so a moved test clock counts at once.
    // Bounded by maxSize (each key counts 1), not max: lru-cache preallocates arrays for `max`
    // entries, 12 MB and 40 ms at start for three caches that hold a few keys most of the time.
    const opts = { maxSize: maxKeys, sizeCalculation: () => 1, perf, ttl: 1, ttlResolution: 0 };
    this.counters = new LRUCache<string, Counter>(opts);
    this.lists = new LRUCache<string, string[]>(opts);
    this.values = new LRUCache<string, string>(opts);
    // A sweep every 15 s drops what expired unread (a timer per key would cost more), so ended
    // turns' lists leave memory soon after their 30 s.
    this.purger = setInterval(() => this.purgeExpired(), 15_000);
    this.purger.unref();
  }

  private readonly purger: NodeJS.Timeout;

  /** Drops every expired entry now (the 15 s timer does this on its own). */
  purgeExpired(): void {
    this.counters.purgeStale();
    this.lists.purgeStale();
    this.values.purgeStale();
  }

  /** Keys held now, all maps together (for tests of the bounds). */
  get size(): number {
    return this.counters.size + this.lists.size + this.values.size;
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

  async hit(key: string, windowMs: number, amount = 1) {
    const now = this.now();
    const e = this.counters.get(key);
    if (!e || e.expiresAt <= now) {
      this.counters.set(key, { count: amount, expiresAt: now + windowMs }, { ttl: windowMs });
      return { count: amount, resetMs: windowMs };
    }
    e.count += amount;
    return { count: e.count, resetMs: e.expiresAt - now };
  }

  async peek(key: string) {
    const now = this.now();
    const e = this.counters.get(key);
    return e && e.expiresAt > now
      ? { count: e.count, resetMs: e.expiresAt - now }
      : { count: 0, resetMs: 0 };
  }

  async resetCounter(key: string) {
    this.counters.delete(key);
  }

  async append(key: string, value: string, ttlMs: number) {
    const list = this.lists.get(key);
    if (list) list.push(value);
    this.lists.set(key, list ?? [value], { ttl: ttlMs });
  }

  async readList(key: string) {
    return [...(this.lists.get(key) ?? [])];
  }

  async setValue(key: string, value: string, ttlMs: number) {
    this.values.set(key, value, { ttl: ttlMs });
  }

  async getValue(key: string) {
    return this.values.get(key) ?? null;
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
    clearInterval(this.purger);
    this.emitter.removeAllListeners();
    this.counters.clear();
    this.lists.clear();
    this.values.clear();
  }
}
