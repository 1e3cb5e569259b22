import { addCompany } from '../../server/admin/companies';
import { DEFAULT_APPROVED_DOMAINS } from '../../server/config';
import { seedDatabase } from '../../server/seed/seed';
import { startOpenAiFixture, type OpenAiFixture } from '../openai-fixture';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { disposeServer, type RunningServer } from './harness';
import { launchBrowser } from './chromium';
import {
  signUpThroughApi,
  started,
  startPreparedServer,
  uniqueE2eEmail,
  type ServerAndBrowser,
  type SessionCookie,
  type SignedUpUser,
  type SignUpDetails,
} from './support';

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

export interface ModelCompanyTest extends ServerAndBrowser {
  readonly model: OpenAiFixture;
  readonly modelId: string;
  readonly apiKey: string;
  /** The person of the company every test of the block acts as. */
  readonly user: SignedUpUser;
  readonly cookie: SessionCookie;
}

/**
 * For the surrounding describe block: startModelCompanyServer, a Chromium, and `person` signed
 * up at the company (at an address of its own at `domain` unless given), all disposed of after
 * it. Read the fields inside hooks and tests: they exist once beforeAll ran.
 */
export function useModelCompany(
  name: string,
  domain: string,
  person: SignUpDetails,
  uses?: 'talentIntelligenceModel' | 'governanceModel',
): ModelCompanyTest {
  let company: ModelCompanyServer | undefined;
  let browser: Browser | undefined;
  let user: SignedUpUser | undefined;
  beforeAll(async () => {
    company = await startModelCompanyServer(name, domain, uses);
    browser = await launchBrowser();
    user = await signUpThroughApi(company.server, {
      ...person,
      email: person.email ?? uniqueE2eEmail(name, domain),
    });
  });
  afterAll(async () => {
    await browser?.close();
    await company?.dispose();
  });
  return {
    get model() {
      return started(company, 'model company').model;
    },
    get server() {
      return started(company, 'model company').server;
    },
    get modelId() {
      return started(company, 'model company').modelId;
    },
    get apiKey() {
      return started(company, 'model company').apiKey;
    },
    get browser() {
      return started(browser, 'browser');
    },
    get user() {
      return started(user, 'user');
    },
    get cookie() {
      return started(user, 'user').cookie;
    },
  };
}
