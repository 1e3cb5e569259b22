import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import {
  startOpenAiFixture,
  textReply,
  type OpenAiFixture,
} from '../../test-support/openai-fixture';
import { agentFor, assertCompanyModels, registerProvider, validateModelString } from './registry';
import { runTurn, userMessage } from '../../test-support/analyst/turns';
import { AgentError, type Agent } from './types';

let server: OpenAiFixture;
beforeAll(async () => {
  server = await startOpenAiFixture();
});
afterAll(() => server.close());

const config = (env: Record<string, string> = {}) =>
  loadConfig({ SESSION_SECRET: 'x'.repeat(32), ...env });

describe('model strings', () => {
  it.each([
    ['builtin', null],
    ['openai:gpt-4.1-mini', null],
    ['openai:meta-llama/Llama-3.1-8B-Instruct', null],
    ['openai:qwen2.5:7b', null],
    ['', 'The model is empty: use builtin or openai:<model>.'],
    [
      'claude:opus',
      'Unknown model provider "claude" in "claude:opus": use builtin or openai:<model>.',
    ],
    ['gpt-4', 'Unknown model provider "gpt-4" in "gpt-4": use builtin or openai:<model>.'],
    [
      'openai:',
      'Invalid model "openai:": Model must be "builtin" or "<provider>:<model>", e.g. openai:gpt-4.1-mini.',
    ],
    ['builtin:fast', 'The builtin provider takes no model name: use "builtin".'],
    [
      'openai:bad model',
      'Invalid model "openai:bad model": Model must be "builtin" or "<provider>:<model>", e.g. openai:gpt-4.1-mini.',
    ],
    [
      'azure-eu:gpt-4o',
      'Unknown model provider "azure-eu" in "azure-eu:gpt-4o": use builtin or openai:<model>.',
    ],
  ])('%s', (model, problem) => {
    expect(validateModelString(model)).toBe(problem);
  });

  it('agentFor throws a configuration error for an unknown provider', () => {
    expect(() => agentFor('claude:opus', config())).toThrow(ConfigError);
  });

  it('agentFor openai without OPENAI_BASE_URL fails at turn time, not at start-up', async () => {
    const agent = agentFor('openai:gpt-4.1-mini', config());
    await expect(runTurn(agent, 'governance', [userMessage('Hi')])).rejects.toThrow(
      new AgentError('The openai provider is not configured: set OPENAI_BASE_URL'),
    );
  });

  it('assertCompanyModels lists every bad company model', () => {
    const ok = {
      name: 'Contoso',
      brandHubModel: 'builtin',
      governanceModel: 'openai:gpt-4.1-mini',
      talentIntelligenceModel: 'builtin',
    };
    expect(() => assertCompanyModels([ok])).not.toThrow();
    expect(() =>
      assertCompanyModels([
        ok,
        { ...ok, name: 'Fabrikam', governanceModel: 'gemini:pro', brandHubModel: '' },
      ]),
    ).toThrow(
      'Invalid company model configuration: company "Fabrikam", Brand Hub model: The model is empty: use builtin or openai:<model>.; company "Fabrikam", Governance model: Unknown model provider "gemini" in "gemini:pro": use builtin or openai:<model>.',
    );
  });

  it('registerProvider adds a provider through the same seam, and removes it again', async () => {
    const fake: Agent = {
      async *run() {
        yield { type: 'text', delta: 'hi' };
        yield { type: 'final', text: 'hi', report: null };
      },
    };
    const remove = registerProvider('fake', (modelId) => {
      expect(modelId).toBe('slow');
      return fake;
    });
    expect(validateModelString('fake:slow')).toBeNull();
    expect(agentFor('fake:slow', config())).toBe(fake);
    remove();
    expect(validateModelString('fake:slow')).toMatch(/Unknown model provider "fake"/);
  });
});

