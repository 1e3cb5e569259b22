import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AnswerShapeError, ApiError, http, onUnauthorized, serverMessage } from './http';

// http(): what a caller gets from a call, for the answers a server (or a proxy before it) can give.

const Chat = z.object({ id: z.string(), title: z.string() });

function answer(status: number, body: string) {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () => new Response(body, { status, headers: { 'Content-Type': 'application/json' } }),
    ),
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('http()', () => {
  it('resolves with the answer as its schema parsed it', async () => {
    answer(200, JSON.stringify({ id: 'c1', title: 'Risk review', extra: true }));
    await expect(http('GET', '/api/chats/c1', Chat)).resolves.toEqual({
      id: 'c1',
      title: 'Risk review',
    });
  });

  it("hands a 4xx answer's message from the server to the caller", async () => {
    answer(409, JSON.stringify({ message: 'File already saved', code: 'duplicate' }));
    const err = await http('POST', '/api/chats/c1/files', Chat).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 409, code: 'duplicate' });
    expect(serverMessage(err, 'fallback')).toBe('File already saved');
  });

  it("falls back to the caller's words when a 4xx body is not the server's ErrorBody", async () => {
    answer(502, '<html>Bad gateway</html>');
    const err = await http('GET', '/api/chats/c1', Chat).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 502, message: '502: <html>Bad gateway</html>' });
    expect(serverMessage(err, 'Try again.')).toBe('Try again.');
  });

  it('rejects an OK answer that does not match its schema instead of passing it on', async () => {
    answer(200, JSON.stringify({ id: 7 }));
    const err = await http('GET', '/api/chats/c1', Chat).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AnswerShapeError);
    expect(err).toMatchObject({ message: 'Unexpected answer from /api/chats/c1' });
  });

  it('rejects an OK answer that is not JSON', async () => {
    answer(200, '<html>sign-in page of a proxy</html>');
    await expect(http('GET', '/api/chats/c1', Chat)).rejects.toBeInstanceOf(AnswerShapeError);
  });

  it('loads a lazy schema beside the request and parses with it', async () => {
    answer(200, JSON.stringify({ id: 'c2', title: 'Pay bands' }));
    const load = vi.fn(async () => Chat);
    await expect(http('GET', '/api/chats/c2', load)).resolves.toEqual({
      id: 'c2',
      title: 'Pay bands',
    });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('tells the 401 listeners when the session has ended', async () => {
    answer(401, JSON.stringify({ message: 'Not signed in' }));
    const heard = vi.fn();
    const stop = onUnauthorized(heard);
    await expect(http('GET', '/api/chats', Chat)).rejects.toMatchObject({ status: 401 });
    stop();
    expect(heard).toHaveBeenCalledTimes(1);
  });
});
