import { createServer, type Server } from 'node:http';

// The stand-in servers the tests talk to (model endpoints, identity providers) listen on the
// loopback interface and are closed at once, open keep-alive sockets included.

/** Listens on 127.0.0.1 at `port` (0: a free one) and resolves to the port it got. */
export async function listenLocal(server: Server, port = 0): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on TCP');
  return address.port;
}

/** Stops listening and drops every open connection, so no client keeps a pooled socket. */
export function closeNow(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/** A free local port (taken and released: whoever needs it listens on it next). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  const port = await listenLocal(probe);
  await closeNow(probe);
  return port;
}
