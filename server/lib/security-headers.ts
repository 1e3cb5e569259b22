import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's security headers on every answer, from one middleware built at start-up.
 * @fastify/helmet builds helmet's middleware again for every request (re-parsing the CSP each
 * time: 8% of the CPU of a cached API read); our headers depend on the config only, so one
 * instance serves every request.
 */
const securityHeadersPlugin: FastifyPluginAsync<HelmetOptions> = async (app, options) => {
  const middleware = helmet(options);
  app.addHook('onRequest', (req, reply, done) => {
    middleware(req.raw, reply.raw, (err?: unknown) => done(err as Error | undefined));
  });
};

export const securityHeaders = fp(securityHeadersPlugin, { name: 'security-headers' });
