import type { FastifyPluginAsync } from 'fastify';

/** The /ws hub: filled by the chat workspace issue. */
export const realtimeRoutes: FastifyPluginAsync = async () => {};
