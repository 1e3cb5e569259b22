import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ChatDto,
  ChatHistoryQuery,
  ChatIdParams,
  EditMessageBody,
  IdParams,
  MessageParams,
  SendMessageBody,
  TurnStartedDto,
  UpdateChatTitleBody,
  type MessageStreamChunk,
} from '@contract/chats';
import { MessageBody } from '@contract/errors';
import { requireUserId } from '../accounts/sessions';
import { orEmpty } from './route-schemas';
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
export const conversationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { database, clock, bus } = app.deps;
  const db = database.db;

  await app.register(attachmentsRoutes);

  // 304: unchanged since the client's ETag, no body.
  const history = {
    params: IdParams,
    querystring: ChatHistoryQuery,
    response: { 200: ChatDto, 304: z.undefined() },
  };
  app.get('/chats/:id', { schema: history }, async (req, reply) => {
    const userId = requireUserId(req);
    const ifNoneMatch = req.headers['if-none-match'];
    const { etag, chat } = await getChat(db, userId, req.params.id, req.query, ifNoneMatch);
    // Never stored (as every API answer); the client sends the ETag itself, so a poll of an
    // unchanged chat still costs only a 304.
    reply.header('ETag', etag).header('Cache-Control', 'no-store');
    if (!chat) return reply.code(304).send();
    return chat;
  });

  const title = { params: ChatIdParams, body: UpdateChatTitleBody, response: { 200: ChatDto } };
  app.put('/chats/:chatId/title', { schema: title }, async (req) => {
    const userId = requireUserId(req);
    return updateTitle(db, clock, userId, req.params.chatId, req.body.title);
  });

  // Regenerate and edit answer at once with the new reply's id; the reply is followed like any
  // other (socket events, or polling the chat).
  const regenerate = { params: IdParams, response: { 202: TurnStartedDto } };
  app.post('/chats/:id/regenerate', { schema: regenerate }, async (req, reply) => {
    const userId = requireUserId(req);
    const started = await regenerateReply({ db, clock, turns: app.turns }, userId, req.params.id);
    return reply.code(202).send(started);
  });

  // No body at all reads as an empty one: its answer says the message is required.
  const edit = {
    params: MessageParams,
    body: orEmpty(EditMessageBody),
    response: { 202: TurnStartedDto },
  };
  app.put(
    '/chats/:id/messages/:messageId',
    {
      schema: edit,
    },
    async (req, reply) => {
      const userId = requireUserId(req);
      const started = await editAndResend(
        { db, clock, turns: app.turns },
        userId,
        req.params.id,
        req.params.messageId,
        req.body.text,
      );
      return reply.code(202).send(started);
    },
  );

  const stop = { params: IdParams, response: { 200: MessageBody } };
  app.post('/chats/:id/stop', { schema: stop }, async (req) => {
    const userId = requireUserId(req);
    const stopped = await stopReply(db, app.turns, userId, req.params.id);
    return { message: stopped ? 'Reply stopped' : 'No reply is being written in this chat' };
  });

  // The answer is an event stream of MessageStreamChunk lines, written by ChunkWriter.
  app.post(
    '/chats/message',
    {
      bodyLimit: SEND_BODY_LIMIT,
      schema: { body: SendMessageBody },
      // A signed-out caller is refused before up to 60 MB of body is read.
      onRequest: async (req) => {
        requireUserId(req);
      },
      // A file over 10 MB gets its size message, not the schema's "too long".
      preValidation: async (req) => {
        rejectOversizeFiles(req.body);
      },
    },
    async (req, reply) => {
      const userId = requireUserId(req);
      const sent = await sendMessage({ db, clock, turns: app.turns }, userId, req.body);
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
      // following them; the turn goes on (docs/decisions/0008-three-channels-of-a-reply.md).
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
