import type { FastifyPluginAsync } from 'fastify';

/** Accounts API (spec section 7): filled by the accounts issue. */
export const accountsRoutes: FastifyPluginAsync = async () => {};
