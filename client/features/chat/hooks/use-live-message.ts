import * as React from 'react';
import { hashKey, useQueryClient } from '@tanstack/react-query';
import { chatKey } from '../api/chat-api';
import { findMessage, type ChatData, type ChatMessage } from '../lib/chat-cache';

/**
 * One message of a chat, read straight from the query cache and re-rendered only when that
 * message's object changes. The list holds a reply in progress as a shell (createListSelector), so
 * a stream chunk re-renders the reply's own small component and nothing else. `shell` stands in
 * when the cache no longer holds the message (its row is about to go).
 */
export function useLiveMessage(chatId: string, shell: ChatMessage): ChatMessage {
  const client = useQueryClient();
  const subscribe = React.useCallback(
    (onChange: () => void) => {
      const hash = hashKey(chatKey(chatId));
      return client.getQueryCache().subscribe((event) => {
        if (event.type === 'updated' && event.query.queryHash === hash) onChange();
      });
    },
    [client, chatId],
  );
  const read = React.useCallback(
    () => findMessage(client.getQueryData<ChatData>(chatKey(chatId)), shell.id) ?? shell,
    [client, chatId, shell],
  );
  return React.useSyncExternalStore(subscribe, read, read);
}
