import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { ErrorBody } from '@contract/errors';

export interface ClientAppOptions {
  /** Where the built SPA lives (index.html and assets/). */
  clientDir: string;
}

/**
 * The built SPA: its files, and index.html for every other GET that is not an API path (the
 * client's routes). Also the answer to every unknown route, so it is registered at the root.
 */
const clientAppPlugin: FastifyPluginAsync<ClientAppOptions> = async (app, { clientDir }) => {
  const hasClient = existsSync(path.join(clientDir, 'index.html'));
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each asset (vite.config.ts): brotli when the browser
      // takes it, else gzip, else the file itself; Vary: Accept-Encoding keeps caches apart.
      preCompressed: true,
      // Source maps stay on the server (they would publish the source): a .map is not found.
      allowedPath: (pathName) => !pathName.endsWith('.map'),
      // Hashed assets are immutable; index.html is always revalidated.
      setHeaders: (res, filePath) => {
        res.header(
          'Cache-Control',
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
  }

  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api/') || req.url === '/api' || req.method !== 'GET') {
      return reply
        .status(404)
        .send({ message: 'Not found', code: 'NOT_FOUND' } satisfies ErrorBody);
    }
    // A built file that is not there (a tab open across a deploy asking for an old chunk): 404,
    // never the app's HTML, which the browser would run as JavaScript and fail on obscurely. The
    // client offers a reload when a chunk fails to load.
    if (req.url.startsWith('/assets/')) {
      return reply
        .status(404)
        .header('Cache-Control', 'no-cache')
        .type('text/plain')
        .send('Not found');
    }
    // History fallback: every other path is a client route.
    if (!hasClient) {
      return reply
        .status(503)
        .type('text/plain')
        .send('The web client is not built yet: run `npm run build` (npm start does it for you).');
    }
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  });
};

export const clientApp = fp(clientAppPlugin, { name: 'client-app' });
