import type { AttachmentRef, MessageDto } from '@contract/chats';

export interface LastUserMessage {
  /** The message's text parts, joined; file parts add nothing to it. */
  text: string;
  /** The files it carried, to fetch back and resend. */
  attachments: AttachmentRef[];
}

/** The chat's last user message as something to resubmit (the error dialog's Retry). */
export function lastUserMessage(
  chat: { messages: readonly Pick<MessageDto, 'role' | 'content'>[] } | undefined,
): LastUserMessage | undefined {
  const m = chat?.messages.findLast((x) => x.role === 'user');
  if (!m) return undefined;
  if (typeof m.content === 'string') return { text: m.content, attachments: [] };
  const text = m.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
  const attachments = m.content.flatMap((p) =>
    p.type === 'file' && p.attachment.id ? [p.attachment] : [],
  );
  return { text, attachments };
}
