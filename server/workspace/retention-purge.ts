import { setImmediate as yieldToRequests } from 'node:timers/promises';
import { count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { MODULES } from '@contract/module-list';
import type { ModuleKey } from '@contract/modules';
import { recordAudit } from '../audit/audit';
import type { Database, Db, DbOrTx } from '../db/connect';
import {
  chatMessages,
  chats,
  companies,
  messageAttachments,
  retentionRuns,
  savedFiles,
} from '../db/schema';
import type { Clock } from '../lib/clock';
import { chatListsChanged } from './turns/chat-list-cache';

// The retention purge (docs/decisions/0073-retention-purge.md): daily, in one process at a time
// (an advisory lock), in batches of PURGE_BATCH chats per transaction; the chats go with their
// messages, reply versions, attachments, saved files and Log rows (foreign-key cascades), and so
// from search (the search documents are columns of those rows). Held chats are never touched.

/** Chats deleted per transaction: short transactions, requests go on between them. */
export const PURGE_BATCH = 500;
/** The purge runs when the last one started at least this long ago. */
export const PURGE_EVERY_MS = 24 * 60 * 60_000;
/** How often each process looks whether the daily purge is due. */
export const PURGE_CHECK_MS = 60 * 60_000;
/** The first look after start, so a deployment restarted daily still purges. */
export const PURGE_FIRST_CHECK_MS = 60_000;
/** Key of the purge's advisory lock (any fixed number; "atriur"). */
export const RETENTION_LOCK_KEY = 0x617472697572;

const DAY_MS = 24 * 60 * 60_000;

export interface PurgeCounts {
  chats: number;
  messages: number;
  attachments: number;
  savedFiles: number;
}

export interface PurgeGroup extends PurgeCounts {
  companyId: number;
  companyName: string;
  module: ModuleKey;
  days: number;
}

export type PurgeResult =
  | { ran: true; totals: PurgeCounts; groups: PurgeGroup[] }
  | { ran: false; reason: 'running' | 'not-due'; totals: PurgeCounts; groups: [] };

const zero = (): PurgeCounts => ({ chats: 0, messages: 0, attachments: 0, savedFiles: 0 });

/**
 * The chats past their company's limit for their module, held ones excepted: a chat is past it
 * when its last activity (updated_at, moved by every message) is older than `days` before now.
 * `within` days ahead answers the chats that will be past it by then.
 */
function dueChats(now: Date, withinDays = 0) {
  return sql`
    select c.id, c.user_id, c.title, c.module, c.updated_at, u.company_id, p.days
    from ${chats} c
    join users u on u.id = c.user_id
    join retention_policies p on p.company_id = u.company_id and p.module = c.module
    where c.updated_at < ${now.toISOString()}::timestamptz
        - make_interval(days => p.days) + make_interval(days => ${withinDays}::int)
      and not exists (select 1 from legal_holds h where h.user_id = c.user_id)
      and not exists (select 1 from legal_holds h where h.chat_id = c.id)`;
}

interface DueRow extends Record<string, unknown> {
  id: string;
  user_id: string;
  title: string;
  module: string;
  updated_at: string | Date;
  company_id: number;
  days: number;
}

const rowsOf = <T>(result: unknown): T[] =>
  Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);

async function countsBy(
  tx: DbOrTx,
  table: typeof chatMessages | typeof messageAttachments | typeof savedFiles,
  ids: string[],
): Promise<Map<string, number>> {
  const rows = await tx
    .select({ chatId: table.chatId, n: count() })
    .from(table)
    .where(inArray(table.chatId, ids))
    .groupBy(table.chatId);
  return new Map(rows.map((r) => [r.chatId, r.n]));
}

