import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test-support/app';
import type { Database } from '../db/connect';
import { auditLog, type AuditRow } from '../db/schema';
import { addCompany } from '../admin/companies';
import { auditHash, verifyAudit, VERIFY_BATCH } from './audit';

// "Verify" over a long log (ADR 0016): thousands of rows of two companies, interleaved, read a
// page at a time; a row changed or removed in the middle (far past the first page) is found,
// and the rows counted before it are exactly those before it in its chain.

const ROWS = 2_600;
const tag = () => randomBytes(3).toString('hex');

type NewRow = Omit<AuditRow, 'id'>;

describe('verifying a long audit log', () => {
  let database: Database;
  let A: number;
  let B: number;
  /** The ids of company A's chain, in order. */
  let chainA: number[];

  beforeAll(async () => {
    database = await openTestDatabase();
    const db = database.db;
    A = (await addCompany(db, { name: `Long A ${tag()}` })).id;
    B = (await addCompany(db, { name: `Long B ${tag()}` })).id;
    // Two chains written turn about, as two busy companies would: each row links to the last of
    // its own company's rows.
    const prev = new Map<number, string | null>([
      [A, null],
      [B, null],
    ]);
    const start = Date.parse('2026-11-01T08:00:00.000Z');
    const rows: NewRow[] = [];
    for (let i = 0; i < ROWS; i++) {
      const companyId = i % 3 === 2 ? B : A;
      const row = {
        companyId,
        at: new Date(start + i * 1000),
        actorId: null,
        actorEmail: `user${i % 40}@example.com`,
        action: i % 5 === 0 ? 'sign_in_failed' : 'sign_in',
        target: `user${i % 40}@example.com`,
        ip: `10.0.${i % 250}.1`,
        userAgent: 'Mozilla/5.0',
        detail: i % 7 === 0 ? `attempt ${i}` : null,
        prevHash: prev.get(companyId)!,
      };
      const hash = auditHash(row);
      prev.set(companyId, hash);
      rows.push({ ...row, hash });
    }
    for (let i = 0; i < rows.length; i += 500)
      await db.insert(auditLog).values(rows.slice(i, i + 500));
    chainA = (
      await db
        .select({ id: auditLog.id })
        .from(auditLog)
        .where(eq(auditLog.companyId, A))
        .orderBy(auditLog.id)
    ).map((r) => r.id);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('an untouched chain is intact, read in pages no larger than one batch', async () => {
    const pages: number[] = [];
    const answer = await verifyAudit(database.db, A, { onPage: (n) => pages.push(n) });
    expect(answer).toEqual({ intact: true, checked: chainA.length, brokenAt: null });
    // 2,600 rows, two thirds A's: 1,734 rows, so two pages of at most 1,000.
    expect(chainA.length).toBe(Math.ceil((ROWS * 2) / 3));
    expect(pages).toEqual([VERIFY_BATCH, chainA.length - VERIFY_BATCH]);
    expect((await verifyAudit(database.db, B)).intact).toBe(true);
  });

  it('a row changed behind its back in the middle is found, with the rows before it counted', async () => {
    const middle = Math.floor(chainA.length * 0.7);
    const id = chainA[middle]!;
    await database.db.execute(
      sql`update audit_log set detail = 'nothing happened' where id = ${id}`,
    );
    const pages: number[] = [];
    const answer = await verifyAudit(database.db, A, {
      batchSize: 250,
      onPage: (n) => pages.push(n),
    });
    expect(answer).toEqual({ intact: false, checked: middle + 1, brokenAt: id });
    // Pages stop at the break and none is larger than asked.
    expect(Math.max(...pages)).toBe(250);
    expect(pages.length).toBe(Math.ceil((middle + 1) / 250));
    // The other company's chain, interleaved with it, is its own and still intact.
    expect(await verifyAudit(database.db, B, { batchSize: 250 })).toEqual({
      intact: true,
      checked: ROWS - chainA.length,
      brokenAt: null,
    });
  });

  it('a row removed on a page boundary breaks the link of the next one, across pages', async () => {
    // With pages of 100, row 400 of B's chain starts a page; its predecessor (399) is removed.
    const chainB = (
      await database.db
        .select({ id: auditLog.id })
        .from(auditLog)
        .where(eq(auditLog.companyId, B))
        .orderBy(auditLog.id)
    ).map((r) => r.id);
    await database.db.execute(sql`delete from audit_log where id = ${chainB[399]!}`);
    expect(await verifyAudit(database.db, B, { batchSize: 100 })).toEqual({
      intact: false,
      checked: 400,
      brokenAt: chainB[400],
    });
  });
});
