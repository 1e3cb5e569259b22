import type { FastifyPluginAsync } from 'fastify';

/** Placeholder: filled by its issue. */
export const startersRoutes: FastifyPluginAsync = async () => {};
