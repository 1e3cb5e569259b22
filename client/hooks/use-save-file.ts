import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SavedFileDto } from '@contract/files';
import { fileTypeOf } from '@contract/constants';
import { apiJson, isApiError } from '@/lib/api';
import { toast } from '@/hooks/use-toast';
import { savedFilesKey } from '@/lib/query-keys';

/**
 * GET /api/chats/{id}/files: a failure gives an empty list (spec section 7). Here, beside saving,
 * because the panel lists them and a report's Save shows whether its file is among them.
 */
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
        // Shaped by the server's response schema: taken as it comes, no validator shipped; an
        // answer that is not a list (a proxy's page) counts as a failure.
        const list: unknown = await res.json();
        return Array.isArray(list) ? (list as SavedFileDto[]) : [];
      } catch {
        return [];
      }
    },
  });
}

/** Whether the chat's saved files hold one of this name (a report's file shows "Saved"). */
export function useIsSaved(chatId: string, fileName: string): boolean {
  const { data } = useQuery(savedFilesQueryOptions(chatId));
  return !!data?.some((f) => f.fileName === fileName);
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
