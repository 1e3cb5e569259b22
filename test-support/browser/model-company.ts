import { addCompany } from '../../server/admin/companies';
import { DEFAULT_APPROVED_DOMAINS } from '../../server/config';
import { seedDatabase } from '../../server/seed/seed';
import { startOpenAiFixture, type OpenAiFixture } from '../openai-fixture';
import { disposeServer, type RunningServer } from './harness';
import { startPreparedServer } from './support';

export interface ModelCompanyServer {
  model: OpenAiFixture;
  server: RunningServer;
  /** The model id the company's module asks the fake model server for. */
  modelId: string;
  /** The API key the server sends the fake model server. */
  apiKey: string;
  dispose(): Promise<void>;
}

/**
 * The real server with a company at `domain` whose module (Talent Intelligence unless `uses`
 * says otherwise) runs on the local fake model server (`openai:<name>-model`): browser tests
 * that script what a model writes. The company is set up as an operator does it, on the
 * server's database before the server starts, and is the test's own.
 */
export async function startModelCompanyServer(
  name: string,
  domain: string,
  uses: 'talentIntelligenceModel' | 'governanceModel' = 'talentIntelligenceModel',
): Promise<ModelCompanyServer> {
  const model = await startOpenAiFixture();
  const modelId = `${name}-model`;
  const apiKey = `sk-e2e-${name}`;
  const { server } = await startPreparedServer(
    async (db) => {
      await seedDatabase(db);
      await addCompany(db, {
        name: `${name} ${domain}`,
        emailDomains: [domain],
        [uses]: `openai:${modelId}`,
      });
    },
    {
      OPENAI_BASE_URL: model.baseUrl,
      OPENAI_API_KEY: apiKey,
      APPROVED_EMAIL_DOMAINS: [...DEFAULT_APPROVED_DOMAINS, domain].join(','),
    },
  );
  return {
    model,
    server,
    modelId,
    apiKey,
    dispose: async () => {
      await disposeServer(server);
      await model.close();
    },
  };
}
