import { createHash } from 'node:crypto';
import { and, asc, count, desc, eq, gte, ilike, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AuditAction, AuditEntryDto } from '@contract/admin';
import type { Db, DbOrTx } from '../db/connect';
import { auditLog, users, type AuditRow } from '../db/schema';
import type { Clock } from '../lib/clock';
import { containsPattern } from '../lib/like';

// The append-only, hash-chained audit log (docs/decisions/0022-audit-log-hash-chain.md). Nothing
// secret is ever recorded: no password, code, token or message text, only who did what to what.

/** Where a request came from: its address and user agent (bounded to the columns). */
export interface AuditOrigin {
  ip: string | null;
  userAgent: string | null;
}

export function originOf(req: FastifyRequest): AuditOrigin {
  const ua = req.headers['user-agent'];
  return { ip: req.ip ?? null, userAgent: typeof ua === 'string' ? ua.slice(0, 255) : null };
}

export interface AuditEvent extends Partial<AuditOrigin> {
  action: AuditAction;
  /**
   * The company whose log the event belongs to; when left out, the actor's company. null is the
   * deployment's own chain (e.g. a failed sign-in of an address no company owns).
   */
  companyId?: number | null;
  actorId?: string | null;
  actorEmail?: string | null;
  target?: string | null;
  detail?: string | null;
}

/** The fields a row's hash covers, in a fixed order. */
type Hashed = Pick<
  AuditRow,
  | 'companyId'
  | 'at'
  | 'actorId'
  | 'actorEmail'
  | 'action'
  | 'target'
  | 'ip'
  | 'userAgent'
  | 'detail'
  | 'prevHash'
>;

/** SHA-256 over the row's content and the previous row's hash (canonical JSON of a fixed list). */
export function auditHash(r: Hashed): string {
  const content = [
    r.companyId,
    r.at.toISOString(),
    r.actorId,
    r.actorEmail,
    r.action,
    r.target,
    r.ip,
    r.userAgent,
    r.detail,
    r.prevHash,
  ];
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}

const cut = (v: string | null | undefined, max: number) =>
  v === undefined || v === null ? null : v.slice(0, max);

/** Any constant: the namespace of the audit chains' advisory locks (key 2 is the company). */
const AUDIT_LOCK = 715_601;

/**
 * Appends one event to its company's chain. The chain's last row is read under a lock on that
 * chain, so two events of one company never claim the same predecessor.
 */
