import { MODEL_STRING_MAX, ModelString } from '@contract/models';
import type { Config, NamedModelProvider } from '../config';
import { ConfigError } from '../config';
import type { EndpointOptions } from './providers/endpoint';
import type { Agent } from './types';

/**
 * Model routing. A company's model string names a provider and, after a colon, the provider's
 * model: `builtin`, `openai:gpt-4.1-mini`, or `<name>:<model>` for an endpoint the operator
 * named in MODEL_PROVIDERS (ARCHITECTURE.md section 5).
 */

/** What routing needs of the configuration: the OpenAI endpoint, the named ones, the limits. */
export type ModelConfig = Pick<
  Config,
  | 'openaiBaseUrl'
  | 'openaiApiKey'
  | 'modelProviders'
  | 'modelFirstTokenTimeoutMs'
  | 'modelIdleTimeoutMs'
  | 'modelMaxOutputTokens'
>;

/**
 * The agent of a company's model string: what the app is handed as its providers (buildApp's
 * `agentFor`; docs/decisions/0005-providers-handed-to-the-app.md). `agentFor` below is the product's.
 */
export type AgentFor = (model: string, config: Config) => Agent;

/** Makes the agent of one model id (the part after the colon; '' for `builtin`). */
export type ProviderFactory = (modelId: string, config: Config) => Agent;

/**
 * An agent whose provider module loads on its first turn: the model stack (AI SDK, the builtin
 * analyst's language and spreadsheet libraries) costs start-up time and memory an idle server
 * does not need.
 */
function lazyAgent(load: () => Promise<Agent>): Agent {
  return {
    async *run(input) {
      yield* (await load()).run(input);
    },
  };
}

const providers = new Map<string, ProviderFactory>([
  ['builtin', () => lazyAgent(async () => (await import('./providers/builtin')).builtinAgent())],
  ['openai', (modelId, config) => endpointAgent(modelId, endpointOf('openai', config)!, config)],
]);

/** Providers whose model string has no model part. */
const WITHOUT_MODEL = new Set(['builtin']);

const MODEL_ID = /^[A-Za-z0-9][\w.:/@+-]*$/;

/** The endpoint of an OpenAI-compatible provider (`openai` or a named one), or null. */
export function endpointOf(provider: string, config: Partial<ModelConfig>): EndpointOptions | null {
  if (provider === 'openai') {
    return {
      provider: 'openai',
      baseUrl: config.openaiBaseUrl,
      apiKey: config.openaiApiKey,
      baseUrlSetting: 'OPENAI_BASE_URL',
      apiKeySetting: 'OPENAI_API_KEY',
    };
  }
  const named = config.modelProviders?.find((p) => p.name === provider);
  return named ? namedEndpoint(named) : null;
}

function namedEndpoint(p: NamedModelProvider): EndpointOptions {
  return {
    provider: p.name,
    baseUrl: p.baseUrl,
    apiKey: p.apiKey,
    baseUrlSetting: `the base URL of "${p.name}" in MODEL_PROVIDERS`,
    apiKeySetting: p.apiKeyEnv ?? `the key of "${p.name}" (MODEL_PROVIDERS names no key variable)`,
  };
}

function endpointAgent(modelId: string, endpoint: EndpointOptions, config: ModelConfig): Agent {
  return lazyAgent(async () =>
    (await import('./providers/openai')).openaiAgent({
      ...endpoint,
      modelId,
      firstTokenTimeoutMs: config.modelFirstTokenTimeoutMs,
      idleTimeoutMs: config.modelIdleTimeoutMs,
      maxOutputTokens: config.modelMaxOutputTokens,
    }),
  );
}

/**
 * Adds a provider through the same seam as the real ones (e.g. a controllable agent in tests).
 * Returns a function that removes it again.
 */
export function registerProvider(
  name: string,
  factory: ProviderFactory,
  options: { withoutModel?: boolean } = {},
): () => void {
  if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new Error(`Invalid provider name "${name}"`);
  const previous = providers.get(name);
  providers.set(name, factory);
  if (options.withoutModel) WITHOUT_MODEL.add(name);
  return () => {
    if (previous) providers.set(name, previous);
    else providers.delete(name);
    if (options.withoutModel) WITHOUT_MODEL.delete(name);
  };
}

