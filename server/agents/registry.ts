import { MODEL_STRING_MAX, ModelString } from '@contract/models';
import type { Config } from '../config';
import { ConfigError } from '../config';
import { builtinAgent } from './providers/builtin';
import { openaiAgent } from './providers/openai';
import type { Agent } from './types';

/**
 * Model routing. A company's model string names a provider and, after a colon, the provider's
 * model: `builtin` or `openai:gpt-4.1-mini` (ARCHITECTURE.md section 5).
 */

/** Makes the agent of one model id (the part after the colon; '' for `builtin`). */
export type ProviderFactory = (modelId: string, config: Config) => Agent;

const providers = new Map<string, ProviderFactory>([
  ['builtin', () => builtinAgent()],
  [
    'openai',
    (modelId, config) =>
      openaiAgent({ modelId, baseUrl: config.openaiBaseUrl, apiKey: config.openaiApiKey }),
  ],
]);

/** Providers whose model string has no model part. */
const WITHOUT_MODEL = new Set(['builtin']);

const MODEL_MAX = MODEL_STRING_MAX;
const MODEL_ID = /^[A-Za-z0-9][\w.:/@+-]*$/;

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

export function knownProviders(): string[] {
  return [...providers.keys()];
}

export interface ParsedModel {
  provider: string;
  modelId: string;
}

/**
 * The reason a model string is not usable, or null when it is. Used by the admin command, the
 * start-up check and agentFor.
 */
export function validateModelString(model: string): string | null {
  const value = model.trim();
  if (!value) return 'The model is empty: use builtin or openai:<model>.';
  if (value.length > MODEL_MAX) return `The model is longer than ${MODEL_MAX} characters.`;
  const colon = value.indexOf(':');
  const provider = colon < 0 ? value : value.slice(0, colon);
  const modelId = colon < 0 ? '' : value.slice(colon + 1);
  const expected = `use ${[...providers.keys()].map((p) => (WITHOUT_MODEL.has(p) ? p : `${p}:<model>`)).join(' or ')}`;
  if (!providers.has(provider))
    return `Unknown model provider "${provider}" in "${value}": ${expected}.`;
  // The two real providers follow the contract's model-string syntax (shared with the admin command).
  if (provider === 'builtin' || provider === 'openai') {
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

export function parseModelString(model: string): ParsedModel {
  const problem = validateModelString(model);
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
  const { provider, modelId } = parseModelString(model);
  return providers.get(provider)!(modelId, config);
}

export interface CompanyModels {
  name: string;
  brandHubModel: string;
  governanceModel: string;
  talentIntelligenceModel: string;
}

/** Start-up check: every company's model strings name a known provider. Throws one ConfigError listing all problems. */
export function assertCompanyModels(companies: CompanyModels[]): void {
  const problems: string[] = [];
  for (const c of companies) {
    for (const [field, label] of [
      ['brandHubModel', 'Brand Hub'],
      ['governanceModel', 'Governance'],
      ['talentIntelligenceModel', 'Talent Intelligence'],
    ] as const) {
      const problem = validateModelString(c[field]);
      if (problem) problems.push(`company "${c.name}", ${label} model: ${problem}`);
    }
  }
  if (problems.length)
    throw new ConfigError(`Invalid company model configuration: ${problems.join('; ')}`);
}
