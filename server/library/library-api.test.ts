import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  LibraryDocumentDto,
  LibraryListAnswer,
  LibrarySearchAnswer,
  LibraryVersionsAnswer,
  LibraryViewAnswer,
} from '@contract/library';
import { createTestApp, uniqueEmail } from '../../test-support/app';
import { callerAs, useTestApp } from '../../test-support/server-tests';
import { call } from '../../test-support/accounts';
import {
  createUser,
  signIn,
  twoCompaniesWithRoles,
  type RoleName,
} from '../../test-support/factories';
import { closeToolPool } from '../analyst/tools/runner';
import { addCompany, type CompanyWithDomains } from '../admin/companies';
import { auditLog, type User } from '../db/schema';
import { readPassages } from './library.service';

// The library API for each role: a member reads, a company admin changes their own company's
// library, an operator names the company, and another company's admin never sees or touches it.

const tag = () => randomBytes(3).toString('hex');
const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

const GUIDE_V1 = `# Brand guidelines

## 1. Voice
We sound warm, plain and confident.

## 2. Words

### 2.1 Tone
Never sound smug. Write "you" and "we".

### 2.2 Banned words
Do not write leverage, synergy or seamless.
`;

const GUIDE_V2 = GUIDE_V1.replace(
  'leverage, synergy or seamless',
  'leverage, synergy, seamless or disrupt',
);