export async function recordAudit(db: Db, clock: Clock, event: AuditEvent): Promise<void> {
  let companyId = event.companyId;
  let actorEmail = event.actorEmail ?? null;
  if ((companyId === undefined || actorEmail === null) && event.actorId) {
    const [actor] = await db
      .select({ companyId: users.companyId, email: users.email })
      .from(users)
      .where(eq(users.id, event.actorId));
    if (companyId === undefined) companyId = actor?.companyId ?? null;
    actorEmail ??= actor?.email ?? null;
  }
  const chain = companyId ?? null;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_LOCK}, ${chain ?? 0})`);
    const [last] = await tx
      .select({ hash: auditLog.hash })
      .from(auditLog)
      .where(chain === null ? isNull(auditLog.companyId) : eq(auditLog.companyId, chain))
      .orderBy(desc(auditLog.id))
      .limit(1);
    const row: Hashed = {
      companyId: chain,
      // Milliseconds only: the hash is computed on what the column gives back.
      at: new Date(clock.now().getTime()),
      actorId: event.actorId ?? null,
      actorEmail: cut(actorEmail, 255),
      action: event.action,
      target: cut(event.target, 255),
      ip: cut(event.ip, 64),
      userAgent: cut(event.userAgent, 255),
      detail: cut(event.detail, 500),
      prevHash: last?.hash ?? null,
    };
    await tx.insert(auditLog).values({ ...row, hash: auditHash(row) });
  });
}

export interface AuditFilter {
  /** The companies whose logs are read; undefined: every log (an operator's view). */
  companyId?: number;
  from?: string;
  to?: string;
  actor?: string;
  action?: AuditAction;
  target?: string;
}

function where(f: AuditFilter): SQL | undefined {
  const parts: SQL[] = [];
  if (f.companyId !== undefined) parts.push(eq(auditLog.companyId, f.companyId));
  if (f.from) parts.push(gte(auditLog.at, new Date(f.from)));
  if (f.to) parts.push(lte(auditLog.at, new Date(f.to)));
  if (f.actor) parts.push(ilike(auditLog.actorEmail, containsPattern(f.actor)));
  if (f.action) parts.push(eq(auditLog.action, f.action));
  if (f.target) parts.push(ilike(auditLog.target, containsPattern(f.target)));
  return parts.length ? and(...parts) : undefined;
}

export function toAuditEntryDto(r: AuditRow): AuditEntryDto {
  return {
    id: r.id,
    at: r.at.toISOString(),
    companyId: r.companyId,
    actorId: r.actorId,
    actorEmail: r.actorEmail,
    action: r.action,
    target: r.target,
    ip: r.ip,
    userAgent: r.userAgent,
    detail: r.detail,
  };
}

/** One page of the filtered log, newest first, with the filtered total. */
export async function listAudit(
  db: DbOrTx,
  f: AuditFilter,
  page: number,
  pageSize: number,
): Promise<{ entries: AuditEntryDto[]; total: number }> {
  const w = where(f);
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(auditLog).where(w);
  const rows = await db
    .select()
    .from(auditLog)
    .where(w)
    .orderBy(desc(auditLog.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { entries: rows.map(toAuditEntryDto), total: n };
}

/** Most rows one CSV export carries: a bounded answer. */
export const AUDIT_CSV_MAX = 100_000;

/** The whole filtered set (up to AUDIT_CSV_MAX rows), newest first, for the CSV export. */
export async function auditRows(db: DbOrTx, f: AuditFilter): Promise<AuditEntryDto[]> {
  const rows = await db
    .select()
    .from(auditLog)
    .where(where(f))
    .orderBy(desc(auditLog.id))
    .limit(AUDIT_CSV_MAX);
  return rows.map(toAuditEntryDto);
}

/** Rows read at a time while verifying. */
export const VERIFY_BATCH = 1_000;

export interface VerifyOptions {
  /** Rows per page (VERIFY_BATCH). */
  batchSize?: number;
  /** Told the size of each page read: what the check holds in memory at once. */
  onPage?: (rows: number) => void;
}

/**
 * Recomputes every chain (or one company's) from its first row: a row changed, removed or
 * inserted behind the app's back breaks its own hash or its successor's link. Pages through the
 * log in id order (keyset, one page at a time), keeping only each chain's last hash: the memory
 * it takes does not grow with the log (docs/decisions/0016-audit-volume-and-per-person-usage.md).
 */
export async function verifyAudit(
  db: DbOrTx,
  companyId?: number,
  opts: VerifyOptions = {},
): Promise<{ intact: boolean; checked: number; brokenAt: number | null }> {
  const batch = opts.batchSize ?? VERIFY_BATCH;
  const last = new Map<number | null, string | null>();
  let checked = 0;
  let after = 0;
  for (;;) {
    const rows = await db
      .select()
      .from(auditLog)
      .where(
        and(
          sql`${auditLog.id} > ${after}`,
          companyId === undefined ? undefined : eq(auditLog.companyId, companyId),
        ),
      )
      .orderBy(asc(auditLog.id))
      .limit(batch);
    opts.onPage?.(rows.length);
    for (const r of rows) {
      const expectedPrev = last.has(r.companyId) ? last.get(r.companyId)! : null;
      if (r.prevHash !== expectedPrev || auditHash(r) !== r.hash) {
        return { intact: false, checked: checked + 1, brokenAt: r.id };
      }
      last.set(r.companyId, r.hash);
      checked += 1;
    }
    if (rows.length < batch) return { intact: true, checked, brokenAt: null };
    after = rows[rows.length - 1]!.id;
  }
}
