import type { FastifyPluginAsync } from 'fastify';

/** Placeholder: filled by its issue. */
export const filesRoutes: FastifyPluginAsync = async () => {};
