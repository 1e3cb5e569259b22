import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { fileTypeOf, SavedFileDto } from '@contract/files';
import { z } from 'zod';
import { apiJson, apiRequest, isApiError } from '@/lib/api';
import { toast } from '@/hooks/use-toast';
import { downloadBlob } from '@/lib/download';

export const savedFilesKey = (chatId: string) => ['/api/chats', chatId, 'files'] as const;

/** GET /api/chats/{id}/files: a failure gives an empty list (spec section 7). */
export function savedFilesQueryOptions(chatId: string) {
  return queryOptions({
    queryKey: savedFilesKey(chatId),
    queryFn: async ({ signal }): Promise<SavedFileDto[]> => {
      try {
        const res = await fetch(`/api/chats/${encodeURIComponent(chatId)}/files`, {
          credentials: 'include',
          signal,
        });
        if (!res.ok) return [];
        return z.array(SavedFileDto).parse(await res.json());
      } catch {
        return [];
      }
    },
  });
}

/**
 * POST /api/chats/{id}/files with the spec's toasts: "File saved"; 409 "File already saved";
 * otherwise "Error" / "Failed to save file. Please try again." Resolves true when saved.
 */
export function useSaveFile(
  chatId: string,
  messages?: {
    success?: { title: string; description?: string };
    failure?: { title: string; description: string };
  },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: { fileName: string; fileContent: string }) =>
      apiJson<SavedFileDto>('POST', `/api/chats/${encodeURIComponent(chatId)}/files`, {
        fileName: file.fileName,
        fileContent: file.fileContent,
        fileType: fileTypeOf(file.fileName),
      }),
    onSuccess: () => {
      toast(messages?.success ?? { title: 'File saved' });
      void queryClient.invalidateQueries({ queryKey: savedFilesKey(chatId) });
    },
    onError: (err, file) => {
      if (isApiError(err) && err.status === 409) {
        toast({
          title: 'File already saved',
          description: `${file.fileName} is already in your saved files`,
        });
        return;
      }
      toast({
        variant: 'destructive',
        ...(messages?.failure ?? {
          title: 'Error',
          description: 'Failed to save file. Please try again.',
        }),
      });
    },
  });
}

/** DELETE /api/files/{fileId}: "File deleted", or "Error" / "Failed to delete file. Please try again." */
export function useDeleteFile(chatId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fileId: string) =>
      apiRequest('DELETE', `/api/files/${encodeURIComponent(fileId)}`),
    onSuccess: () => {
      toast({ title: 'File deleted' });
      void queryClient.invalidateQueries({ queryKey: savedFilesKey(chatId) });
    },
    onError: () => {
      toast({
        variant: 'destructive',
        title: 'Error',
        description: 'Failed to delete file. Please try again.',
      });
    },
  });
}

/** GET /api/attachments/{id}: the bytes of a file attached to a message. */
export async function fetchAttachment(id: string): Promise<Blob> {
  const res = await apiRequest('GET', `/api/attachments/${encodeURIComponent(id)}`);
  return res.blob();
}

/** The bytes of a file attached to a message, downloaded under its name. */
export async function downloadAttachment(id: string, fileName: string): Promise<void> {
  try {
    downloadBlob(fileName, await fetchAttachment(id));
    toast({ title: 'File downloaded' });
  } catch {
    toast({
      variant: 'destructive',
      title: 'Error',
      description: 'Failed to download file. Please try again.',
    });
  }
}
