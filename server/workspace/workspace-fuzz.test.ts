import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  expectSignedOutRefused,
  onOne,
  titleCase,
  caseOf,
  expectCleanLog,
  field,
  idRef,
  nastyNumber,
  nastyString,
  paramText,
  queryString,
  runCase,
  wireBody,
  type Case,
} from '../../test-support/fuzz';
import { useWorld } from '../../test-support/server-tests';

// Property-based fuzzing of the chat list, search, create, delete, restore and export
// routes, saved files and starters (messages and attachments: workspace-fuzz-messages.test.ts).
// Whatever a signed-in or signed-out client sends: no 5xx, refusals as ErrorBody, a refused
// request writes nothing, another user's resources stay unreadable and unchanged, and no secret
// reaches a log line.

const modules = fc.constantFrom('brand-hub', 'governance', 'talent-intelligence', 'dashboard');
const small = fc.integer({ min: -2, max: 120 }).map(String);

/** Cursors of every kind: well-formed keys with impossible dates, bad uuids, garbage. */
const timestamp = fc.oneof(
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString().replace('T', ' ')),
  fc.constantFrom(
    '2026-11-24 02:16:24.123456+00',
    '9999-99-99 99:99:99',
    '2026-02-30 25:61:61+00',
    '0000-00-00 00:00:00',
    '2026-01-01 00:00:00.1234567890123+99:99',
    '99999-01-01 00:00:00+00',
  ),
);
const cursor = fc.oneof(
  fc
    .tuple(timestamp, timestamp, fc.oneof(fc.uuid(), nastyString))
    .map((parts) => Buffer.from(parts.join('|')).toString('base64url')),
  nastyString,
);

const chatRoutes: fc.Arbitrary<Case> = fc.oneof(
  caseOf(
    'list',
    fc.constant([]),
    queryString({ module: modules }).map((q) => () => ({
      method: 'GET' as const,
      url: `/api/chats?${q}`,
    })),
  ),
  caseOf(
    'all',
    fc.constant([]),
    queryString({ module: modules, limit: small, cursor }).map((q) => () => ({
      method: 'GET' as const,
      url: `/api/chats/all?${q}`,
    })),
  ),
  caseOf(
    'search',
    fc.constant([]),
    queryString({
      q: fc.oneof(nastyString, fc.constantFrom('chat', 'Actor', 'victim', 'a & b | !c:*', 'ﷺ ﷻ')),
      limit: small,
    }).map((q) => () => ({ method: 'GET' as const, url: `/api/chats/search?${q}` })),
  ),
  caseOf(
    'create',
    fc.constant([]),
    wireBody(
      fc.record({ title: field(nastyString), module: field(modules) }, { requiredKeys: [] }),
    ).map((body) => () => ({ method: 'POST' as const, url: '/api/chats', body })),
  ),
  onOne('delete', 'chat', 'DELETE', (id) => `/api/chats/${id}`),
  onOne('restore', 'chat', 'POST', (id) => `/api/chats/${id}/restore`),
  caseOf(
    'export',
    fc.tuple(idRef('chat')),
    queryString({ format: fc.constantFrom('markdown', 'json', 'pdf', 'JSON') }).map(
      (q) =>
        ([id]: string[]) => ({
          method: 'GET' as const,
          url: `/api/chats/${paramText(id!)}/export?${q}`,
        }),
    ),
  ),
  titleCase,
  caseOf(
    'starters',
    fc.constant([]),
    queryString({ module: modules }).map((q) => () => ({
      method: 'GET' as const,
      url: `/api/starters?${q}`,
    })),
  ),
  onOne('list files', 'chat', 'GET', (id) => `/api/chats/${id}/files`),
  caseOf(
    'save file',
    fc.tuple(idRef('chat')),
    wireBody(
      fc.record(
        {
          fileName: field(
            fc.oneof(
              nastyString,
              nastyString.map((s) => `${s}.md`),
              fc.constantFrom('Actor chat 0.md', 'report.html', ' .md ', 'CON', 'a/b\\c.txt'),
            ),
          ),
          fileContent: field(fc.oneof(nastyString, fc.constant('x'.repeat(5_000_001)))),
          fileType: field(fc.constantFrom('markdown', 'html', 'text', 'pdf')),
        },
        { requiredKeys: [] },
      ),
    ).map((body) => ([id]: string[]) => ({
      method: 'POST' as const,
      url: `/api/chats/${paramText(id!)}/files`,
      body,
    })),
  ),
  onOne('delete file', 'file', 'DELETE', (id) => `/api/files/${id}`),
);

describe('chat, saved-file and starter routes, fuzzed', () => {
  const world = useWorld(2, 60_000);

  it('signed in: never a 5xx, refusals write nothing, the victim stays unreadable', async () => {
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(chatRoutes, fc.nat({ max: 1 }), async (c, a) => {
        seen.add((await runCase(world, c, { actor: world.actors[a]! })).statusCode);
      }),
      { numRuns: 100 },
    );
    // The cases reach the routes' work, not only their validation.
    expect([...seen]).toEqual(expect.arrayContaining([200, 400, 404]));
    expectCleanLog(world);
  }, 120_000);

  it('signed out: every route refuses, nothing is written', async () => {
    await expectSignedOutRefused(world, chatRoutes, 40);
  }, 120_000);

  it('odd numbers in the page and search limits are refused or served, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/api/chats/all', '/api/chats/search?q=chat&'),
        nastyNumber,
        async (path, n) => {
          const sep = path.includes('?') ? '' : '?';
          await runCase(
            world,
            {
              route: 'limit',
              refs: [],
              build: () => ({ method: 'GET', url: `${path}${sep}limit=${n}` }),
            },
            { actor: world.actors[0]! },
          );
        },
      ),
      { numRuns: 20 },
    );
    expectCleanLog(world);
  }, 60_000);
});
