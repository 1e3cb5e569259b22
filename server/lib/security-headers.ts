import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers helmet sets for these options, read once by running its middleware against a
 * recording response. Ours depend on the config only (no CSP nonces), so every answer gets the
 * same set.
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let done = false;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error(String(err));
    done = true;
  });
  // Helmet's middlewares are synchronous today; one that is not would leave headers unread.
  if (!done) throw new Error('helmet did not finish synchronously');
  return headers;
}

/**
 * Helmet's security headers on every answer. They are worked out once at start-up and added to
 * Fastify's own headers: helmet's middleware per request set each one on the raw response, which
 * also sent every other header down Node's slow path (a tenth of a cached API read's CPU).
 */
const securityHeadersPlugin: FastifyPluginAsync<HelmetOptions> = async (app, options) => {
  const headers = helmetHeaders(options);
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
};

export const securityHeaders = fp(securityHeadersPlugin, { name: 'security-headers' });
