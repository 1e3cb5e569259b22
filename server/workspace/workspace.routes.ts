import type { FastifyPluginAsync } from 'fastify';
import { chatsRoutes } from './chats.routes';
import { conversationRoutes } from './conversation.routes';
import { filesRoutes } from './files.routes';
import { startersRoutes } from './starters.routes';

/** Workspace API: starters, chats, messages, attachments, saved files. */
export const workspaceRoutes: FastifyPluginAsync = async (app) => {
  await app.register(startersRoutes);
  await app.register(chatsRoutes);
  await app.register(conversationRoutes);
  await app.register(filesRoutes);
};
