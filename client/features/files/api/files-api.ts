import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteFile, savedFilesKey } from '@/api/files';
import { toast } from '@/hooks/use-toast';

/** DELETE /api/files/{fileId}: "File deleted", or "Error" / "Failed to delete file. Please try again." */
export function useDeleteFile(chatId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFile,
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
