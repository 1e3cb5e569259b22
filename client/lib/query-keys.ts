/** The query key of one chat (messages and title), shared by the chat page and the chat lists. */
export const chatKey = (id: string) => ['/api/chats', id] as const;

/** The saved files of one chat: the files panel lists them, a save from a message adds one. */
export const savedFilesKey = (chatId: string) => ['/api/chats', chatId, 'files'] as const;
