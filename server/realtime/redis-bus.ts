import { Redis } from 'ioredis';
import { MemoryBus, type Bus, type Unsubscribe } from './bus';

/** A Redis command that does not answer in this time counts as Redis down (fallback, no wait). */
export const REDIS_COMMAND_TIMEOUT_MS = 1_000;
/** While degraded, Redis is asked (PING) this often whether it answers again. */
export const REDIS_PROBE_MS = 1_000;

/**
 * The bus on Redis, shared by every process. When Redis is down or hangs, a command fails within
 * REDIS_COMMAND_TIMEOUT_MS and this process carries on with an in-process bus: counters and turn
 * logs of its own, events to its own sockets. While degraded no command waits on Redis (each
 * would cost the timeout); a PING every REDIS_PROBE_MS, or ioredis' reconnect, finds it answering
 * again, and from then on Redis serves and channels are subscribed anew. During the outage no
 * orphan is swept (another process's heartbeat cannot be seen).
 */
export class RedisBus implements Bus {
  readonly kind = 'redis' as const;
  private readonly cmd: Redis;
  private readonly sub: Redis;
  private readonly handlers = new Map<string, Set<(message: unknown) => void>>();
  /** What serves while Redis does not. */
  private readonly local = new MemoryBus();
  private down = false;
  private probe: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    url: string,
    /** Prefix for every key and channel, so tests and deployments can share one Redis. */
    private readonly prefix = 'atrium:',
    private readonly onStateChange: (down: boolean) => void = () => undefined,
  ) {
    const options = {
      lazyConnect: false,
      // Fail fast while disconnected instead of queueing: callers fall back at once.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 2_000,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      retryStrategy: (attempt: number) => Math.min(attempt * 200, 2_000),
    };
    this.cmd = new Redis(url, options);
    this.sub = new Redis(url, { ...options, commandTimeout: undefined });
    this.cmd.on('error', () => undefined);
    this.sub.on('error', () => undefined);
    this.cmd.on('ready', () => this.setDown(false));
    this.cmd.on('close', () => this.setDown(true));
    // After a reconnect, every channel we listen on is subscribed again (also those whose first
    // subscribe failed during the outage).
    this.sub.on('ready', () => {
      const channels = [...this.handlers.keys()];
      if (channels.length) void this.sub.subscribe(...channels).catch(() => undefined);
    });
    this.sub.on('message', (channel: string, raw: string) => {
      let message: unknown;
      try {
        message = JSON.parse(raw);
      } catch {
        return;
      }
      this.dispatch(channel, message);
    });
  }

  get degraded(): boolean {
    return this.down;
  }

  private setDown(down: boolean): void {
    if (this.down === down) return;
    this.down = down;
    this.onStateChange(down);
    if (down) this.scheduleProbe();
    else if (this.probe) {
      clearTimeout(this.probe);
      this.probe = null;
    }
  }

  /**
   * While degraded, asks Redis whether it answers again. A hang keeps the connection open, so no
   * reconnect ('ready') would ever end the outage; a PING that answers does.
   */
  private scheduleProbe(): void {
    if (this.probe || this.closed) return;
    this.probe = setTimeout(() => {
      this.cmd.ping().then(
        () => {
          this.probe = null;
          if (this.cmd.status === 'ready') this.setDown(false);
          else this.scheduleProbe();
        },
        () => {
          this.probe = null;
          if (this.down) this.scheduleProbe();
        },
      );
    }, REDIS_PROBE_MS);
    this.probe.unref();
  }

  private dispatch(channel: string, message: unknown): void {
    const set = this.handlers.get(channel);
    if (set) for (const h of set) h(message);
  }

  /**
   * Runs a Redis command; on failure marks the bus degraded and runs the fallback instead. While
   * degraded, the fallback at once: a hang costs one command's timeout, not one per command.
   */
  private async orLocal<T>(redis: () => Promise<T>, fallback: () => Promise<T>): Promise<T> {
    if (this.down) return fallback();
    try {
      return await redis();
    } catch {
      this.setDown(true);
      return fallback();
    }
  }

  /**
   * Waits for a command on the subscriber connection, which has no command timeout of its own
   * (ioredis), at most REDIS_COMMAND_TIMEOUT_MS: past it the bus is degraded and the caller goes
   * on (events published meanwhile reach it through this process; 'ready' subscribes anew).
   */
  private async subscriberCommand(command: Promise<unknown>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), REDIS_COMMAND_TIMEOUT_MS);
    });
    const done = command.then(
      () => 'done' as const,
      () => 'failed' as const,
    );
    if ((await Promise.race([done, late])) === 'late') this.setDown(true);
    clearTimeout(timer);
  }

  private k(key: string) {
    return this.prefix + key;
  }

  async publish(channel: string, message: unknown) {
    const ch = this.k(channel);
    await this.orLocal(
      async () => void (await this.cmd.publish(ch, JSON.stringify(message))),
      // This process's own listeners still get it (through a copy, as from Redis).
      async () => this.dispatch(ch, JSON.parse(JSON.stringify(message)) as unknown),
    );
  }

  async subscribe(channel: string, handler: (message: unknown) => void): Promise<Unsubscribe> {
    const ch = this.k(channel);
    let set = this.handlers.get(ch);
    if (!set) {
      set = new Set();
      this.handlers.set(ch, set);
      // Down: the 'ready' handler subscribes it when Redis is back.
      await this.subscriberCommand(this.sub.subscribe(ch));
    }
    set.add(handler);
    return async () => {
      const s = this.handlers.get(ch);
      if (!s) return;
      s.delete(handler);
      if (s.size === 0) {
        this.handlers.delete(ch);
        await this.subscriberCommand(this.sub.unsubscribe(ch));
      }
    };
  }

  async hit(key: string, windowMs: number, amount = 1) {
    const k = this.k(key);
    return this.orLocal(
      async () => {
        // INCRBY then set the window only on the first hit, atomically.
        const [count, ttl] = (await this.cmd.eval(
          "local c = redis.call('INCRBY', KEYS[1], ARGV[2]) if c == tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return {c, redis.call('PTTL', KEYS[1])}",
          1,
          k,
          String(windowMs),
          String(amount),
        )) as [number, number];
        return { count, resetMs: Math.max(0, ttl) };
      },
      () => this.local.hit(key, windowMs, amount),
    );
  }

  async peek(key: string) {
    const k = this.k(key);
    return this.orLocal(
      async () => {
        const [count, ttl] = await Promise.all([this.cmd.get(k), this.cmd.pttl(k)]);
        return { count: count ? Number(count) : 0, resetMs: Math.max(0, ttl) };
      },
      () => this.local.peek(key),
    );
  }

  async resetCounter(key: string) {
    await Promise.all([
      this.orLocal(
        async () => void (await this.cmd.del(this.k(key))),
        async () => undefined,
      ),
      this.local.resetCounter(key),
    ]);
  }

  async append(key: string, value: string, ttlMs: number) {
    const k = this.k(key);
    await this.orLocal(
      async () => void (await this.cmd.multi().rpush(k, value).pexpire(k, ttlMs).exec()),
      () => this.local.append(key, value, ttlMs),
    );
  }

  async readList(key: string) {
    const fromRedis = await this.orLocal(
      () => this.cmd.lrange(this.k(key), 0, -1),
      async () => [],
    );
    // Events recorded here during an outage are kept here: a reader gets those too.
    const local = await this.local.readList(key);
    return local.length > fromRedis.length ? local : fromRedis;
  }

  async setValue(key: string, value: string, ttlMs: number) {
    await this.orLocal(
      async () => void (await this.cmd.set(this.k(key), value, 'PX', ttlMs)),
      () => this.local.setValue(key, value, ttlMs),
    );
  }

  async getValue(key: string) {
    return this.orLocal(
      () => this.cmd.get(this.k(key)),
      () => this.local.getValue(key),
    );
  }

  async deleteKeys(...keys: string[]) {
    if (!keys.length) return;
    await this.local.deleteKeys(...keys);
    await this.orLocal(
      async () => void (await this.cmd.del(...keys.map((k) => this.k(k)))),
      async () => undefined,
    );
  }

  /** Whether Redis answers now; an answer ends a degraded spell at once. */
  async ping() {
    await this.cmd.ping();
    if (this.cmd.status === 'ready') this.setDown(false);
  }

  async close() {
    this.closed = true;
    if (this.probe) clearTimeout(this.probe);
    await Promise.allSettled([this.sub.quit(), this.cmd.quit()]);
    // A quit that could not reach Redis leaves ioredis reconnecting: stop that too.
    this.sub.disconnect();
    this.cmd.disconnect();
    await this.local.close();
  }
}
