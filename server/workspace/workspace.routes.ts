import type { FastifyPluginAsync } from 'fastify';

/** Workspace API: starters, chats, messages, attachments, saved files. */
export const workspaceRoutes: FastifyPluginAsync = async () => {};