/** Deletes one batch in a transaction; answers what went, per chat. */
async function purgeBatch(db: Db, now: Date) {
  return db.transaction(async (tx) => {
    const due = rowsOf<DueRow>(
      await tx.execute(
        sql`${dueChats(now)} order by c.updated_at limit ${PURGE_BATCH} for update of c skip locked`,
      ),
    );
    if (!due.length) return [];
    const ids = due.map((d) => d.id);
    const [messages, attachments, files] = [
      await countsBy(tx, chatMessages, ids),
      await countsBy(tx, messageAttachments, ids),
      await countsBy(tx, savedFiles, ids),
    ];
    await tx.delete(chats).where(inArray(chats.id, ids));
    return due.map((d) => ({
      ...d,
      messages: messages.get(d.id) ?? 0,
      attachments: attachments.get(d.id) ?? 0,
      savedFiles: files.get(d.id) ?? 0,
    }));
  });
}

/** Purges that are running, per database handle (PGlite has one process: this is its lock). */
const running = new WeakMap<Database, Promise<PurgeResult>>();

/**
 * Runs `body` while this process holds the purge's advisory lock, or answers null when another
 * holds it. On PostgreSQL the lock is a transaction's, on a connection of its own kept open (and
 * idle) while the batches run on others; PGlite is one process, and `running` its lock.
 */
async function underLock<T>(database: Database, body: () => Promise<T>): Promise<T | null> {
  if (database.kind === 'pglite') return body();
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`set local idle_in_transaction_session_timeout = 0`);
    const [row] = rowsOf<{ got: boolean }>(
      await tx.execute(sql`select pg_try_advisory_xact_lock(${RETENTION_LOCK_KEY}) as got`),
    );
    if (!row?.got) return null;
    return body();
  });
}

/**
 * Deletes every chat past its company's retention limit, in batches, unless a purge is running
 * (here or in another process). `daily`: only when the last purge started a day ago or more.
 * Writes what went to each company's audit log, one row per module, and the run to
 * retention_runs.
 */
export async function purgeRetention(
  database: Database,
  clock: Clock,
  opts: { daily?: boolean } = {},
): Promise<PurgeResult> {
  if (running.has(database)) return { ran: false, reason: 'running', totals: zero(), groups: [] };
  const run = (async (): Promise<PurgeResult> => {
    const result = await underLock(database, () => purgeLocked(database.db, clock, opts));
    return result ?? { ran: false, reason: 'running', totals: zero(), groups: [] };
  })();
  running.set(database, run);
  try {
    return await run;
  } finally {
    running.delete(database);
  }
}

async function purgeLocked(db: Db, clock: Clock, opts: { daily?: boolean }): Promise<PurgeResult> {
  const now = clock.now();
  if (opts.daily) {
    const [last] = await db
      .select({ at: retentionRuns.startedAt })
      .from(retentionRuns)
      .orderBy(desc(retentionRuns.startedAt))
      .limit(1);
    // A last run "in the future" (a clock set back) does not stop the purge for ever.
    const since = last ? now.getTime() - last.at.getTime() : Infinity;
    if (since >= 0 && since < PURGE_EVERY_MS)
      return { ran: false, reason: 'not-due', totals: zero(), groups: [] };
  }
  const [runRow] = await db
    .insert(retentionRuns)
    .values({ startedAt: now })
    .returning({ id: retentionRuns.id });
  const totals = zero();
  const groups = new Map<string, PurgeGroup>();
  const owners = new Set<string>();
  for (;;) {
    const gone = await purgeBatch(db, now);
    for (const g of gone) {
      owners.add(g.user_id);
      const key = `${g.company_id}|${g.module}`;
      let group = groups.get(key);
      if (!group) {
        group = {
          companyId: g.company_id,
          companyName: '',
          module: g.module as ModuleKey,
          days: g.days,
          ...zero(),
        };
        groups.set(key, group);
      }
      for (const c of [group, totals]) {
        c.chats += 1;
        c.messages += g.messages;
        c.attachments += g.attachments;
        c.savedFiles += g.savedFiles;
      }
    }
    if (gone.length < PURGE_BATCH) break;
    // Let the requests waiting on the event loop (and, on PGlite, on the database) go first.
    await yieldToRequests();
  }
  await db
    .update(retentionRuns)
    .set({ finishedAt: clock.now(), chats: totals.chats })
    .where(eq(retentionRuns.id, runRow!.id));
  const list = [...groups.values()].sort(
    (a, b) => a.companyId - b.companyId || a.module.localeCompare(b.module),
  );
  if (list.length) {
    const names = await db
      .select({ id: companies.id, name: companies.name })
      .from(companies)
      .where(
        inArray(
          companies.id,
          list.map((g) => g.companyId),
        ),
      );
    for (const g of list) g.companyName = names.find((n) => n.id === g.companyId)?.name ?? '';
  }
  for (const g of list)
    await recordAudit(db, clock, {
      action: 'retention_purged',
      companyId: g.companyId,
      actorEmail: 'retention purge',
      target: `retention: ${MODULES[g.module]?.name ?? g.module}`,
      detail: `${countsLine(g)} (kept ${g.days} days after their last activity)`,
    });
  await chatListsChanged(owners);
  return { ran: true, totals, groups: list };
}

