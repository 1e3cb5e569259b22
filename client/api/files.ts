import { queryOptions } from '@tanstack/react-query';
import { fileTypeOf } from '@contract/constants';
import { http, httpDone, type Answer } from './http';
import type { SavedFileDto } from '@contract/files';

// A chat's saved files (/api/chats/{id}/files, /api/files/{id}). The schemas load with the
// first request: the files panel is on the chat route (docs/decisions/0023-one-client-api-per-resource.md).
const savedFile: Answer<SavedFileDto> = () => import('@contract/files').then((m) => m.SavedFileDto);
const savedFiles: Answer<SavedFileDto[]> = () =>
  import('@contract/files').then((m) => m.SavedFileDto.array());

/** The saved files of one chat: the files panel lists them, a save from a message adds one. */
export const savedFilesKey = (chatId: string) => ['/api/chats', chatId, 'files'] as const;

const filesPath = (chatId: string) => `/api/chats/${encodeURIComponent(chatId)}/files`;

/** GET /api/chats/{id}/files: a failure gives an empty list (spec section 7). */
export function savedFilesQueryOptions(chatId: string) {
  return queryOptions({
    queryKey: savedFilesKey(chatId),
    queryFn: ({ signal }): Promise<SavedFileDto[]> =>
      http('GET', filesPath(chatId), savedFiles, { signal }).catch(() => []),
  });
}

/** POST /api/chats/{id}/files: the file saved (409 when one of that name already is). */
export function saveFile(chatId: string, file: { fileName: string; fileContent: string }) {
  return http('POST', filesPath(chatId), savedFile, {
    body: {
      fileName: file.fileName,
      fileContent: file.fileContent,
      fileType: fileTypeOf(file.fileName),
    },
  });
}

/** DELETE /api/files/{fileId}. */
export function deleteFile(fileId: string): Promise<void> {
  return httpDone('DELETE', `/api/files/${encodeURIComponent(fileId)}`);
}
