import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { SavedFileDto } from '@contract/files';
import { apiRequest } from '@/lib/api';
import { toast } from '@/hooks/use-toast';
import { savedFilesKey } from '@/lib/query-keys';

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
        // Shaped by the server's response schema: taken as it comes, no validator shipped.
        return (await res.json()) as SavedFileDto[];
      } catch {
        return [];
      }
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
