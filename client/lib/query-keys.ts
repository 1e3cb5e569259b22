/** The query key of one chat (messages and title), shared by the chat page and the chat lists. */
export const chatKey = (id: string) => ['/api/chats', id] as const;