describe('library API', () => {
  let A: CompanyWithDomains;
  const cookies = {} as Record<RoleName, string>;
  const people = {} as Record<RoleName, User>;
  const upload = (role: RoleName, fileName: string, content: string | Buffer, q = '') =>
    as(role, 'POST', `/api/library${q}`, { module: 'brand-hub', fileName, base64: b64(content) });

  const t = useTestApp({}, 120_000);
  const as = callerAs(t, cookies);
  beforeAll(async () => {
    ({ A } = await twoCompaniesWithRoles(t, { people, cookies }));
    // The analysis worker pool starts on first use (slow under tsx on a loaded machine).
    await readPassages('warm-up.txt', 'text/plain', Buffer.from('Warm up'));
  }, 120_000);
  afterAll(async () => {
    await closeToolPool();
  });

  it('a company admin adds a document; members read it; a member may not add', async () => {
    const refused = await upload('member', 'Brand guidelines.md', GUIDE_V1);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Only company admins can change the library');

    const added = await upload('adminA', 'Brand guidelines.md', GUIDE_V1);
    expect(added.statusCode).toBe(201);
    const doc = added.json<LibraryDocumentDto>();
    expect(doc).toMatchObject({
      fileName: 'Brand guidelines.md',
      title: 'Brand guidelines',
      version: 1,
      language: 'english',
      addedBy: people.adminA.email,
      retired: false,
    });

    const list = await as('member', 'GET', '/api/library?module=brand-hub');
    expect(list.statusCode).toBe(200);
    const answer = list.json<LibraryListAnswer>();
    expect(answer.documents.map((d) => d.fileName)).toEqual(['Brand guidelines.md']);
    expect(answer.canEdit).toBe(false);
    expect(answer.usedBytes).toBe(Buffer.byteLength(GUIDE_V1));
    // Another module's library is its own.
    const gov = await as('member', 'GET', '/api/library?module=governance');
    expect(gov.json<LibraryListAnswer>().documents).toEqual([]);

    // Passages keep their place: heading path and clause.
    const hits = await as('member', 'GET', '/api/library/search?module=brand-hub&q=banned+words');
    const top = hits.json<LibrarySearchAnswer>().passages[0]!;
    expect(top.text).toContain('leverage, synergy or seamless');
    expect(top.headingPath).toBe('Brand guidelines > 2. Words > 2.2 Banned words');
    expect(top.clause).toBe('2.2');
    expect(top.citation).toBe('Brand guidelines v1, 2.2 Banned words');
  });

  it('the same file name adds a version; earlier versions stay viewable, search reads the new one', async () => {
    const [doc] = (
      await as('adminA', 'GET', '/api/library?module=brand-hub')
    ).json<LibraryListAnswer>().documents;
    const member = await upload('member', 'Brand guidelines.md', GUIDE_V2);
    expect(member.statusCode).toBe(403);
    const replaced = await upload('adminA', 'Brand guidelines.md', GUIDE_V2);
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json<LibraryDocumentDto>()).toMatchObject({ id: doc!.id, version: 2 });

    const versions = await as('member', 'GET', `/api/library/${doc!.id}/versions`);
    expect(versions.statusCode).toBe(200);
    expect(
      versions.json<LibraryVersionsAnswer>().versions.map((v) => [v.version, v.current]),
    ).toEqual([
      [2, true],
      [1, false],
    ]);
    const v1 = await as('member', 'GET', `/api/library/${doc!.id}/versions/1`);
    expect(
      v1
        .json<LibraryViewAnswer>()
        .passages.map((p) => p.text)
        .join('\n'),
    ).toContain('leverage, synergy or seamless');
    const file = await as('member', 'GET', `/api/library/${doc!.id}/versions/1/file`);
    expect(file.body).toBe(GUIDE_V1);

    const hits = (
      await as('member', 'GET', '/api/library/search?module=brand-hub&q=seamless')
    ).json<LibrarySearchAnswer>().passages;
    expect(hits).toHaveLength(1);
    expect(hits[0]!.version).toBe(2);
    expect(hits[0]!.text).toContain('disrupt');
  });

  it('retire hides a document from search, restore brings it back; a member may do neither', async () => {
    const [doc] = (
      await as('adminA', 'GET', '/api/library?module=brand-hub')
    ).json<LibraryListAnswer>().documents;
    expect((await as('member', 'POST', `/api/library/${doc!.id}/retire`)).statusCode).toBe(403);
    const retired = await as('adminA', 'POST', `/api/library/${doc!.id}/retire`);
    expect(retired.json<LibraryDocumentDto>().retired).toBe(true);
    const none = await as('member', 'GET', '/api/library/search?module=brand-hub&q=seamless');
    expect(none.json<LibrarySearchAnswer>().passages).toEqual([]);
    const listed = await as('member', 'GET', '/api/library?module=brand-hub');
    expect(listed.json<LibraryListAnswer>().documents[0]!.retired).toBe(true);
    await as('adminA', 'POST', `/api/library/${doc!.id}/restore`);
    const back = await as('member', 'GET', '/api/library/search?module=brand-hub&q=seamless');
    expect(back.json<LibrarySearchAnswer>().passages).toHaveLength(1);
  });

  it("another company's admin never sees, searches, retires or deletes company A's documents", async () => {
    const [doc] = (
      await as('adminA', 'GET', '/api/library?module=brand-hub')
    ).json<LibraryListAnswer>().documents;
    // B has a similar document of its own.
    expect((await upload('adminB', 'Brand guidelines.md', GUIDE_V1)).statusCode).toBe(201);
    const listB = (
      await as('adminB', 'GET', '/api/library?module=brand-hub')
    ).json<LibraryListAnswer>();
    expect(listB.documents).toHaveLength(1);
    expect(listB.documents[0]!.id).not.toBe(doc!.id);
    expect(
      (await as('adminB', 'GET', `/api/library?module=brand-hub&company=${A.id}`)).statusCode,
    ).toBe(404);
    for (const [method, url] of [
      ['GET', `/api/library/${doc!.id}/versions`],
      ['GET', `/api/library/${doc!.id}/versions/1`],
      ['GET', `/api/library/${doc!.id}/versions/1/file`],
      ['POST', `/api/library/${doc!.id}/retire`],
      ['DELETE', `/api/library/${doc!.id}`],
    ] as const) {
      const res = await as('adminB', method, url);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const hitsB = (
      await as('adminB', 'GET', '/api/library/search?module=brand-hub&q=disrupt')
    ).json<LibrarySearchAnswer>().passages;
    // "disrupt" is only in A's version 2.
    expect(hitsB).toEqual([]);
    expect((await as('member', 'GET', `/api/library/${doc!.id}/versions`)).statusCode).toBe(200);
  });

  it('an operator names the company and may change its library', async () => {
    expect((await as('operator', 'GET', '/api/library?module=brand-hub')).statusCode).toBe(400);
    const list = await as('operator', 'GET', `/api/library?module=brand-hub&company=${A.id}`);
    expect(list.json<LibraryListAnswer>().canEdit).toBe(true);
    const added = await upload(
      'operator',
      'Tone of voice.txt',
      'Tone of voice\n\nWe are kind.',
      `?company=${A.id}`,
    );
    expect(added.statusCode).toBe(201);
    const listed = (
      await as('member', 'GET', '/api/library?module=brand-hub')
    ).json<LibraryListAnswer>();
    expect(listed.documents.map((d) => d.fileName)).toContain('Tone of voice.txt');
    const del = await as(
      'operator',
      'DELETE',
      `/api/library/${added.json<LibraryDocumentDto>().id}?company=${A.id}`,
    );
    expect(del.statusCode).toBe(200);
  });

  it('signed out, every library route answers 401 and nothing is written or revealed', async () => {
    const doc = (
      await upload('adminA', 'Signed out.md', '# Expenses\n\nReceipts within 30 days.')
    ).json<LibraryDocumentDto>();
    const out = (method: string, url: string, body?: unknown) =>
      call(t, method as 'GET', url, body);
    const answers = await Promise.all([
      out('GET', '/api/library?module=brand-hub'),
      out('GET', '/api/library/search?module=brand-hub&q=receipts'),
      out('POST', '/api/library', { module: 'brand-hub', fileName: 'X.md', base64: b64('# X') }),
      out('GET', `/api/library/${doc.id}/versions`),
      out('GET', `/api/library/${doc.id}/versions/1`),
      out('GET', `/api/library/${doc.id}/versions/1/file`),
      out('POST', `/api/library/${doc.id}/retire`),
      out('POST', `/api/library/${doc.id}/restore`),
      out('DELETE', `/api/library/${doc.id}`),
    ]);
    for (const a of answers) {
      expect(a.statusCode).toBe(401);
      expect(a.body).not.toContain('Receipts');
    }
    const listed = (await as('adminA', 'GET', '/api/library?module=brand-hub')).json<{
      documents: LibraryDocumentDto[];
    }>().documents;
    expect(listed.map((d) => d.fileName)).not.toContain('X.md');
    expect(listed.find((d) => d.id === doc.id)).toMatchObject({ version: 1, retired: false });
  });

  it('delete removes every version; a member may not; each change is in the audit log', async () => {
    const added = (
      await upload('adminA', 'Claims.md', '# Approved claims\n\nFast payouts.')
    ).json<LibraryDocumentDto>();
    expect((await as('member', 'DELETE', `/api/library/${added.id}`)).statusCode).toBe(403);
    const del = await as('adminA', 'DELETE', `/api/library/${added.id}`);
    expect(del.statusCode).toBe(200);
    expect((await as('adminA', 'GET', `/api/library/${added.id}/versions`)).statusCode).toBe(404);
    expect((await as('adminA', 'DELETE', `/api/library/${added.id}`)).statusCode).toBe(404);

    const rows = await t.database.db
      .select({ action: auditLog.action, target: auditLog.target, actor: auditLog.actorEmail })
      .from(auditLog)
      .where(and(eq(auditLog.companyId, A.id)));
    const lib = rows.filter((r) => r.action.startsWith('library_'));
    expect(lib).toEqual(
      expect.arrayContaining([
        { action: 'library_added', target: 'Brand guidelines.md', actor: people.adminA.email },
        { action: 'library_replaced', target: 'Brand guidelines.md', actor: people.adminA.email },
        { action: 'library_retired', target: 'Brand guidelines.md', actor: people.adminA.email },
        { action: 'library_restored', target: 'Brand guidelines.md', actor: people.adminA.email },
        { action: 'library_deleted', target: 'Claims.md', actor: people.adminA.email },
        { action: 'library_added', target: 'Tone of voice.txt', actor: people.operator.email },
      ]),
    );
    // B's upload is in B's log, not A's.
    expect(lib.filter((r) => r.actor === people.adminB.email)).toEqual([]);
  });

  it(
    'reads PDF pages and DOCX; refuses what it cannot read with a clear 400',
    { timeout: 120_000 },
    async () => {
      const post = (fileName: string, base64: string, module = 'governance') =>
        as('adminA', 'POST', '/api/library', { module, fileName, base64 });
      const pdf = readFileSync('test-support/fixtures/documents/security-policy.pdf');
      const res = await post('Security policy.pdf', pdf.toString('base64'));
      expect(res.statusCode).toBe(201);
      const doc = res.json<LibraryDocumentDto>();
      const view = (
        await as('member', 'GET', `/api/library/${doc.id}/versions/1`)
      ).json<LibraryViewAnswer>();
      expect(view.passages.length).toBeGreaterThan(0);
      expect(view.passages.every((p) => typeof p.page === 'number' && p.page >= 1)).toBe(true);

      const docx = readFileSync('test-support/fixtures/documents/retention-policy.docx');
      const d = await post('Retention policy.docx', docx.toString('base64'));
      expect(d.statusCode).toBe(201);
      expect(d.json<LibraryDocumentDto>().passages).toBeGreaterThan(0);

      const png = await post(
        'logo.png',
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3, 0, 0]).toString('base64'),
      );
      expect(png.statusCode).toBe(400);
      const bad = await post('x.txt', '@@not base64@@');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('base64 must be the file content in base64');
      const module = await post('x.txt', b64('hello'), 'sales');
      expect(module.statusCode).toBe(400);
      // Nothing half-written: the refused files are not listed.
      const listed = (
        await as('member', 'GET', '/api/library?module=governance')
      ).json<LibraryListAnswer>();
      expect(listed.documents.map((x) => x.fileName).sort()).toEqual([
        'Retention policy.docx',
        'Security policy.pdf',
      ]);
    },
  );

  it('a document over 50 MB is refused with 413', async () => {
    const big = Buffer.alloc(50 * 1024 * 1024 + 10, 0x61);
    const res = await upload('adminA', 'big.txt', big);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('A library document is at most 50 MB');
  }, 120_000);

  it("the company's storage quota holds, every version counted", { timeout: 120_000 }, async () => {
    const small = await createTestApp({
      database: t.database,
      env: { LIBRARY_QUOTA_MB: '0.5' },
    });
    try {
      const C = await addCompany(small.database.db, { name: `Gamma ${tag()}` });
      const admin = await createUser(small.database.db, {
        email: uniqueEmail(),
        companyId: C.id,
        role: 'admin',
      });
      const cookie = await signIn(small, admin);
      const put = (text: string) =>
        call(
          small,
          'POST',
          '/api/library',
          { module: 'governance', fileName: 'Policy.txt', base64: b64(text) },
          { cookie },
        );
      // 300 KB: one version fits in 0.5 MB, two do not.
      const text = `Leave policy\n\n${'Employees take leave in agreement with their manager.\n'.repeat(5_700)}`;
      expect(Buffer.byteLength(text)).toBeGreaterThan(262_144);
      expect((await put(text)).statusCode).toBe(201);
      const second = await put(text);
      expect(second.statusCode).toBe(413);
      expect(second.json().message).toBe(
        "The company's library is full (0.5 MB): delete old documents or versions first",
      );
    } finally {
      await small.close();
    }
  });
});
