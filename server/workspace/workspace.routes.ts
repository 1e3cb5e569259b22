import type { FastifyPluginAsync } from 'fastify';
import { requireUserId } from '../accounts/sessions';
import { chatsRoutes } from './chats.routes';
import { conversationRoutes } from './conversation.routes';
import { filesRoutes } from './files.routes';
import { readingsRoutes } from './readings.routes';
import { startersRoutes } from './starters.routes';

/** Workspace API: starters, chats, messages, attachments, saved files. */
export const workspaceRoutes: FastifyPluginAsync = async (app) => {
  // Every workspace call is for a signed-in user: a signed-out caller gets its 401 before the
  // route's schema looks at its payload (as when routes parsed it themselves).
  // Synchronous: Fastify's hook runner turns a throw into the 401 (no promise per request).
  app.addHook('preValidation', (req, _reply, done) => {
    requireUserId(req);
    done();
  });
  await app.register(startersRoutes);
  await app.register(chatsRoutes);
  await app.register(conversationRoutes);
  await app.register(filesRoutes);
  await app.register(readingsRoutes);
};
