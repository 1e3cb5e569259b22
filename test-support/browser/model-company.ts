import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { addCompany } from '../../server/admin/companies';
import { DEFAULT_APPROVED_DOMAINS } from '../../server/config';
import { connectDatabase } from '../../server/db/connect';
import { seedDatabase } from '../../server/seed/seed';
import { startOpenAiFixture, type OpenAiFixture } from '../openai-fixture';
import { disposeServer, startServer, type RunningServer } from './harness';

export interface ModelCompanyServer {
  model: OpenAiFixture;
  server: RunningServer;
  dispose(): Promise<void>;
}

/**
 * The real server with a company at `domain` whose Talent Intelligence model is the local fake
 * model server (`openai:<name>`): browser tests that script what a model writes.
 */
export async function startModelCompanyServer(
  name: string,
  domain: string,
): Promise<ModelCompanyServer> {
  const model = await startOpenAiFixture();
  const dataDir = mkdtempSync(path.join(tmpdir(), `atrium-e2e-${name}-`));
  const database = await connectDatabase({
    databaseUrl: inject('testDatabaseUrl') ?? undefined,
    pgliteDir: path.join(dataDir, 'pglite'),
  });
  try {
    await seedDatabase(database.db);
    await addCompany(database.db, {
      name: `${name} ${domain}`,
      emailDomains: [domain],
      talentIntelligenceModel: `openai:${name}-model`,
    });
  } finally {
    await database.close();
  }
  const server = await startServer({
    DATA_DIR: dataDir,
    OPENAI_BASE_URL: model.baseUrl,
    OPENAI_API_KEY: `sk-e2e-${name}`,
    APPROVED_EMAIL_DOMAINS: [...DEFAULT_APPROVED_DOMAINS, domain].join(','),
  });
  return {
    model,
    server,
    dispose: async () => {
      await disposeServer(server);
      await model.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
