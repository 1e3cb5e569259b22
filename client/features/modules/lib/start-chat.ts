import { STARTER_PREFILL_PREFIX } from '@contract/constants';

/** What a template puts in the new chat's message box (spec section 4). */
export function templatePrefill(description: string): string {
  return `${STARTER_PREFILL_PREFIX}${description}`;
}

/**
 * The chat page's address for a new chat, with the prefill parameter when there is one and the
 * starter it came from (its first message counts in usage as sent from that starter).
 */
export function chatPath(chatId: string, prefill?: string, starterId?: number): string {
  const base = `/chat/${encodeURIComponent(chatId)}`;
  const q = [
    ...(prefill !== undefined ? [`prefill=${encodeURIComponent(prefill)}`] : []),
    ...(starterId !== undefined ? [`starter=${starterId}`] : []),
  ];
  return q.length ? `${base}?${q.join('&')}` : base;
}
