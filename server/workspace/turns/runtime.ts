import fp from 'fastify-plugin';
import type { FastifyBaseLogger } from 'fastify';
import type { ChatModule } from '@contract/chats';
import { MESSAGE_TIMEOUT_MS } from '@contract/constants';
import { MODULES, type ModuleKey } from '@contract/modules';
import type { StructuredResponse } from '@contract/structured-response';
import type { Config } from '../../config';
import type { Db } from '../../db/connect';
import type { Clock } from '../../lib/clock';
import { isDependencyDown } from '../../lib/errors';
import { storableText } from '../../lib/storable-text';
import type { Bus, Unsubscribe } from '../../realtime/bus';
import {
  TURN_ALIVE_TTL_MS,
  TURN_HEARTBEAT_MS,
  TURN_STOP_CHANNEL,
  readTurnEvents,
  recordTurnEvent,
  turnAliveKey,
  type TurnStopMessage,
} from '../../realtime/turn-feed';
import { chatListsChanged } from './chat-list-cache';
import type { AgentFor } from '../../analyst/registry';
import {
  checkpointLoadingReply,
  closeLoadingReply,
  findLoadingRepliesBefore,
  followTaskName,
  insertLog,
  countReplyVersions,
  loadHistoryRows,
  loadingReplyText,
  touchChat,
} from './turn.repo';
import { recordTurnUsage } from './usage.repo';
import { releaseReservation, warnOnBudgets } from './budget.repo';
import { publishNotifications } from '../../notifications/notify';
import { notifyReplyFinished } from '../../notifications/reply-finished';
import type { Mailer } from '../../mail/mailer';
import { budgetWarningMail } from '../../mail/templates';
import {
  FAILURE_MESSAGE,
  HISTORY_LIMIT,
  ORPHAN_MESSAGE,
  SHUTDOWN_MESSAGE,
  TIMEOUT_MESSAGE,
  TurnEmitter,
  buildHistory,
} from './turn';
import { AgentError, type AgentEvent } from '../../analyst/types';
import { turnLibrary } from '../../library/turn-library';
import { libraryVectors, type LibraryVectors } from '../../library/embeddings';
import { users } from '../../db/schema';
import { eq } from 'drizzle-orm';
import { companyReadings } from '../readings.repo';

/** Titles the product gives a new chat: a report's task name replaces them (ADR 0031). */
const DEFAULT_CHAT_TITLES = Object.values(MODULES).map((m) => m.defaultChatTitle);

/** Everything a turn needs, fixed when the user message and its placeholder were stored. */
export interface TurnSpec {
  chatId: string;
  userId: string;
  module: ModuleKey;
  model: string;
  /** The assistant placeholder this turn writes. */
  messageId: string;
  /** Its seq: the history is every message before it. */
  replySeq: number;
  /** The chat's title when the turn started (the title follows the report's task name). */
  title: string;
  /** The request as logged: never attachment bytes. */
  requestBody: unknown;
  /** The starter the message was sent from, as the client said (checked when recorded). */
  starterId?: number | null;
}

type AbortReason = 'stop' | 'timeout' | 'shutdown';

type TurnOutcome =
  | { kind: 'complete'; text: string; report: StructuredResponse | null }
  | { kind: 'error'; message: string; status: number }
  | { kind: 'stopped' };

export interface TurnRuntimeDeps {
  db: Db;
  bus: Bus;
  config: Config;
  clock: Clock;
  log: FastifyBaseLogger;
  /** 180 s in the product (MESSAGE_TIMEOUT_MS). */
  timeoutMs?: number;
  /** The providers, as buildApp was handed them. */
  agentFor: AgentFor;
  /** Budget warnings go to the company's admins by e-mail too (ADR 0070). */
  mailer?: Mailer;
  /** The library's embeddings when an endpoint is configured (ADR 0026). */
  libraryVectors?: LibraryVectors | null;
}

/** A dashboard chat has no agent of its own: the Talent Intelligence analyst answers it. */
export function agentModuleOf(module: ChatModule): ModuleKey {
  return module === 'dashboard' ? 'talent-intelligence' : module;
}

const LOG_STATUS = { complete: 200, error: 500, timeout: 504, stopped: 499 } as const;

