import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useTestApp } from '../../test-support/server-tests';
import { TEST_PASSWORD, createUser, signIn } from '../../test-support/factories';
import { runAdmin, type AdminIo } from '../admin/commands';
import { addCompany } from '../admin/companies';
import { auditLog, chats, users } from '../db/schema';
import { WS_CLOSE_SESSION_ENDED } from '@contract/constants';
import { call, freshIp } from '../../test-support/accounts';

// SCIM 2.0 provisioning through a client written here from RFC 7644 (JSON over HTTP with a
// bearer token), against the real app listening on a port, with a real socket for the
// "signed out within seconds" check.

const tag = () => randomBytes(3).toString('hex');
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** A minimal RFC 7644 client: what Entra ID or Okta send. */
class ScimClient {
  constructor(
    private readonly base: string,
    private readonly token: string,
  ) {}

  async request(method: string, path: string, body?: unknown) {
    const res = await fetch(`${this.base}/scim/v2${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        accept: 'application/scim+json',
        ...(body !== undefined ? { 'content-type': 'application/scim+json' } : {}),
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return {
      status: res.status,
      type: res.headers.get('content-type') ?? '',
      headers: res.headers,
      body: (text ? JSON.parse(text) : null) as Record<string, any>, // eslint-disable-line @typescript-eslint/no-explicit-any
    };
  }

  create(userName: string, extra: Record<string, unknown> = {}) {
    return this.request('POST', '/Users', {
      schemas: [USER],
      userName,
      name: { givenName: 'Grace', familyName: 'Hopper' },
      emails: [{ value: userName, type: 'work', primary: true }],
      active: true,
      ...extra,
    });
  }
  byUserName(userName: string) {
    return this.request('GET', `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`);
  }
  patch(id: string, Operations: unknown[]) {
    return this.request('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations });
  }
}

describe('SCIM provisioning', () => {
  let base: string;
  const io = (out: string[]): AdminIo => ({
    db: t.database.db,
    appUrl: t.config.appUrl,
    out: (s) => out.push(s),
    err: (s) => out.push(s),
  });

  async function tokenFor(name: string) {
    const out: string[] = [];
    expect(await runAdmin(['scim', 'token', name], io(out))).toBe(0);
    return /scim_[\w-]+/.exec(out.join('\n'))![0];
  }

  async function company() {
    const domain = `initech-${tag()}.test`;
    const name = `Initech ${tag()}`;
    const { id } = await addCompany(t.database.db, { name, emailDomains: [domain] });
    const token = await tokenFor(name);
    return { id, name, domain, token, scim: new ScimClient(base, token) };
  }

  const t = useTestApp();
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  it('refuses a request without a valid token, in SCIM error form', async () => {
    for (const auth of [undefined, 'Bearer scim_not-a-real-token-at-all-xxxxx', 'Basic abc']) {
      const res = await fetch(`${base}/scim/v2/Users`, {
        headers: auth ? { authorization: auth } : {},
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await res.json()).toMatchObject({ schemas: [ERROR], status: '401' });
    }
  });

  it('creates, finds by userName, gets, replaces and patches a user', async () => {
    const { scim, domain } = await company();
    const userName = `grace@${domain}`;
    const created = await scim.create(userName.toUpperCase(), { externalId: 'ext-1' });
    expect(created.status).toBe(201);
    expect(created.type).toMatch(/application\/scim\+json/);
    expect(created.body).toMatchObject({
      schemas: [USER],
      userName,
      externalId: 'ext-1',
      name: { givenName: 'Grace', familyName: 'Hopper' },
      active: true,
      meta: { resourceType: 'User' },
    });
    const id = created.body.id as string;
    expect(created.headers.get('location')).toBe(`${t.config.appUrl}/scim/v2/Users/${id}`);

    const found = await scim.byUserName(userName);
    expect(found.body).toMatchObject({ totalResults: 1, startIndex: 1, itemsPerPage: 1 });
    expect(found.body.Resources[0].id).toBe(id);
    expect((await scim.byUserName(`nobody@${domain}`)).body.totalResults).toBe(0);
    expect((await scim.request('GET', `/Users/${id}`)).body.userName).toBe(userName);

    expect((await scim.create(userName)).body).toMatchObject({
      status: '409',
      scimType: 'uniqueness',
    });

    const replaced = await scim.request('PUT', `/Users/${id}`, {
      schemas: [USER],
      userName,
      name: { givenName: 'Grace B.', familyName: 'Hopper' },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ name: { givenName: 'Grace B.' }, active: true });
    expect(replaced.body.externalId).toBeUndefined();

    const patched = await scim.patch(id, [
      { op: 'replace', path: 'name.familyName', value: 'Murray Hopper' },
      { op: 'Add', value: { externalId: 'ext-2', 'name.givenName': 'Grace' } },
    ]);
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      externalId: 'ext-2',
      name: { givenName: 'Grace', familyName: 'Murray Hopper' },
    });
    const me = await call(t, 'GET', '/api/auth/user', undefined, {
      cookie: await signIn(t, { id }),
    });
    expect(me.json()).toMatchObject({ firstName: 'Grace', lastName: 'Murray Hopper' });
  });

  it('refuses what it cannot take, with SCIM errors', async () => {
    const { scim, domain, name } = await company();
    const outside = await scim.create(`someone@elsewhere-${tag()}.test`);
    expect(outside.status).toBe(400);
    expect(outside.body).toMatchObject({ scimType: 'invalidValue' });
    expect(outside.body.detail).toContain(`${name}'s e-mail domains`);
    expect((await scim.create('not an address')).body).toMatchObject({ status: '400' });
    const badFilter = await scim.request(
      'GET',
      '/Users?filter=' + encodeURIComponent('name co "x"'),
    );
    expect(badFilter.body).toMatchObject({ status: '400', scimType: 'invalidFilter' });
    const badJson = await scim.request('POST', '/Users', '{"userName": ');
    expect(badJson.body).toMatchObject({ status: '400', scimType: 'invalidSyntax' });
    expect((await scim.request('GET', '/Users/not-an-id')).status).toBe(404);
    const id = (await scim.create(`p@${domain}`)).body.id as string;
    expect((await scim.patch(id, [{ op: 'move', path: 'active' }])).status).toBe(400);
  });