/** Every provider a model string may name with this configuration. */
export function knownProviders(config?: Partial<ModelConfig>): string[] {
  return [...providers.keys(), ...(config?.modelProviders ?? []).map((p) => p.name)];
}

export interface ParsedModel {
  provider: string;
  modelId: string;
}

/**
 * The reason a model string is not usable, or null when it is. Used by the admin command, the
 * start-up check and agentFor. Named providers count only when the configuration is given.
 */
export function validateModelString(model: string, config?: Partial<ModelConfig>): string | null {
  const value = model.trim();
  const known = knownProviders(config);
  const expected = `use ${known.map((p) => (WITHOUT_MODEL.has(p) ? p : `${p}:<model>`)).join(' or ')}`;
  if (!value) return `The model is empty: ${expected}.`;
  if (value.length > MODEL_STRING_MAX)
    return `The model is longer than ${MODEL_STRING_MAX} characters.`;
  const colon = value.indexOf(':');
  const provider = colon < 0 ? value : value.slice(0, colon);
  const modelId = colon < 0 ? '' : value.slice(colon + 1);
  if (!known.includes(provider))
    return `Unknown model provider "${provider}" in "${value}": ${expected}.`;
  // Real providers follow the contract's model-string syntax (shared with the admin command).
  if (!providers.has(provider) || provider === 'builtin' || provider === 'openai') {
    const parsed = ModelString.safeParse(value);
    if (!parsed.success) return `Invalid model "${value}": ${parsed.error.issues[0]!.message}.`;
  }
  if (WITHOUT_MODEL.has(provider)) {
    return colon < 0 ? null : `The ${provider} provider takes no model name: use "${provider}".`;
  }
  if (!modelId)
    return `The ${provider} provider needs a model name: use ${provider}:<model>, e.g. ${provider}:gpt-4.1-mini.`;
  if (!MODEL_ID.test(modelId))
    return `Invalid model name "${modelId}": use letters, digits and . _ - : / @ +.`;
  return null;
}

export function parseModelString(model: string, config?: Partial<ModelConfig>): ParsedModel {
  const problem = validateModelString(model, config);
  if (problem) throw new ConfigError(problem);
  const value = model.trim();
  const colon = value.indexOf(':');
  return colon < 0
    ? { provider: value, modelId: '' }
    : { provider: value.slice(0, colon), modelId: value.slice(colon + 1) };
}

/**
 * The agent for a model string. An unknown provider or malformed string throws a ConfigError
 * (a configuration problem, caught at start-up by assertCompanyModels). A provider that is
 * known but not configured (openai without OPENAI_BASE_URL) fails at turn time with an AgentError.
 */
export function agentFor(model: string, config: Config): Agent {
  const { provider, modelId } = parseModelString(model, config);
  const factory = providers.get(provider);
  if (factory) return factory(modelId, config);
  return endpointAgent(modelId, endpointOf(provider, config)!, config);
}

export interface CompanyModels {
  name: string;
  brandHubModel: string;
  governanceModel: string;
  talentIntelligenceModel: string;
}

export const COMPANY_MODEL_FIELDS = [
  ['brandHubModel', 'Brand Hub'],
  ['governanceModel', 'Governance'],
  ['talentIntelligenceModel', 'Talent Intelligence'],
] as const;

/**
 * Start-up check: every company's model strings name a known provider (the named ones of
 * MODEL_PROVIDERS when the configuration is given). Throws one ConfigError listing all problems.
 */
export function assertCompanyModels(
  companies: CompanyModels[],
  config?: Partial<ModelConfig>,
): void {
  const problems: string[] = [];
  for (const c of companies) {
    for (const [field, label] of COMPANY_MODEL_FIELDS) {
      const problem = validateModelString(c[field], config);
      if (problem) problems.push(`company "${c.name}", ${label} model: ${problem}`);
    }
  }
  if (problems.length)
    throw new ConfigError(`Invalid company model configuration: ${problems.join('; ')}`);
}