/**
 * How often a running turn saves its text into its reply: a process killed mid-answer loses at
 * most this much of it, with or without Redis.
 */
export const TEXT_CHECKPOINT_MS = 1_500;
/** How often every process looks for replies whose process died (their heartbeat expired). */
export const ORPHAN_SWEEP_MS = 4_000;
/**
 * How long a finished reply waits for a database that went away (a failover, a restart) before
 * it is given up: its text lives only in this process until it is saved.
 */
export const SAVE_PATIENCE_MS = 30_000;

/**
 * Runs agent turns detached from the HTTP request that asked for them: events go to the bus,
 * the reply and a Log row to the database. Any process can stop a turn through the bus; a turn
 * whose process died is closed by the orphan sweep of the next process that starts.
 */
export class TurnRuntime {
  private readonly running = new Map<
    string,
    { abort: (r: AbortReason) => void; done: Promise<void> }
  >();
  private readonly timeoutMs: number;
  private stopSubscription: Unsubscribe | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  /** Reply notices waiting out REPLY_NOTICE_GRACE_MS (notifyIfAway). */
  private readonly noticeTimers = new Set<NodeJS.Timeout>();

  constructor(private readonly deps: TurnRuntimeDeps) {
    this.timeoutMs = deps.timeoutMs ?? MESSAGE_TIMEOUT_MS;
  }

  /** Listens for stop requests and closes replies left loading by dead processes. */
  async init(): Promise<void> {
    this.stopSubscription = await this.deps.bus.subscribe(TURN_STOP_CHANNEL, (raw) => {
      const id = (raw as Partial<TurnStopMessage> | null)?.messageId;
      if (typeof id === 'string') this.running.get(id)?.abort('stop');
    });
    // A sweep that fails (database briefly away) must never stop the process from starting:
    // the next sweep, seconds later, tries again.
    const sweep = () =>
      this.sweepOrphans().catch((err: unknown) =>
        this.deps.log.warn({ err }, 'orphan sweep failed'),
      );
    await sweep();
    // A process that died moments before this one started is caught by the next sweep.
    this.sweepTimer = setInterval(() => void sweep(), ORPHAN_SWEEP_MS);
    this.sweepTimer.unref();
  }

  /** Marks the turn alive before its placeholder is committed, so no sweep takes it for dead. */
  async markAlive(messageId: string): Promise<void> {
    await this.deps.bus.setValue(turnAliveKey(messageId), '1', TURN_ALIVE_TTL_MS);
  }

  isRunningHere(messageId: string): boolean {
    return this.running.has(messageId);
  }

  /** Starts a turn in the background; it never throws into the caller. */
  start(spec: TurnSpec): void {
    const controller = new AbortController();
    let reason: AbortReason | null = null;
    const abort = (r: AbortReason) => {
      if (reason) return;
      reason = r;
      controller.abort(r);
    };
    const done = this.run(spec, controller.signal, () => reason)
      .catch((err: unknown) =>
        this.deps.log.error({ err, messageId: spec.messageId }, 'turn failed to close'),
      )
      .finally(() => this.running.delete(spec.messageId));
    this.running.set(spec.messageId, { abort, done });
  }

  /**
   * Stops a turn wherever it runs. A turn nobody runs any more (no heartbeat) is closed here,
   * as stopped, so the chat never stays loading.
   */
  async stop(chatId: string, messageId: string): Promise<void> {
    const local = this.running.get(messageId);
    if (local) {
      local.abort('stop');
      await local.done;
      return;
    }
    if (await this.deps.bus.getValue(turnAliveKey(messageId))) {
      await this.deps.bus.publish(TURN_STOP_CHANNEL, { messageId } satisfies TurnStopMessage);
      return;
    }
    await this.closeOrphan(chatId, messageId, 'stopped');
  }

