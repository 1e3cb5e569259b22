import type { FastifyPluginAsync } from 'fastify';
import { CreateChatBody, ModuleQuery, type ChatSummaryDto } from '@contract/chats';
import { requireUserId } from '../accounts/sessions';
import { parse } from '../lib/validate';
import { createChat, listChats } from './chats.service';

/**
 * GET /api/chats?module= (the caller's chats in a module) and POST /api/chats (a new chat).
 * Everything under one chat lives in conversation.routes.ts and files.routes.ts.
 */
export const chatsRoutes: FastifyPluginAsync = async (app) => {
  app.get('/chats', async (req): Promise<ChatSummaryDto[]> => {
    const userId = requireUserId(req);
    const { module } = parse(ModuleQuery, req.query);
    return listChats(app.deps.database.db, userId, module);
  });

  app.post('/chats', async (req, reply) => {
    const userId = requireUserId(req);
    const body = parse(CreateChatBody, req.body ?? {});
    const chat = await createChat(app.deps.database.db, userId, body);
    return reply.status(201).send(chat);
  });
};
