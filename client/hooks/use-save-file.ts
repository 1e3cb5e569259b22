import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SavedFileDto } from '@contract/files';
import { fileTypeOf } from '@contract/constants';
import { apiJson, isApiError } from '@/lib/api';
import { toast } from '@/hooks/use-toast';
import { savedFilesKey } from '@/lib/query-keys';

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
