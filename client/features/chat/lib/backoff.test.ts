import { describe, expect, it } from 'vitest';
import { chatFetchRetryDelay, reconnectDelay, shouldRetryChatFetch } from './backoff';

describe('socket reconnect schedule', () => {
  it('waits 1 s doubling, capped at 10 s, for 5 attempts', () => {
    expect([1, 2, 3, 4, 5].map(reconnectDelay)).toEqual([1_000, 2_000, 4_000, 8_000, 10_000]);
  });
  it('gives up after the 5th attempt', () => {
    expect(reconnectDelay(6)).toBeNull();
    expect(reconnectDelay(0)).toBeNull();
  });
});

describe('chat fetch retries', () => {
  it('waits 1 s doubling, capped at 5 s', () => {
    expect([0, 1, 2, 3].map(chatFetchRetryDelay)).toEqual([1_000, 2_000, 4_000, 5_000]);
  });
  it('retries up to 3 times on server and network failures', () => {
    expect(shouldRetryChatFetch(0, 500)).toBe(true);
    expect(shouldRetryChatFetch(2, undefined)).toBe(true);
    expect(shouldRetryChatFetch(3, 503)).toBe(false);
  });
  it('does not retry a 404 or 401: the answer will not change', () => {
    expect(shouldRetryChatFetch(0, 404)).toBe(false);
    expect(shouldRetryChatFetch(0, 401)).toBe(false);
  });
});
