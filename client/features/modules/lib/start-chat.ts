/** What a template puts in the new chat's message box (spec section 4). */
export function templatePrefill(description: string): string {
  return `Help me with: ${description}`;
}

/** The chat page's address for a new chat, with the prefill parameter when there is one. */
export function chatPath(chatId: string, prefill?: string): string {
  const base = `/chat/${encodeURIComponent(chatId)}`;
  return prefill === undefined ? base : `${base}?prefill=${encodeURIComponent(prefill)}`;
}
