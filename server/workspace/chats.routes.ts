import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ChatPageDto,
  ChatPageQuery,
  ChatSearchQuery,
  ChatSummaryDto,
  CreateChatBody,
  CreatedChatDto,
  DeletedChatDto,
  ExportQuery,
  IdParams,
  ModuleQuery,
  SearchHitDto,
} from '@contract/chats';
import { requireUserId } from '../accounts/sessions';
import { originOf, recordAudit } from '../audit/audit';
import { contentDisposition } from '../lib/content-disposition';
import { ChatListCache } from './turns/chat-list-cache';
import { orEmpty } from './route-schemas';
import {
  createChat,
  deleteChat,
  exportChat,
  listChatsPage,
  recentChatsJson,
  RecentChatsDto,
  searchChats,
  sweepChats,
  undoDeleteChat,
} from './chats.service';

/**
 * The caller's chats: the Recent list of a module (GET /api/chats?module=), every chat a page at
 * a time (GET /api/chats/all), search, a new chat, delete with undo, export. Everything inside
 * one chat lives in conversation.routes.ts and files.routes.ts.
 */
export const chatsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { clock } = app.deps;
  const db = app.deps.database.db;
  const lists = await ChatListCache.start({ bus: app.deps.bus, clock });
  app.addHook('onClose', () => lists.close());

  // The answer is JSON text checked against RecentChatsDto when it was read (recentChatsJson):
  // Fastify sends a string as it is, so it is not checked and serialised again on every request.
  const recent = { querystring: ModuleQuery, response: { 200: RecentChatsDto } };
  app.get('/chats', { schema: recent }, async (req, reply) => {
    const userId = requireUserId(req);
    await sweepChats(db, clock);
    const json = await recentChatsJson(db, lists, userId, req.query.module);
    // Typed as the array the schema describes: the text is that array, serialised already.
    return reply
      .type('application/json; charset=utf-8')
      .send(json as unknown as z.infer<typeof RecentChatsDto>);
  });

  const page = { querystring: ChatPageQuery, response: { 200: ChatPageDto } };
  app.get('/chats/all', { schema: page }, async (req) => {
    const userId = requireUserId(req);
    await sweepChats(db, clock);
    return listChatsPage(db, userId, req.query);
  });

  const search = { querystring: ChatSearchQuery, response: { 200: z.array(SearchHitDto) } };
  app.get('/chats/search', { schema: search }, async (req) => {
    const userId = requireUserId(req);
    return searchChats(db, userId, req.query.q, req.query.limit);
  });

  // No body at all reads as an empty one: its answer names the missing title.
  const create = { body: orEmpty(CreateChatBody), response: { 201: CreatedChatDto } };
  app.post(
    '/chats',
    {
      schema: create,
    },
    async (req, reply) => {
      const userId = requireUserId(req);
      const chat = await createChat(db, clock, userId, req.body);
      return reply.status(201).send(chat);
    },
  );

  const remove = { params: IdParams, response: { 200: DeletedChatDto } };
  app.delete('/chats/:id', { schema: remove }, async (req) => {
    const userId = requireUserId(req);
    const answer = await deleteChat({ db, clock, turns: app.turns }, userId, req.params.id);
    await recordAudit(db, clock, {
      ...originOf(req),
      action: 'chat_deleted',
      actorId: userId,
      target: `chat ${req.params.id}`,
    });
    return answer;
  });

  const restore = { params: IdParams, response: { 200: ChatSummaryDto } };
  app.post('/chats/:id/restore', { schema: restore }, async (req) => {
    const userId = requireUserId(req);
    return undoDeleteChat(db, clock, userId, req.params.id);
  });

  // A file download (Markdown or JSON bytes): only its input has a schema.
  const exported = { params: IdParams, querystring: ExportQuery };
  app.get('/chats/:id/export', { schema: exported }, async (req, reply) => {
    const userId = requireUserId(req);
    const file = await exportChat(db, userId, req.params.id, req.query.format);
    await recordAudit(db, clock, {
      ...originOf(req),
      action: 'chat_exported',
      actorId: userId,
      target: `chat ${req.params.id}`,
      detail: `as ${req.query.format}`,
    });
    return reply
      .header('Content-Type', file.contentType)
      .header('Content-Disposition', contentDisposition(file.fileName))
      .header('Cache-Control', 'private, no-store')
      .send(file.body);
  });
};
