import { and, asc, eq } from 'drizzle-orm';
import { READING_MESSAGES, TableReading, type RememberedReadingDto } from '@contract/reading';
import { StructuredResponse } from '@contract/structured-response';
import type { Db } from '../db/connect';
import { rememberedReadings, users } from '../db/schema';
import type { Clock } from '../lib/clock';
import { ConflictError, NotFoundError, ValidationError } from '../lib/errors';
import { findOwnChat } from './chats.repo';
import { findLoadingReply, findMessageById, findMessageBySeq } from './conversation.repo';
import { REPLY_IN_PROGRESS, sendMessage } from './conversation.service';
import { contentText } from './turns/turn';
import type { TurnRuntime } from './turns/runtime';
import type { TurnStartedDto } from '@contract/chats';

/**
 * Remembered readings (ADR 0052): a reading a user confirmed in the "Check how I read this file"
 * card is stored for their company by the layout's header signature; every later turn of anyone
 * in the company reads a table of that layout that way at once. Correcting one re-runs the
 * question on the same files as a new reply, through the normal send.
 */

/** The readings of the reply's card, by signature and sheet. */
function cardReadings(content: unknown): TableReading[] {
  const report = StructuredResponse.safeParse(content);
  if (!report.success) return [];
  return report.data.content.flatMap((c) => (c.type === 'reading' ? c.readings : []));
}

/**
 * Stores the readings for the caller's company (one per layout: a later one replaces it) and,
 * unless `rerun` is false, sends the question the reply answered again as a new message.
 */
export async function confirmReading(
  deps: { db: Db; clock: Clock; turns: TurnRuntime },
  userId: string,
  chatId: string,
  body: { messageId: string; readings: TableReading[]; rerun: boolean },
): Promise<TurnStartedDto | null> {
  const { db, clock } = deps;
  const chat = await findOwnChat(db, chatId, userId);
  if (!chat) throw new NotFoundError('Chat not found');
  const reply = await findMessageById(db, chat.id, body.messageId);
  if (!reply || reply.role !== 'assistant') throw new NotFoundError(READING_MESSAGES.notAReply);
  // Only the layouts this reply read: a reading is never stored for a signature it did not show.
  const shown = cardReadings(reply.structuredResponse);
  if (body.readings.some((r) => !shown.some((s) => s.signature === r.signature)))
    throw new ValidationError(READING_MESSAGES.unknownLayout);
  for (const r of body.readings) {
    const names = new Set(r.columns.map((c) => c.name));
    if (r.personKey && !names.has(r.personKey))
      throw new ValidationError(
        `The person key "${r.personKey}" is not a column of ${r.fileName}: pick one of its columns.`,
      );
    const roles = r.columns.flatMap((c) => (c.role ? [c.role] : []));
    const twice = roles.find((role, i) => roles.indexOf(role) !== i);
    if (twice)
      throw new ValidationError(
        `Two columns of ${r.fileName} are read as the same role (${twice}): give it to one column only.`,
      );
  }
  const question = await findMessageBySeq(db, chat.id, reply.seq - 1);
  const text = question?.role === 'user' ? contentText(question.content).trim() : '';
  if (body.rerun && !text) throw new ValidationError(READING_MESSAGES.noQuestion);
  // A re-run while a reply is being written would be refused: nothing is stored then either.
  if (body.rerun && (await findLoadingReply(db, chat.id)))
    throw new ConflictError(REPLY_IN_PROGRESS);
  const [user] = await db
    .select({ companyId: users.companyId })
    .from(users)
    .where(eq(users.id, userId));
  if (!user?.companyId) throw new ValidationError(READING_MESSAGES.noCompany);
  const now = clock.now();
  // Which bytes the reading was made from is the card's to say, not the request's: the as-of
  // date is used again for those bytes only (ADR 0050).
  const fromCard = (r: TableReading) =>
    (shown.find((s) => s.signature === r.signature && s.sheet === r.sheet) ??
      shown.find((s) => s.signature === r.signature))!.fileDigest ?? null;
  const stored = body.readings.map((r) => ({ ...r, fileDigest: fromCard(r) }));
  await db.transaction(async (tx) => {
    for (const reading of stored)
      await tx
        .insert(rememberedReadings)
        .values({
          companyId: user.companyId!,
          signature: reading.signature,
          reading,
          confirmedBy: userId,
          confirmedAt: now,
        })
        .onConflictDoUpdate({
          target: [rememberedReadings.companyId, rememberedReadings.signature],
          set: { reading, confirmedBy: userId, confirmedAt: now },
        });
  });
  if (!body.rerun) return null;
  const sent = await sendMessage(deps, userId, { chatId: chat.id, message: text });
  return { replyId: sent.replyId, userMessageId: sent.userMessageId };
}

/** The company's remembered readings for the admin list, oldest first. */
export async function listReadings(db: Db, companyId: number): Promise<RememberedReadingDto[]> {
  const rows = await db
    .select({
      id: rememberedReadings.id,
      signature: rememberedReadings.signature,
      reading: rememberedReadings.reading,
      confirmedAt: rememberedReadings.confirmedAt,
      email: users.email,
    })
    .from(rememberedReadings)
    .leftJoin(users, eq(users.id, rememberedReadings.confirmedBy))
    .where(eq(rememberedReadings.companyId, companyId))
    .orderBy(asc(rememberedReadings.confirmedAt), asc(rememberedReadings.id));
  return rows.map((r) => {
    const parsed = TableReading.safeParse(r.reading);
    return {
      id: r.id,
      signature: r.signature,
      fileName: parsed.success ? parsed.data.fileName : '',
      sheet: parsed.success ? parsed.data.sheet : null,
      columns: parsed.success ? parsed.data.columns : [],
      confirmedBy: r.email ?? null,
      confirmedAt: r.confirmedAt.toISOString(),
    };
  });
}

/** Forgets one reading of the company; another company's (or none) is a 404. */
export async function deleteReading(db: Db, companyId: number, id: number): Promise<void> {
  const gone = await db
    .delete(rememberedReadings)
    .where(and(eq(rememberedReadings.companyId, companyId), eq(rememberedReadings.id, id)))
    .returning({ id: rememberedReadings.id });
  if (!gone.length) throw new NotFoundError('Reading not found');
}