/** "3 chats, 12 messages, 1 attachment, 2 saved files deleted" */
export function countsLine(c: PurgeCounts): string {
  const n = (v: number, one: string, many: string) => `${v} ${v === 1 ? one : many}`;
  return `${n(c.chats, 'chat', 'chats')}, ${n(c.messages, 'message', 'messages')}, ${n(
    c.attachments,
    'attachment',
    'attachments',
  )}, ${n(c.savedFiles, 'saved file', 'saved files')} deleted`;
}

export interface UpcomingDeletion {
  chatId: string;
  title: string;
  module: ModuleKey;
  /** When the purge may delete it: its last activity plus the module's days. */
  deletesAt: string;
}

/**
 * The chats each person will lose within `withinDays` (7 by default) unless they use them again:
 * past the limit by then, not held. For the notifications (the bell); keyed by user id, each
 * person's chats soonest first.
 */
export async function chatsDueForDeletion(
  db: DbOrTx,
  now: Date,
  withinDays = 7,
): Promise<Map<string, UpcomingDeletion[]>> {
  const rows = rowsOf<DueRow>(
    await db.execute(sql`${dueChats(now, withinDays)} order by c.user_id, c.updated_at`),
  );
  const out = new Map<string, UpcomingDeletion[]>();
  for (const r of rows) {
    const list = out.get(r.user_id) ?? [];
    list.push({
      chatId: r.id,
      title: r.title,
      module: r.module as ModuleKey,
      deletesAt: new Date(new Date(r.updated_at).getTime() + r.days * DAY_MS).toISOString(),
    });
    out.set(r.user_id, list);
  }
  return out;
}

/** Looks every PURGE_CHECK_MS (first after PURGE_FIRST_CHECK_MS) whether the daily purge is due. */
export const retentionPurge = fp(
  async (app: FastifyInstance, opts: { afterRun?: (now: Date) => Promise<unknown> }) => {
    const { database, clock } = app.deps;
    let stopped = false;
    const run = () =>
      purgeRetention(database, clock, { daily: true })
        .then(async (r) => {
          if (r.ran && r.totals.chats > 0) app.log.info(r.totals, 'retention purge');
          // Once a day, in the one process that ran the purge: what comes next (the bell).
          if (r.ran) await opts.afterRun?.(clock.now());
        })
        .catch((err: unknown) => {
          if (!stopped) app.log.warn({ err }, 'retention purge failed');
        });
    const first = setTimeout(() => void run(), PURGE_FIRST_CHECK_MS);
    const timer = setInterval(() => void run(), PURGE_CHECK_MS);
    first.unref();
    timer.unref();
    app.addHook('onClose', async () => {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
    });
  },
  { name: 'retention-purge' },
);
