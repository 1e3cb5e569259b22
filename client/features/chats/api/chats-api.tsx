import { useQuery, useQueryClient } from '@tanstack/react-query';
import * as React from 'react';
import type { ChatSummaryDto } from '@contract/chats';
import { serverMessage } from '@/api/http';
import {
  chatSearchQueryOptions,
  deleteChat,
  dropFromChatLists,
  forgetChat,
  invalidateChatLists,
  restoreChat,
} from '@/api/chats';
import { toast } from '@/hooks/use-toast';
import { updateChatTitle } from '@/lib/chat-title';

// Managing chats from anywhere (Chats page, Recent lists, a chat's header): search, rename,
// delete with undo. The calls and their keys are the chats resource's (api/chats.ts).

export { chatExportUrl, chatPagesQueryOptions } from '@/api/chats';

/** GET /api/chats/search: results for what is typed, the last request winning. */
export function useChatSearch(q: string) {
  return useQuery(chatSearchQueryOptions(q.trim()));
}

/** Seconds the Undo stays on screen; the server keeps the chat restorable for longer. */
export const UNDO_TOAST_MS = 10_000;

/** Rename, delete (with an Undo toast) for any chat; `onDeleted` runs once it is gone. */
export function useChatActions() {
  const client = useQueryClient();
  const rename = React.useCallback(
    async (chatId: string, title: string): Promise<boolean> => {
      try {
        await updateChatTitle(client, chatId, title);
        return true;
      } catch (err) {
        toast({
          variant: 'destructive',
          title: 'Error',
          description: serverMessage(err, 'Failed to rename the chat. Please try again.'),
        });
        return false;
      }
    },
    [client],
  );

  const restore = React.useCallback(
    async (chat: Pick<ChatSummaryDto, 'id' | 'title'>) => {
      try {
        await restoreChat(chat.id);
        toast({ title: 'Chat restored', description: `"${chat.title}" is back.` });
      } catch (err) {
        toast({
          variant: 'destructive',
          title: 'Error',
          description: serverMessage(err, 'The chat could not be restored.'),
        });
      }
      await invalidateChatLists(client);
    },
    [client],
  );

  const remove = React.useCallback(
    async (chat: Pick<ChatSummaryDto, 'id' | 'title'>, onDeleted?: () => void) => {
      try {
        await deleteChat(chat.id);
      } catch (err) {
        toast({
          variant: 'destructive',
          title: 'Error',
          description: serverMessage(err, 'Failed to delete the chat. Please try again.'),
        });
        return;
      }
      dropFromChatLists(client, chat.id);
      // Away from the chat first (its page would otherwise ask for it again), then forget it.
      onDeleted?.();
      setTimeout(() => forgetChat(client, chat.id), 0);
      const shown = toast({
        title: 'Chat deleted',
        description: `"${chat.title}" and its files were deleted.`,
        duration: UNDO_TOAST_MS,
        action: (
          <UndoAction
            onUndo={() => {
              shown.dismiss();
              void restore(chat);
            }}
          />
        ),
      });
      void invalidateChatLists(client, chat.id);
    },
    [client, restore],
  );

  return { rename, remove };
}

// Lazy: a static import would bring the toast UI into every signed-in page (see Providers).
const ToastAction = React.lazy(() =>
  import('@/components/ui/toast').then((m) => ({ default: m.ToastAction })),
);

function UndoAction({ onUndo }: { onUndo: () => void }) {
  return (
    <ToastAction altText="Undo delete" onClick={onUndo}>
      Undo
    </ToastAction>
  );
}
