import { PassThrough } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import {
  ChatHistoryQuery,
  EditMessageBody,
  SendMessageBody,
  UpdateChatTitleBody,
  type MessageStreamChunk,
} from '@contract/chats';
import type { MessageBody } from '@contract/errors';
import { requireUserId } from '../accounts/sessions';
import { parse } from '../lib/validate';
import { ChatFeed, TERMINAL_EVENTS, type TurnEvent } from '../realtime/turn-feed';
import { attachmentsRoutes } from './attachments.routes';
import {
  editAndResend,
  getChat,
  regenerateReply,
  rejectOversizeFiles,
  sendMessage,
  stopReply,
  updateTitle,
  type SendResult,
} from './conversation.service';

/** Several 10 MB files in base64 fit; each file is held to 10 MB after decoding. */
export const SEND_BODY_LIMIT = 60 * 1024 * 1024;

type FinishReason = NonNullable<MessageStreamChunk['choices'][number]['finish_reason']>;

/** Writes the OpenAI-shaped `data: ` lines of one reply. */
class ChunkWriter {
  readonly stream = new PassThrough();
  private readonly created = Math.floor(Date.now() / 1000);
  private ended = false;

  constructor(
    private readonly id: string,
    private readonly model: string,
  ) {}

  private line(
    delta: MessageStreamChunk['choices'][number]['delta'],
    finish: FinishReason | null,
    error?: string,
  ) {
    if (this.ended) return;
    const chunk: MessageStreamChunk = {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...(error !== undefined ? { error: { message: error } } : {}),
    };
    this.stream.write(`data: ${JSON.stringify(chunk)}\n\n`);
  }

  begin() {
    this.line({ role: 'assistant', content: '' }, null);
  }
  text(content: string) {
    if (content) this.line({ content }, null);
  }
  finish(reason: FinishReason, error?: string) {
    this.line({}, reason, error);
    if (this.ended) return;
    this.ended = true;
    this.stream.end('data: [DONE]\n\n');
  }
  get isEnded() {
    return this.ended;
  }
}

function streamHeaders(reply: FastifyReply, sent: SendResult) {
  reply
    .header('Content-Type', 'text/event-stream; charset=utf-8')
    .header('Cache-Control', 'no-cache, no-transform')
    .header('X-Accel-Buffering', 'no')
    .header('X-User-Message-Id', sent.userMessageId)
    .header('X-Reply-Id', sent.replyId);
}

/** Chat history, title, sending (streamed reply) and stopping. */
export const conversationRoutes: FastifyPluginAsync = async (app) => {
  const { database, clock, bus } = app.deps;
  const db = database.db;

  await app.register(attachmentsRoutes);

  app.get<{ Params: { id: string } }>('/chats/:id', async (req, reply) => {
    const userId = requireUserId(req);
    const query = parse(ChatHistoryQuery, req.query);
    const ifNoneMatch = req.headers['if-none-match'];
    const { etag, chat } = await getChat(db, userId, req.params.id, query, ifNoneMatch);
    // Revalidated on every use: the ETag makes that cheap.
    reply.header('ETag', etag).header('Cache-Control', 'private, no-cache');
    if (!chat) return reply.code(304).send();
    return chat;
  });

  app.put<{ Params: { chatId: string } }>('/chats/:chatId/title', async (req) => {
    const userId = requireUserId(req);
    const { title } = parse(UpdateChatTitleBody, req.body);
    return updateTitle(db, clock, userId, req.params.chatId, title);
  });

  // Regenerate and edit answer at once with the new reply's id; the reply is followed like any
  // other (socket events, or polling the chat).
  app.post<{ Params: { id: string } }>('/chats/:id/regenerate', async (req, reply) => {
    const userId = requireUserId(req);
    const started = await regenerateReply({ db, clock, turns: app.turns }, userId, req.params.id);
    return reply.code(202).send(started);
  });

  app.put<{ Params: { id: string; messageId: string } }>(
    '/chats/:id/messages/:messageId',
    async (req, reply) => {
      const userId = requireUserId(req);
      const { text } = parse(EditMessageBody, req.body ?? {});
      const started = await editAndResend(
        { db, clock, turns: app.turns },
        userId,
        req.params.id,
        req.params.messageId,
        text,
      );
      return reply.code(202).send(started);
    },
  );

  app.post<{ Params: { id: string } }>('/chats/:id/stop', async (req) => {
    const userId = requireUserId(req);
    const stopped = await stopReply(db, app.turns, userId, req.params.id);
    return {
      message: stopped ? 'Reply stopped' : 'No reply is being written in this chat',
    } satisfies MessageBody;
  });

  app.post(
    '/chats/message',
    {
      bodyLimit: SEND_BODY_LIMIT,
      // A signed-out caller is refused before up to 60 MB of body is read.
      onRequest: async (req) => {
        requireUserId(req);
      },
    },
    async (req, reply) => {
      const userId = requireUserId(req);
      rejectOversizeFiles(req.body);
      const body = parse(SendMessageBody, req.body);
      const sent = await sendMessage({ db, clock, turns: app.turns }, userId, body);
      const out = new ChunkWriter(sent.replyId, sent.model);
      streamHeaders(reply, sent);
      out.begin();

      if (sent.replyStatus !== 'loading') {
        // A retried send whose reply already finished: its outcome, in the same shape.
        out.text(sent.replyContent);
        if (sent.replyStatus === 'error')
          out.finish('error', sent.replyError ?? 'The reply failed');
        else out.finish(sent.replyStatus === 'stopped' ? 'cancelled' : 'stop');
        return reply.send(out.stream);
      }

      // The reply follows the same bus events as the socket: closing this request only stops
      // following them; the turn goes on.
      let feed: ChatFeed | null = null;
      const onEvent = (e: TurnEvent) => {
        if (e.type === 'stream_chunk') out.text(e.content);
        else if (e.type === 'stream_complete')
          out.finish(e.status === 'stopped' ? 'cancelled' : 'stop');
        else if (e.type === 'stream_error') out.finish('error', e.content);
        if (TERMINAL_EVENTS.has(e.type)) void feed?.close();
      };
      feed = await ChatFeed.open(bus, sent.chatId, onEvent, sent.replyId);
      reply.raw.on('close', () => void feed?.close());
      await feed.start({ messageId: sent.replyId, afterSeq: 0 });
      if (out.isEnded) await feed.close();
      return reply.send(out.stream);
    },
  );
};
