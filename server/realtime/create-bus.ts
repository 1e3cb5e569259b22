import { MemoryBus, type Bus } from './bus';

/** The in-process bus, or Redis's when REDIS_URL is set (N processes share it). */
export async function createBus(
  redisUrl: string | undefined,
  prefix?: string,
  onStateChange?: (down: boolean) => void,
): Promise<Bus> {
  if (!redisUrl) return new MemoryBus();
  // ioredis loads only when Redis is configured (ADR 0104): the embedded default never needs it.
  const { RedisBus } = await import('./redis-bus');
  return new RedisBus(redisUrl, prefix, onStateChange);
}
