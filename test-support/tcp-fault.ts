import net, { type AddressInfo, type Socket } from 'node:net';

/**
 * A TCP hop in front of a real service (PostgreSQL, Redis, SMTP) that a test can make misbehave the
 * way networks do: `hang()` keeps every connection open but carries no byte either way (a peer
 * that accepts and never answers), `refuse()` closes the port, `heal()` carries traffic again.
 * With no target it is a peer that accepts and never answers from the start.
 */
export class TcpFault {
  private server: net.Server | null = null;
  private readonly sockets = new Set<Socket>();
  private hanging: boolean;
  port = 0;

  constructor(
    private readonly target: { host: string; port: number } | null,
    opts: { hanging?: boolean } = {},
  ) {
    this.hanging = opts.hanging ?? target === null;
  }

  async start(port = 0): Promise<this> {
    const server = net.createServer((client) => this.accept(client));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    return this;
  }

  private accept(client: Socket): void {
    this.sockets.add(client);
    client.on('close', () => this.sockets.delete(client));
    client.on('error', () => undefined);
    if (this.hanging || !this.target) {
      client.pause();
      return;
    }
    const upstream = net.connect(this.target.port, this.target.host);
    this.sockets.add(upstream);
    upstream.on('close', () => {
      this.sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.on('data', (d) => {
      if (!this.hanging) upstream.write(d);
    });
    upstream.on('data', (d) => {
      if (!this.hanging) client.write(d);
    });
  }

  /** Connections stay open, bytes are dropped: the service "accepts and never answers". */
  hang(): void {
    this.hanging = true;
  }

  /** Traffic flows again on new connections (old ones lost bytes: their owners must reconnect). */
  heal(): void {
    this.hanging = false;
    for (const s of this.sockets) s.destroy();
  }

  /** The port is closed: connecting is refused. */
  async refuse(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
    this.server = null;
  }

  async stop(): Promise<void> {
    await this.refuse();
  }
}
