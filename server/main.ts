import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config';
import { assertCompanyModels } from './analyst/registry';
import { companies } from './db/schema';
import { connectDatabase } from './db/connect';
import { systemClock } from './lib/clock';
import { createLogger } from './lib/logging';
import { seedDatabase } from './seed/seed';
import { closeToolPool, configureToolPool } from './analyst/tools/runner';

/** The built web client: dist/client, seen from server/main.ts (tsx) or dist/server/main.js (built). */
const builtClientDir = fileURLToPath(
  new URL(import.meta.url.endsWith('.ts') ? '../dist/client' : '../client', import.meta.url),
);

/** config -> database -> app -> listen; SIGTERM/SIGINT drain and close everything. */
async function main(): Promise<void> {
  const config = loadConfig();
  configureToolPool(config);
  const log = createLogger({ level: config.logLevel });
  // The HTTP side (most of the code and of the packages) loads while the database connects,
  // migrates and seeds: the disk and the database are waited on at the same time.
  const parts = Promise.all([
    import('./app'),
    import('./realtime/create-bus'),
    import('./mail/mailer'),
  ]);
  parts.catch(() => undefined); // a failure is reported where it is awaited

  const database = await connectDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'pglite'),
    // Processes sharing a database must share a bus too, or they close each other's replies.
    busLock: config.redisUrl ? 'shared' : 'exclusive',
    // The library's vectors (ADR 0026): pgvector where the database has it.
    vectors: Boolean(config.embeddings),
  });
  const seeded = await seedDatabase(database.db, config.approvedEmailDomains);
  if (seeded.companies || seeded.starters) log.info(seeded, 'seed data loaded');
  if (seeded.unownedDomains.length)
    log.warn(
      { domains: seeded.unownedDomains },
      'APPROVED_EMAIL_DOMAINS lists domains no seed company owns: give them to a company (npm run admin -- companies update <company> --domains ...) so their people can sign up',
    );
  // A company model with an unknown provider is a configuration error: refuse to start.
  assertCompanyModels(await database.db.select().from(companies), config);

  const [{ buildApp }, { createBus }, { consoleMailer, smtpMailer }] = await parts;
  const bus = await createBus(config.redisUrl, undefined, (down) => {
    if (down)
      log.warn('Redis does not answer: running on the in-process fallback until it is back');
    else log.info('Redis answers again');
  });
  const mailer = config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : consoleMailer(log);
  const app = await buildApp({
    config,
    database,
    bus,
    mailer,
    clock: systemClock,
    logger: log,
    clientDir: config.clientDir ?? builtClientDir,
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal, graceSeconds: config.shutdownGraceMs / 1000 }, 'shutting down');
    // A drain that hangs past the replies' grace (plus time to save them) must not keep the
    // process alive: that exit is a failure, and says so with its code.
    const force = setTimeout(() => {
      log.error('shutdown did not finish in time');
      process.exit(1);
    }, config.shutdownGraceMs + 15_000);
    force.unref();
    try {
      // Stops taking requests (503), lets replies finish or closes them as interrupted with their
      // text saved, closes sockets with 1001, then the rest.
      await app.close();
      await Promise.allSettled([bus.close(), mailer.close(), closeToolPool()]);
      await database.close();
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  log.info(
    {
      url: config.appUrl,
      database: database.kind,
      bus: bus.kind,
      mail: mailer.kind,
    },
    `Atrium is ready at ${config.appUrl}`,
  );
}

main().catch((err: unknown) => {
  // A bad configuration is explained in one line, without a stack trace.
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  process.stderr.write(
    `Atrium failed to start: ${err instanceof Error ? err.message : String(err)}\n`,
  );
  process.exit(1);
});