  it('deprovisioning signs the person out within seconds, refuses sign-in and keeps their chats', async () => {
    const { id: companyId, scim, domain } = await company();
    const user = await createUser(t.database.db, { email: `leaver@${domain}` });
    const cookie = await signIn(t, user);
    const chat = await call(
      t,
      'POST',
      '/api/chats',
      { title: 'Q3 review', module: 'governance' },
      { cookie },
    );
    expect(chat.statusCode).toBe(201);
    const socket = new WebSocket(`${base.replace('http', 'ws')}/ws`, {
      headers: { cookie, origin: t.config.appUrl },
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const closed = new Promise<number>((resolve) => socket.once('close', resolve));

    const found = (await scim.byUserName(user.email)).body.Resources[0];
    expect(found.active).toBe(true);
    // As Entra ID sends it: no path, the boolean as a string.
    const off = await scim.patch(found.id, [{ op: 'Replace', value: { active: 'False' } }]);
    expect(off.status).toBe(200);
    expect(off.body.active).toBe(false);

    const started = Date.now();
    expect(await closed).toBe(WS_CLOSE_SESSION_ENDED);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await call(t, 'GET', '/api/auth/user', undefined, { cookie })).statusCode).toBe(401);
    const login = await call(
      t,
      'POST',
      '/api/login',
      { email: user.email, password: TEST_PASSWORD },
      { ip: freshIp() },
    );
    expect(login.statusCode).toBe(403);
    expect(login.json()).toMatchObject({ code: 'ACCOUNT_DISABLED' });
    const kept = await t.database.db.select().from(chats).where(eq(chats.userId, user.id));
    expect(kept.map((c) => c.title)).toEqual(['Q3 review']);
    // In the company's audit log, once.
    const logged = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'scim_user_deprovisioned'), eq(auditLog.target, user.email)));
    expect(logged).toHaveLength(1);
    expect(logged[0]!.companyId).toBe(companyId);

    // Back again: sign-in works.
    expect(
      (await scim.patch(found.id, [{ op: 'replace', path: 'active', value: true }])).body.active,
    ).toBe(true);
    const again = await call(
      t,
      'POST',
      '/api/login',
      { email: user.email, password: TEST_PASSWORD },
      { ip: freshIp() },
    );
    expect(again.statusCode).toBe(200);
  });

  it('DELETE disables the user and hides them from SCIM, keeping the account and its chats', async () => {
    const { scim, domain } = await company();
    const user = await createUser(t.database.db, { email: `gone@${domain}` });
    const cookie = await signIn(t, user);
    const id = (await scim.byUserName(user.email)).body.Resources[0].id as string;
    const del = await scim.request('DELETE', `/Users/${id}`);
    expect(del.status).toBe(204);
    expect((await scim.request('GET', `/Users/${id}`)).status).toBe(404);
    expect((await scim.byUserName(user.email)).body.totalResults).toBe(0);
    expect((await call(t, 'GET', '/api/auth/user', undefined, { cookie })).statusCode).toBe(401);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.disabledAt).not.toBeNull();
    // Provisioned again: the same account comes back, active.
    const back = await scim.create(user.email);
    expect(back.status).toBe(201);
    expect(back.body).toMatchObject({ id, active: true });
  });

  it("a token reaches only its own company's users", async () => {
    const a = await company();
    const b = await company();
    const id = (await a.scim.create(`private@${a.domain}`)).body.id as string;
    expect((await b.scim.request('GET', `/Users/${id}`)).status).toBe(404);
    expect((await b.scim.byUserName(`private@${a.domain}`)).body.totalResults).toBe(0);
    expect((await b.scim.request('GET', '/Users')).body.totalResults).toBe(0);
    expect((await b.scim.patch(id, [{ op: 'replace', path: 'active', value: false }])).status).toBe(
      404,
    );
    expect(
      (await b.scim.request('PUT', `/Users/${id}`, { userName: `x@${b.domain}` })).status,
    ).toBe(404);
    expect((await b.scim.request('DELETE', `/Users/${id}`)).status).toBe(404);
    expect((await b.scim.create(`private2@${a.domain}`)).status).toBe(400);
    expect((await a.scim.request('GET', `/Users/${id}`)).body.active).toBe(true);
  });

  it('a new token replaces the old one', async () => {
    const { name, scim, domain } = await company();
    await scim.create(`t@${domain}`);
    const fresh = new ScimClient(base, await tokenFor(name));
    expect((await scim.request('GET', '/Users')).status).toBe(401);
    expect((await fresh.request('GET', '/Users')).body.totalResults).toBe(1);
  });

  describe('Groups', () => {
    const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';

    it('creates a group with members, finds it by displayName, patches and replaces its members', async () => {
      const { scim, domain } = await company();
      const ada = (await scim.create(`ada@${domain}`)).body.id as string;
      const bob = (await scim.create(`bob@${domain}`)).body.id as string;
      const created = await scim.request('POST', '/Groups', {
        schemas: [GROUP],
        displayName: 'Atrium admins',
        externalId: 'grp-1',
        members: [{ value: ada }],
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        schemas: [GROUP],
        displayName: 'Atrium admins',
        externalId: 'grp-1',
        members: [{ value: ada, display: 'Grace Hopper' }],
        meta: { resourceType: 'Group' },
      });
      const id = created.body.id as string;
      const found = await scim.request(
        'GET',
        `/Groups?filter=${encodeURIComponent('displayName eq "Atrium admins"')}`,
      );
      expect(found.body).toMatchObject({ totalResults: 1, Resources: [{ id }] });
      const dup = await scim.request('POST', '/Groups', { displayName: 'Atrium admins' });
      expect(dup.body).toMatchObject({ status: '409', scimType: 'uniqueness' });

      // As Entra ID sends them: add by value list, remove by a filtered path.
      const added = await scim.request('PATCH', `/Groups/${id}`, {
        schemas: [PATCH],
        Operations: [{ op: 'Add', path: 'members', value: [{ value: bob }] }],
      });
      expect(added.body.members.map((m: { value: string }) => m.value).sort()).toEqual(
        [ada, bob].sort(),
      );
      const removed = await scim.request('PATCH', `/Groups/${id}`, {
        schemas: [PATCH],
        Operations: [
          { op: 'Remove', path: `members[value eq "${ada}"]` },
          { op: 'Replace', value: { displayName: 'Admins' } },
        ],
      });
      expect(removed.body).toMatchObject({ displayName: 'Admins', members: [{ value: bob }] });

      const replaced = await scim.request('PUT', `/Groups/${id}`, {
        schemas: [GROUP],
        displayName: 'Admins',
        members: [{ value: ada }],
      });
      expect(replaced.body.members).toEqual([
        expect.objectContaining({ value: ada, $ref: `${t.config.appUrl}/scim/v2/Users/${ada}` }),
      ]);
      expect(replaced.body.externalId).toBeUndefined();

      expect((await scim.request('DELETE', `/Groups/${id}`)).status).toBe(204);
      expect((await scim.request('GET', `/Groups/${id}`)).status).toBe(404);
    });

    it("keeps each company's groups and users apart", async () => {
      const a = await company();
      const b = await company();
      const aUser = (await a.scim.create(`ann@${a.domain}`)).body.id as string;
      const group = await a.scim.request('POST', '/Groups', { displayName: 'Finance' });
      const id = group.body.id as string;
      expect((await b.scim.request('GET', `/Groups/${id}`)).status).toBe(404);
      expect((await b.scim.request('GET', '/Groups')).body.totalResults).toBe(0);
      expect(
        (
          await b.scim.request('PATCH', `/Groups/${id}`, {
            Operations: [{ op: 'add', path: 'members', value: [{ value: aUser }] }],
          })
        ).status,
      ).toBe(404);
      expect((await b.scim.request('DELETE', `/Groups/${id}`)).status).toBe(404);
      // Another company's user cannot be made a member, and nothing is written.
      const bGroup = await b.scim.request('POST', '/Groups', {
        displayName: 'Finance',
        members: [{ value: aUser }],
      });
      expect(bGroup.body).toMatchObject({ status: '400', scimType: 'invalidValue' });
      expect((await b.scim.request('GET', '/Groups')).body.totalResults).toBe(0);
    });
  });
});
