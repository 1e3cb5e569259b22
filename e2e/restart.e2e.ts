import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disposeServer, startServer, type RunningServer } from '../test-support/browser/harness';
import { cookieHeader, signUpThroughApi, uniqueE2eEmail } from '../test-support/browser/support';

// The product started as `npm start` does (embedded PGlite in DATA_DIR): what a user made is
// still there after the process stops and starts again.
describe('data survives a restart on the embedded defaults', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({ DATABASE_URL: '' });
  });
  afterAll(async () => {
    if (server) await disposeServer(server);
  });

  it('keeps the account, the session and the chats across a restart', async () => {
    const user = await signUpThroughApi(server, {
      firstName: 'Rosa',
      lastName: 'Franklin',
      email: uniqueE2eEmail('restart'),
    });
    const headers = { Cookie: cookieHeader(user.cookie), 'Content-Type': 'application/json' };
    const created = await fetch(`${server.url}/api/chats`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: 'Before the restart', module: 'governance' }),
    });
    expect(created.status).toBe(201);
    const chat = (await created.json()) as { id: string };

    await server.stop();
    await server.restart();

    // The same session cookie still signs the user in, and the chat is listed.
    const me = await fetch(`${server.url}/api/auth/user`, { headers });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe(user.email);
    // (An empty chat stays out of the lists, so the chat is read by its id.)
    const kept = await fetch(`${server.url}/api/chats/${chat.id}`, { headers });
    expect(kept.status).toBe(200);
    expect(((await kept.json()) as { title: string }).title).toBe('Before the restart');
    // The seed did not run twice.
    const starters = await fetch(`${server.url}/api/starters?module=governance`, { headers });
    const names = ((await starters.json()) as Array<{ name: string }>).map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('start-up with a bad configuration', () => {
  it('stops with a one-line explanation and a non-zero exit code', async () => {
    const { spawnSync } = await import('node:child_process');
    const res = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: new URL('..', import.meta.url).pathname,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '5000', LOG_LEVEL: 'loud' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(res.status).toBe(1);
    expect(res.stderr.trim().split('\n')).toEqual([
      'Invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
    ]);
    expect(res.stdout).toBe('');
  });
});
