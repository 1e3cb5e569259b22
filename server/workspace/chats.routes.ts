import type { FastifyPluginAsync } from 'fastify';

/** Placeholder: filled by its issue. */
export const chatsRoutes: FastifyPluginAsync = async () => {};
