import * as React from 'react';
import { hashKey, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { chatKey } from '../api/chat-api';
import { findMessage, type ChatData, type ChatMessage } from '../lib/chat-cache';

/**
 * A reply in progress, read straight from the query cache. The list holds such a reply as a
 * shell (createListSelector), so a stream chunk renders neither the page nor the list; these
 * hooks let the reply's own component follow it at two speeds:
 *  - useLiveView: what the reply shows (thinking, a report being written, text), re-rendering
 *    only when that changes;
 *  - useLiveEffect: the text itself, written into the DOM outside React on every change, so a
 *    chunk costs a text update and no render at all.
 * `shell` stands in when the cache no longer holds the message (its row is about to go).
 */

function subscribeToChat(client: QueryClient, chatId: string, onChange: () => void): () => void {
  const hash = hashKey(chatKey(chatId));
  return client.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.query.queryHash === hash) onChange();
  });
}

function readMessage(client: QueryClient, chatId: string, shell: ChatMessage): ChatMessage {
  return findMessage(client.getQueryData<ChatData>(chatKey(chatId)), shell.id) ?? shell;
}

/** `view` of the reply; the component re-renders only when `same` says the view changed. */
export function useLiveView<T>(
  chatId: string,
  shell: ChatMessage,
  view: (message: ChatMessage) => T,
  same: (a: T, b: T) => boolean = Object.is,
): T {
  const client = useQueryClient();
  const subscribe = React.useCallback(
    (onChange: () => void) => subscribeToChat(client, chatId, onChange),
    [client, chatId],
  );
  // The last view, kept while an equal one is computed: useSyncExternalStore needs the same
  // snapshot back for "unchanged".
  const last = React.useRef<{ value: T } | null>(null);
  const viewRef = React.useRef({ view, same });
  viewRef.current = { view, same };
  const read = React.useCallback(() => {
    const next = viewRef.current.view(readMessage(client, chatId, shell));
    const prev = last.current;
    if (prev && viewRef.current.same(prev.value, next)) return prev.value;
    last.current = { value: next };
    return next;
  }, [client, chatId, shell]);
  return React.useSyncExternalStore(subscribe, read, read);
}

/**
 * Calls `apply` with the reply now and after every change of the chat's cache entry, outside
 * React's render (from a layout effect, then from the cache's own notification).
 */
export function useLiveEffect(
  chatId: string,
  shell: ChatMessage,
  apply: (message: ChatMessage) => void,
): void {
  const client = useQueryClient();
  const applyRef = React.useRef(apply);
  applyRef.current = apply;
  React.useLayoutEffect(() => {
    const run = () => applyRef.current(readMessage(client, chatId, shell));
    run();
    return subscribeToChat(client, chatId, run);
  }, [client, chatId, shell]);
}