  /** Closes every loading reply whose turn has no heartbeat (its process is gone). */
  async sweepOrphans(): Promise<number> {
    const { db, bus, clock } = this.deps;
    // Without Redis no other process's heartbeat can be seen: nothing is taken for dead meanwhile.
    if (bus.degraded) return 0;
    // A placeholder younger than one heartbeat period may belong to a turn that is starting.
    const candidates = await findLoadingRepliesBefore(
      db,
      new Date(clock.now().getTime() - TURN_ALIVE_TTL_MS),
    );
    let closed = 0;
    for (const c of candidates) {
      // One reply that cannot be closed must not keep the others (other users') loading.
      try {
        if (this.running.has(c.id) || (await bus.getValue(turnAliveKey(c.id)))) continue;
        if (await this.closeOrphan(c.chatId, c.id, 'error')) closed += 1;
      } catch (err) {
        this.deps.log.error({ err, messageId: c.id }, 'could not close an orphaned reply');
      }
    }
    if (closed) this.deps.log.warn({ closed }, 'closed replies left loading by a stopped process');
    return closed;
  }

  private async closeOrphan(
    chatId: string,
    messageId: string,
    status: 'error' | 'stopped',
  ): Promise<boolean> {
    const { db, bus, clock } = this.deps;
    const events = await readTurnEvents(bus, messageId);
    const logged = events
      .filter((e) => e.type === 'stream_chunk')
      .map((e) => e.content)
      .join('');
    // The bus log has every chunk while it lives (Redis); the checkpoint survives any restart.
    const saved = await loadingReplyText(db, messageId);
    // Made storable again: a log written before this guard existed may still hold a NUL.
    const partial = storableText(logged.length >= saved.length ? logged : saved);
    const now = clock.now();
    const closed = await db.transaction(async (tx) => {
      const row = await closeLoadingReply(tx, messageId, {
        status,
        content: partial,
        error: status === 'error' ? ORPHAN_MESSAGE : null,
        now,
      });
      if (row) await releaseReservation(tx, messageId);
      const chat = row ? await touchChat(tx, chatId, now) : null;
      if (row && chat) {
        // The turn is counted like any other (ADR 0038): its Log row and usage, with the tokens
        // its dead process never reported taken as 0 and its time from the placeholder's.
        const logStatus = status === 'error' ? LOG_STATUS.error : LOG_STATUS.stopped;
        // No turn outlives its time limit: a reply orphaned for weeks (a server down that long)
        // counts the limit, which also keeps the figure within the column's integer.
        const durationMs = Math.min(
          this.timeoutMs,
          Math.max(0, now.getTime() - row.timestamp.getTime()),
        );
        const model = row.model ?? 'builtin';
        await insertLog(tx, {
          chatId,
          userId: chat.userId,
          requestBody: { chatId, model, closedBy: 'orphan sweep' },
          responseStatus: logStatus,
          responseTimeMs: durationMs,
        });
        await recordTurnUsage(tx, {
          userId: chat.userId,
          module: agentModuleOf(chat.module as ChatModule),
          model,
          inputTokens: 0,
          outputTokens: 0,
          durationMs,
          status: logStatus,
          starterId: null,
          now,
        });
      }
      return row && { row, userId: chat?.userId };
    });
    if (!closed) return false;
    // Lists here dropped at once; other processes told while the closing event goes out.
    const listsChanged = closed.userId ? chatListsChanged([closed.userId]) : undefined;
    const seq = (events.at(-1)?.seq ?? 0) + 1;
    const base = { chatId, messageId, seq, timestamp: now.toISOString() };
    await recordTurnEvent(
      bus,
      status === 'error'
        ? { ...base, type: 'stream_error', content: ORPHAN_MESSAGE }
        : {
            ...base,
            type: 'stream_complete',
            content: '',
            finalContent: partial,
            status: 'stopped',
          },
    );
    await listsChanged;
    return true;
  }

