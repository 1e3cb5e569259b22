import { and, asc, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { chats, savedFiles, type SavedFile } from '../db/schema';
import { UUID_RE } from './conversation.repo';

// Saved files of a chat: SQL only.

export async function listSavedFiles(db: DbOrTx, chatId: string): Promise<SavedFile[]> {
  return db
    .select()
    .from(savedFiles)
    .where(eq(savedFiles.chatId, chatId))
    .orderBy(asc(savedFiles.createdAt), asc(savedFiles.id));
}

/** Inserts the file unless the chat already has one of that name: null then (the 409). */
export async function insertSavedFile(
  db: DbOrTx,
  values: { chatId: string; userId: string; fileName: string; fileContent: string },
): Promise<SavedFile | null> {
  const [row] = await db
    .insert(savedFiles)
    .values(values)
    .onConflictDoNothing({ target: [savedFiles.chatId, savedFiles.fileName] })
    .returning();
  return row ?? null;
}

/** A saved file of a live chat this user owns; undefined when there is none such. */
export async function findOwnSavedFile(
  db: DbOrTx,
  fileId: string,
  userId: string,
): Promise<SavedFile | undefined> {
  if (!UUID_RE.test(fileId)) return undefined;
  const [own] = await db
    .select({ file: savedFiles })
    .from(savedFiles)
    .innerJoin(chats, eq(chats.id, savedFiles.chatId))
    .where(and(eq(savedFiles.id, fileId), eq(chats.userId, userId), isNull(chats.deletedAt)))
    .limit(1);
  return own?.file;
}

/** Deletes a saved file of a chat this user owns; its name, or null when there is none such. */
export async function deleteOwnSavedFile(
  db: DbOrTx,
  fileId: string,
  userId: string,
): Promise<string | null> {
  const own = await findOwnSavedFile(db, fileId, userId);
  if (!own) return null;
  const gone = await db
    .delete(savedFiles)
    .where(eq(savedFiles.id, own.id))
    .returning({ id: savedFiles.id });
  return gone.length > 0 ? own.fileName : null;
}
