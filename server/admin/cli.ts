import path from 'node:path';
import { ConfigError, loadConfig, namedSecret } from '../config';
import { DatabaseInUseError, connectDatabase } from '../db/connect';
import { seedDatabase } from '../seed/seed';
import { openAiEmbedder } from '../library/embeddings';
import { runAdmin } from './commands';

/** `npm run admin -- <command>`: the operator's command line, on the server's own database. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  if (!config.databaseUrl && (await embeddedServerRunning(config.port))) {
    process.stderr.write(
      `error: Atrium is running on port ${config.port} with the embedded database in ${config.dataDir}.\n` +
        'The embedded database (PGlite) takes one process at a time: stop the server, run the admin\n' +
        'command, then start it again (or run both on PostgreSQL with DATABASE_URL).\n',
    );
    process.exit(1);
  }
  // Same database as server/main.ts: PostgreSQL at DATABASE_URL, or PGlite in DATA_DIR.
  const database = await connectDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'pglite'),
  });
  let code: number;
  try {
    // Seed first, as the server does on start: an edit made before the first start must not
    // leave the table non-empty and so keep the seed from ever loading.
    await seedDatabase(database.db, config.approvedEmailDomains);
    code = await runAdmin(process.argv.slice(2), {
      db: database.db,
      database,
      models: config,
      secrets: { key: config.secretsKey, fromEnv: (name) => namedSecret(name) },
      appUrl: config.appUrl,
      libraryQuotaBytes: config.libraryQuotaBytes,
      ...(config.embeddings ? { embedder: openAiEmbedder(config.embeddings) } : {}),
      out: (t) => process.stdout.write(`${t}\n`),
      err: (t) => process.stderr.write(`${t}\n`),
    });
  } finally {
    await database.close();
  }
  process.exit(code);
}

/**
 * Whether an Atrium server on this machine's PORT answers with an embedded database: opening the
 * same PGlite directory from a second process could corrupt it.
 */
async function embeddedServerRunning(port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/health`, {
      signal: AbortSignal.timeout(1_000),
    });
    const body = (await res.json()) as { database?: { kind?: string } };
    return body.database?.kind === 'pglite';
  } catch {
    return false;
  }
}

main().catch((err: unknown) => {
  // Said as it is: the lock names what to do.
  if (err instanceof DatabaseInUseError) {
    process.stderr.write(`error: ${err.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`admin failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