describe('named providers (MODEL_PROVIDERS)', () => {
  it('reads name=url[,KEY_VARIABLE] entries, the key from the variable named', () => {
    const cfg = config({
      MODEL_PROVIDERS:
        'azure-eu=https://eu.example.com/openai/v1/,AZURE_EU_KEY; ollama-lab=http://10.0.0.5:11434/v1',
      AZURE_EU_KEY: 'sk-azure',
    });
    expect(cfg.modelProviders).toEqual([
      {
        name: 'azure-eu',
        baseUrl: 'https://eu.example.com/openai/v1',
        apiKeyEnv: 'AZURE_EU_KEY',
        apiKey: 'sk-azure',
      },
      {
        name: 'ollama-lab',
        baseUrl: 'http://10.0.0.5:11434/v1',
        apiKeyEnv: undefined,
        apiKey: undefined,
      },
    ]);
    expect(validateModelString('azure-eu:gpt-4o', cfg)).toBeNull();
    expect(validateModelString('ollama-lab:llama3.1:8b', cfg)).toBeNull();
    expect(validateModelString('azure-us:gpt-4o', cfg)).toBe(
      'Unknown model provider "azure-us" in "azure-us:gpt-4o": use builtin or openai:<model> or azure-eu:<model> or ollama-lab:<model>.',
    );
  });

  it.each([
    ['lab', 'entry "lab" must read name=https://host/v1 or name=https://host/v1,KEY_VARIABLE'],
    ['openai=http://x/v1', 'cannot name a provider "openai" (reserved)'],
    ['a=http://x/v1;a=http://y/v1', 'names "a" twice'],
    ['a=ftp://x/v1', 'gives "a" a base URL that is not http:// or https://'],
    [
      'a=http://x/v1,MISSING_KEY',
      'names MISSING_KEY as the key of "a", but MISSING_KEY is not set',
    ],
  ])('refuses MODEL_PROVIDERS=%s', (value, why) => {
    expect(() => config({ MODEL_PROVIDERS: value })).toThrow(
      `Invalid configuration: MODEL_PROVIDERS ${why} (got ${JSON.stringify(value)})`,
    );
  });

  it('points two companies at two model servers, each with its own key', async () => {
    const other = await startOpenAiFixture();
    try {
      const cfg = config({
        OPENAI_BASE_URL: server.baseUrl,
        OPENAI_API_KEY: 'sk-openai',
        MODEL_PROVIDERS: `lab=${other.baseUrl},LAB_KEY`,
        LAB_KEY: 'sk-lab',
      });
      assertCompanyModels(
        [
          {
            name: 'A',
            brandHubModel: 'openai:m1',
            governanceModel: 'builtin',
            talentIntelligenceModel: 'builtin',
          },
          {
            name: 'B',
            brandHubModel: 'lab:m2',
            governanceModel: 'builtin',
            talentIntelligenceModel: 'builtin',
          },
        ],
        cfg,
      );
      const answer = { task_name: 'T', content: [{ type: 'text', text: 'x' }], next_steps: [] };
      server.enqueue(textReply(JSON.stringify(answer)));
      other.enqueue(textReply(JSON.stringify(answer)));
      await runTurn(agentFor('openai:m1', cfg), 'brand-hub', [userMessage('Hi')]);
      await runTurn(agentFor('lab:m2', cfg), 'brand-hub', [userMessage('Hi')]);
      expect(server.requests.at(-1)!.body.model).toBe('m1');
      expect(server.requests.at(-1)!.headers.authorization).toBe('Bearer sk-openai');
      expect(other.requests).toHaveLength(1);
      expect(other.requests[0]!.body.model).toBe('m2');
      expect(other.requests[0]!.headers.authorization).toBe('Bearer sk-lab');
    } finally {
      server.requests.length = 0;
      await other.close();
    }
  });
});

describe('routing by company model', () => {
  // Two companies with different models per module; the runtime looks up the company's field for the chat's module.
  const northwind = {
    name: 'Northwind',
    brandHubModel: 'builtin',
    governanceModel: 'openai:gov-model',
    talentIntelligenceModel: 'builtin',
  };
  const contoso = {
    name: 'Contoso',
    brandHubModel: 'openai:brand-model',
    governanceModel: 'builtin',
    talentIntelligenceModel: 'openai:ti-model',
  };

  it('runs each module on the model of the company', async () => {
    const cfg = config({ OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'k' });
    assertCompanyModels([northwind, contoso]);
    const answer = {
      task_name: 'From the model',
      content: [{ type: 'text', text: 'model answer' }],
      next_steps: [],
    };

    const builtinTurn = await runTurn(
      agentFor(northwind.talentIntelligenceModel, cfg),
      'talent-intelligence',
      [userMessage('Help')],
    );
    expect(builtinTurn.report.task_name).toMatch(/data needed/);
    expect(server.requests).toHaveLength(0);

    server.enqueue(textReply(JSON.stringify(answer)));
    const modelTurn = await runTurn(
      agentFor(contoso.talentIntelligenceModel, cfg),
      'talent-intelligence',
      [userMessage('Help')],
    );
    expect(modelTurn.report).toEqual(answer);
    expect(server.requests.at(-1)!.body.model).toBe('ti-model');

    server.enqueue(textReply(JSON.stringify(answer)));
    await runTurn(agentFor(northwind.governanceModel, cfg), 'governance', [userMessage('Help')]);
    expect(server.requests.at(-1)!.body.model).toBe('gov-model');

    const contosoGovernance = await runTurn(agentFor(contoso.governanceModel, cfg), 'governance', [
      userMessage('Help'),
    ]);
    // Contoso's Governance runs the builtin analyst: a report of its own, nothing sent upstream.
    expect(contosoGovernance.report.task_name).not.toBe(answer.task_name);
    expect(contosoGovernance.report.next_steps.length).toBeGreaterThan(0);
    expect(server.requests).toHaveLength(2);
  });
});
