import { vi } from 'vitest';

// A fake server for client tests: fetch answers by "METHOD url", and every call is recorded with
// its JSON body. A call no route names fails the test.

export type Reply = { status: number; body: unknown };
/** A route's answer, fixed or made from the request (a rejected promise is a network failure). */
export type Route = Reply | ((init: RequestInit | undefined) => Reply | Promise<never>);

export function stubApi(routes: Record<string, Route>) {
  const calls: { key: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url}`;
      calls.push({ key, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      const route = routes[key];
      if (!route) throw new Error(`unexpected call ${key}`);
      const { status, body } = await (typeof route === 'function' ? route(init) : route);
      return new Response(JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return calls;
}
