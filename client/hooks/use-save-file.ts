import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isApiError } from '@/api/http';
import { saveFile, savedFilesKey, savedFilesQueryOptions } from '@/api/files';
import { toast } from '@/hooks/use-toast';

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
    mutationFn: (file: { fileName: string; fileContent: string }) => saveFile(chatId, file),
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