  /**
   * Shutdown, first step: lets the turns of this process finish for up to `graceMs`, then aborts
   * those still running (their replies close as interrupted, with the text written so far) and
   * waits for them to close. New turns cannot start meanwhile: the app answers 503 while closing.
   */
  async drain(graceMs: number): Promise<void> {
    const all = () => Promise.allSettled([...this.running.values()].map((t) => t.done));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    });
    await Promise.race([all(), late]);
    clearTimeout(timer);
    for (const t of this.running.values()) t.abort('shutdown');
    await all();
  }

  /** Aborts the turns of this process (shutdown) and waits for them to close their replies. */
  async close(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    // A notice still waiting out its grace is dropped: the database may be gone when it fires.
    for (const timer of this.noticeTimers) clearTimeout(timer);
    this.noticeTimers.clear();
    await this.drain(0);
    await this.stopSubscription?.();
  }

  private async run(
    spec: TurnSpec,
    signal: AbortSignal,
    reasonOf: () => AbortReason | null,
  ): Promise<void> {
    const { db, bus, clock, config, log } = this.deps;
    const started = performance.now();
    const emitter = new TurnEmitter(bus, clock, spec.chatId, spec.messageId);
    const heartbeat = setInterval(() => {
      void this.markAlive(spec.messageId).catch(() => undefined);
    }, TURN_HEARTBEAT_MS);
    let savedText = '';
    let saving = false;
    const checkpoint = setInterval(() => {
      const text = emitter.text;
      if (saving || text === savedText) return;
      saving = true;
      checkpointLoadingReply(db, spec.messageId, text)
        .then(() => {
          savedText = text;
        })
        .catch((err: unknown) => log.warn({ err, messageId: spec.messageId }, 'checkpoint failed'))
        .finally(() => {
          saving = false;
        });
    }, TEXT_CHECKPOINT_MS);
    const timeout = setTimeout(
      () => this.running.get(spec.messageId)?.abort('timeout'),
      this.timeoutMs,
    );

    let outcome: TurnOutcome;
    try {
      await this.markAlive(spec.messageId);
      const rows = await loadHistoryRows(db, spec.chatId, spec.replySeq, HISTORY_LIMIT);
      const history = buildHistory(rows.messages, rows.attachments);
      // A regenerated reply knows how many takes came before it (ADR 0059).
      const take = await countReplyVersions(db, spec.chatId, spec.replySeq);
      // The caller's company library for this module, read at each turn: a replaced document is
      // used in its new version from the next turn (ADR 0069).
      const [caller] = await db
        .select({ companyId: users.companyId })
        .from(users)
        .where(eq(users.id, spec.userId));
      const library =
        caller?.companyId != null
          ? await turnLibrary(db, caller.companyId, spec.module, this.deps.libraryVectors)
          : undefined;
      const agent = this.deps.agentFor(spec.model, config);
      // The company's confirmed readings of table layouts (ADR 0052).
      const readings = await companyReadings(db, spec.userId);
      const events = agent.run({
        chatId: spec.chatId,
        module: spec.module,
        model: spec.model,
        history,
        signal,
        ...(take ? { take } : {}),
        ...(library ? { library } : {}),
        ...(readings.length ? { readings } : {}),
      });
      const iterator = events[Symbol.asyncIterator]();
      // An agent that ignores its signal must not hold the turn past a stop or the timeout.
      const aborted = new Promise<'aborted'>((resolve) => {
        if (signal.aborted) resolve('aborted');
        signal.addEventListener('abort', () => resolve('aborted'), { once: true });
      });
      let final: { text: string; report: StructuredResponse | null } | null = null;
      for (;;) {
        const next = await Promise.race([iterator.next(), aborted]);
        if (next === 'aborted') {
          void Promise.resolve(iterator.return?.()).catch(() => undefined);
          break;
        }
        if (next.done) break;
        final = await emitter.onAgentEvent(next.value as AgentEvent);
        if (final) break;
        if (signal.aborted) break;
      }
      const reason = reasonOf();
      if (reason === 'stop') outcome = { kind: 'stopped' };
      else if (reason === 'timeout')
        outcome = { kind: 'error', message: TIMEOUT_MESSAGE, status: LOG_STATUS.timeout };
      else if (reason === 'shutdown')
        outcome = { kind: 'error', message: SHUTDOWN_MESSAGE, status: LOG_STATUS.error };
      else
        outcome = {
          kind: 'complete',
          text: final?.text ?? emitter.text,
          report: final?.report ?? null,
        };
    } catch (err) {
      const reason = reasonOf();
      if (reason === 'stop') outcome = { kind: 'stopped' };
      else if (reason === 'timeout')
        outcome = { kind: 'error', message: TIMEOUT_MESSAGE, status: LOG_STATUS.timeout };
      else {
        if (!(err instanceof AgentError))
          log.error({ err, messageId: spec.messageId }, 'agent turn failed');
        // A model server's failure: its status and body go to the log (the user gets the words).
        else if (err.detail)
          log.warn(
            { model: spec.model, messageId: spec.messageId, upstream: err.detail },
            err.message,
          );
        outcome = {
          kind: 'error',
          message: err instanceof AgentError ? err.message : FAILURE_MESSAGE,
          // The provider knows what failed: 502 upstream, 504 silent, 206 cut, 422 declined.
          status: (err instanceof AgentError && err.logStatus) || LOG_STATUS.error,
        };
      }
    } finally {
      clearTimeout(timeout);
      clearInterval(heartbeat);
      clearInterval(checkpoint);
    }

    await emitter.endThinking().catch(() => undefined);
    const now = clock.now();
    const responseTimeMs = Math.round(performance.now() - started);
    const closed = await this.patiently(spec.messageId, () =>
      this.closeReply(spec, outcome, emitter.text, now, responseTimeMs, emitter.usage),
    ).catch(async (err: unknown) => {
      // The reply must not stay loading for ever: close it as failed, keeping what can be kept.
      log.error({ err, messageId: spec.messageId }, 'could not save the reply');
      outcome = { kind: 'error', message: FAILURE_MESSAGE, status: LOG_STATUS.error };
      const row = await closeLoadingReply(db, spec.messageId, {
        status: 'error',
        content: '',
        error: FAILURE_MESSAGE,
        now,
      });
      await releaseReservation(db, spec.messageId);
      const chat = row ? await touchChat(db, spec.chatId, now) : null;
      return row ? { title: chat?.title } : null;
    });
    // The chat moves in its Recent list (and its title may have changed): this process's lists
    // are dropped at once (before the events, so a client refetching on them sees the change);
    // the other processes are told while the events go out, not before them.
    const listsChanged = closed ? chatListsChanged([spec.userId]) : undefined;
    // Published after commit: a client that refetches on these events sees the closed reply.
    if (closed) {
      if (outcome.kind === 'complete') {
        // The report as read and stored, and the title chosen with it: the client shows both as
        // they come (docs/decisions/0018-the-report-typed-end-to-end.md).
        await emitter.emit('stream_complete', '', {
          finalContent: outcome.text,
          status: 'complete',
          structuredResponse: outcome.report,
          ...(closed.title ? { title: closed.title } : {}),
        });
      } else if (outcome.kind === 'stopped') {
        await emitter.emit('stream_complete', '', {
          finalContent: emitter.text,
          status: 'stopped',
          structuredResponse: null,
          ...(closed.title ? { title: closed.title } : {}),
        });
      } else {
        await emitter.emit('stream_error', outcome.message);
      }
    }
    await listsChanged;
    await bus.deleteKeys(turnAliveKey(spec.messageId));
    if (closed) await this.warnOnBudgets(spec, now);
    if (closed && outcome.kind !== 'stopped') await this.notifyIfAway(spec, outcome.kind, now);
  }

  /**
   * The user was not watching the chat when its reply finished: the bell tells them (ADR 0077).
   * Asked after REPLY_NOTICE_GRACE_MS, without holding the turn: a user who sent the first
   * message from a module page opens the chat a moment later, and was never away.
   */
  private async notifyIfAway(spec: TurnSpec, kind: 'complete' | 'error', now: Date) {
    const { db, bus, log, config } = this.deps;
    const tell = () =>
      notifyReplyFinished(
        { db, bus },
        { userId: spec.userId, chatId: spec.chatId, failed: kind === 'error', now },
      ).catch((err: unknown) =>
        log.warn({ err, messageId: spec.messageId }, 'reply notification failed'),
      );
    if (!config.replyNoticeGraceMs) return void (await tell());
    const timer = setTimeout(() => {
      this.noticeTimers.delete(timer);
      void tell();
    }, config.replyNoticeGraceMs);
    timer.unref();
    this.noticeTimers.add(timer);
  }

  /** Tells the company's admins of a budget that reached 75% or 90% with this turn. */
  private async warnOnBudgets(spec: TurnSpec, now: Date): Promise<void> {
    const { db, log, mailer, config } = this.deps;
    try {
      const warnings = await warnOnBudgets(db, { userId: spec.userId, module: spec.module, now });
      await publishNotifications(
        this.deps.bus,
        warnings.flatMap((w) => w.notifications),
      ).catch((err: unknown) => log.warn({ err }, 'budget warnings not delivered live'));
      for (const w of warnings) {
        for (const a of w.admins) {
          await mailer
            ?.send(
              budgetWarningMail(
                a.email,
                w.companyName,
                w.moduleName ? `${w.moduleName} ${w.unit}` : w.unit,
                w.percent,
                w.resetsOn,
                `${config.appUrl}/admin?tab=budgets`,
              ),
            )
            .catch((err: unknown) => log.warn({ err }, 'budget warning mail failed'));
        }
      }
    } catch (err) {
      // A warning that cannot be written must never fail the turn that already closed.
      log.warn({ err, messageId: spec.messageId }, 'budget warnings failed');
    }
  }

  /**
   * Runs a save again while the database is down, up to SAVE_PATIENCE_MS, keeping the turn's
   * heartbeat so no sweep closes the reply meanwhile. Any other error is not waited out.
   */
  private async patiently<T>(messageId: string, save: () => Promise<T>): Promise<T> {
    const deadline = performance.now() + SAVE_PATIENCE_MS;
    for (let wait = 250; ; wait = Math.min(wait * 2, 4_000)) {
      try {
        return await save();
      } catch (err) {
        if (!isDependencyDown(err) || performance.now() + wait > deadline) throw err;
        this.deps.log.warn({ err, messageId }, 'the database is away: saving the reply again soon');
        await this.markAlive(messageId).catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  /** Closes the reply with its outcome and writes its Log row, in one transaction. */
  private async closeReply(
    spec: TurnSpec,
    outcome: TurnOutcome,
    partialText: string,
    now: Date,
    responseTimeMs: number,
    usage: { inputTokens: number; outputTokens: number },
  ): Promise<{ title: string | undefined } | null> {
    const { db } = this.deps;
    const responseStatus =
      outcome.kind === 'complete'
        ? LOG_STATUS.complete
        : outcome.kind === 'stopped'
          ? LOG_STATUS.stopped
          : outcome.status;
    return db.transaction(async (tx) => {
      // The Log row commits with the reply it describes: a reader never sees one without the other.
      await insertLog(tx, {
        chatId: spec.chatId,
        userId: spec.userId,
        requestBody: spec.requestBody,
        responseStatus,
        responseTimeMs,
      });
      // Its usage and the day's roll-up with it: the figures count each logged turn once.
      await releaseReservation(tx, spec.messageId);
      await recordTurnUsage(tx, {
        userId: spec.userId,
        module: spec.module,
        model: spec.model,
        ...usage,
        durationMs: responseTimeMs,
        status: responseStatus,
        starterId: spec.starterId ?? null,
        now,
      });
      const row =
        outcome.kind === 'complete'
          ? await closeLoadingReply(tx, spec.messageId, {
              status: 'complete',
              content: outcome.text,
              structuredResponse: outcome.report,
              now,
            })
          : await closeLoadingReply(tx, spec.messageId, {
              status: outcome.kind === 'stopped' ? 'stopped' : 'error',
              content: partialText,
              error: outcome.kind === 'error' ? outcome.message : null,
              now,
            });
      if (!row) return null;
      const chat = await touchChat(tx, spec.chatId, now);
      // The chat title follows the report's task name (spec section 4, stream_complete), unless
      // the user named the chat: the server alone writes it (ADR 0031, 0018).
      const taskName =
        outcome.kind === 'complete' ? outcome.report?.task_name.trim().slice(0, 255) : undefined;
      const renamed = taskName
        ? await followTaskName(tx, spec.chatId, taskName, DEFAULT_CHAT_TITLES)
        : null;
      return { title: renamed ?? chat?.title };
    });
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The turn runtime: start, stop, sweep. */
    turns: TurnRuntime;
  }
}

/** Registers the runtime first, so every route plugin can start and stop turns. */
export const agentsRuntime = fp(
  async (app) => {
    const { database, bus, config, clock, agentFor, mailer } = app.deps;
    const runtime = new TurnRuntime({
      db: database.db,
      bus,
      config,
      clock,
      log: app.log,
      agentFor,
      mailer,
      libraryVectors: libraryVectors(config, database, (err, what) => app.log.warn({ err }, what)),
    });
    await runtime.init();
    app.decorate('turns', runtime);
    app.addHook('onClose', async () => {
      await runtime.close();
    });
  },
  { name: 'agents-runtime' },
);
