import { fileTypeOf, type SaveFileBody, type SavedFileDto } from '@contract/files';
import type { Db } from '../db/connect';
import type { SavedFile } from '../db/schema';
import { ConflictError, NotFoundError } from '../lib/errors';
import { findOwnChat } from './chats.repo';
import { CHAT_NOT_FOUND } from './conversation.service';
import {
  deleteOwnSavedFile,
  findOwnSavedFile,
  insertSavedFile,
  listSavedFiles,
} from './files.repo';

/** The 409 text: the client shows it as the spec's "{filename} is already in your saved files". */
export const alreadySavedMessage = (fileName: string) =>
  `${fileName} is already in your saved files`;

export function toSavedFileDto(f: SavedFile): SavedFileDto {
  return {
    id: f.id,
    fileName: f.fileName,
    fileContent: f.fileContent,
    // Derived from the extension (spec section 3), so it can never disagree with the name.
    fileType: fileTypeOf(f.fileName),
    createdAt: f.createdAt.toISOString(),
  };
}

export async function listFiles(db: Db, userId: string, chatId: string): Promise<SavedFileDto[]> {
  const chat = await findOwnChat(db, chatId, userId);
  if (!chat) throw new NotFoundError(CHAT_NOT_FOUND);
  return (await listSavedFiles(db, chat.id)).map(toSavedFileDto);
}

export async function saveFile(
  db: Db,
  userId: string,
  chatId: string,
  body: SaveFileBody,
): Promise<SavedFileDto> {
  const chat = await findOwnChat(db, chatId, userId);
  if (!chat) throw new NotFoundError(CHAT_NOT_FOUND);
  const row = await insertSavedFile(db, {
    chatId: chat.id,
    userId,
    fileName: body.fileName,
    fileContent: body.fileContent,
  });
  if (!row) throw new ConflictError(alreadySavedMessage(body.fileName), 'FILE_ALREADY_SAVED');
  return toSavedFileDto(row);
}

/** Deletes a saved file of the user's; answers its name (for the audit log). */
export async function deleteFile(db: Db, userId: string, fileId: string): Promise<string> {
  const name = await deleteOwnSavedFile(db, fileId, userId);
  if (name === null) throw new NotFoundError('File not found');
  return name;
}

/** A saved file of the user's, to download. */
export async function downloadFile(db: Db, userId: string, fileId: string): Promise<SavedFile> {
  const file = await findOwnSavedFile(db, fileId, userId);
  if (!file) throw new NotFoundError('File not found');
  return file;
}
