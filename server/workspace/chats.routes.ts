import type { FastifyPluginAsync } from 'fastify';
import {
  ChatPageQuery,
  ChatSearchQuery,
  CreateChatBody,
  ExportQuery,
  ModuleQuery,
  type ChatPageDto,
  type ChatSummaryDto,
  type DeletedChatDto,
  type SearchHitDto,
} from '@contract/chats';
import { requireUserId } from '../accounts/sessions';
import { parse } from '../lib/validate';
import {
  createChat,
  deleteChat,
  exportChat,
  listChats,
  listChatsPage,
  searchChats,
  sweepChats,
  undoDeleteChat,
} from './chats.service';

/**
 * The caller's chats: the Recent list of a module (GET /api/chats?module=), every chat a page at
 * a time (GET /api/chats/all), search, a new chat, delete with undo, export. Everything inside
 * one chat lives in conversation.routes.ts and files.routes.ts.
 */
export const chatsRoutes: FastifyPluginAsync = async (app) => {
  const { clock } = app.deps;
  const db = app.deps.database.db;

  app.get('/chats', async (req): Promise<ChatSummaryDto[]> => {
    const userId = requireUserId(req);
    const { module } = parse(ModuleQuery, req.query);
    await sweepChats(db, clock);
    return listChats(db, userId, module);
  });

  app.get('/chats/all', async (req): Promise<ChatPageDto> => {
    const userId = requireUserId(req);
    const query = parse(ChatPageQuery, req.query);
    await sweepChats(db, clock);
    return listChatsPage(db, userId, query);
  });

  app.get('/chats/search', async (req): Promise<SearchHitDto[]> => {
    const userId = requireUserId(req);
    const { q, limit } = parse(ChatSearchQuery, req.query);
    return searchChats(db, userId, q, limit);
  });

  app.post('/chats', async (req, reply) => {
    const userId = requireUserId(req);
    const body = parse(CreateChatBody, req.body ?? {});
    const chat = await createChat(db, clock, userId, body);
    return reply.status(201).send(chat);
  });

  app.delete<{ Params: { id: string } }>('/chats/:id', async (req): Promise<DeletedChatDto> => {
    const userId = requireUserId(req);
    return deleteChat({ db, clock, turns: app.turns }, userId, req.params.id);
  });

  app.post<{ Params: { id: string } }>(
    '/chats/:id/restore',
    async (req): Promise<ChatSummaryDto> => {
      const userId = requireUserId(req);
      return undoDeleteChat(db, clock, userId, req.params.id);
    },
  );

  app.get<{ Params: { id: string } }>('/chats/:id/export', async (req, reply) => {
    const userId = requireUserId(req);
    const { format } = parse(ExportQuery, req.query);
    const file = await exportChat(db, userId, req.params.id, format);
    return reply
      .header('Content-Type', file.contentType)
      .header(
        'Content-Disposition',
        `attachment; filename="${file.fileName}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
      )
      .header('Cache-Control', 'private, no-store')
      .send(file.body);
  });
};
