import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { toast } from '@/hooks/use-toast';
import { savedFilesKey } from '@/lib/query-keys';

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
