import {
  endpointOf,
  knownProviders,
  parseModelString,
  COMPANY_MODEL_FIELDS,
  type ModelConfig,
} from '../analyst/registry';
import { safeUrl } from '../analyst/providers/endpoint';
import type { ProviderHealth } from '@contract/admin';
import type { DbOrTx } from '../db/connect';
import { listCompanies } from './companies';

/**
 * The operator's view of the model providers: what is configured (never a key, only whether
 * the variable holding it is set), and `models check`, one tiny request per model in use.
 */

export function providerLines(config: ModelConfig): string[] {
  const lines = ['builtin  the offline rule-based analyst (no endpoint)'];
  for (const name of knownProviders(config)) {
    if (name === 'builtin') continue;
    const endpoint = endpointOf(name, config);
    if (!endpoint) {
      lines.push(`${name}  (registered in code)`);
      continue;
    }
    const url = endpoint.baseUrl
      ? safeUrl(endpoint.baseUrl)
      : `not set (${endpoint.baseUrlSetting})`;
    const keyVar =
      name === 'openai'
        ? 'OPENAI_API_KEY'
        : config.modelProviders.find((p) => p.name === name)?.apiKeyEnv;
    const key = keyVar ? `key from ${keyVar} (${endpoint.apiKey ? 'set' : 'not set'})` : 'no key';
    lines.push(`${name}  ${url}  ${key}  models: ${name}:<model>`);
  }
  return lines;
}

export interface ModelCheck {
  model: string;
  /** Where it is used: "Contoso / Governance". */
  usedBy: string[];
  ok: boolean;
  /** What answered (the model's words), or why it did not. */
  detail: string;
  ms: number;
}

const CHECK_PROMPT = 'Reply with the single word OK.';

/** Sends one tiny request to a model (none for builtin): whether it answered, and what. */
export async function checkModel(
  model: string,
  config: ModelConfig,
  timeoutMs = 30_000,
): Promise<{ ok: boolean; detail: string; ms: number }> {
  const started = performance.now();
  const done = (ok: boolean, detail: string) => ({
    ok,
    detail,
    ms: Math.round(performance.now() - started),
  });
  if (model === 'builtin') return done(true, 'the offline analyst (nothing to call)');
  let provider: string;
  let modelId: string;
  try {
    ({ provider, modelId } = parseModelString(model, config));
  } catch (err) {
    return done(false, err instanceof Error ? err.message : String(err));
  }
  const endpoint = endpointOf(provider, config);
  if (!endpoint?.baseUrl) {
    return done(
      false,
      `The ${provider} provider is not configured: set ${endpoint?.baseUrlSetting ?? 'MODEL_PROVIDERS'}`,
    );
  }
  // The AI SDK loads with the first check, not with the server (ADR 0104).
  const [{ generateText }, { createOpenAICompatible }, { describeUpstreamError }] =
    await Promise.all([
      import('ai'),
      import('@ai-sdk/openai-compatible'),
      import('../analyst/providers/openai'),
    ]);
  try {
    const { text } = await generateText({
      model: createOpenAICompatible({
        name: provider,
        baseURL: endpoint.baseUrl,
        apiKey: endpoint.apiKey,
      }).chatModel(modelId),
      prompt: CHECK_PROMPT,
      maxOutputTokens: 16,
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(timeoutMs),
    });
    return done(true, `answered ${JSON.stringify(text.trim().slice(0, 60))}`);
  } catch (err) {
    const timedOut =
      err instanceof Error && (err.name === 'TimeoutError' || /timeout|aborted/i.test(err.message));
    return done(
      false,
      timedOut
        ? `no answer within ${Math.round(timeoutMs / 1000)} s`
        : describeUpstreamError(err, modelId, endpoint).message,
    );
  }
}

/** Sends one tiny request per distinct model of the companies. */
export async function checkModels(
  db: DbOrTx,
  config: ModelConfig,
  timeoutMs = 30_000,
): Promise<ModelCheck[]> {
  const used = new Map<string, string[]>();
  for (const c of await listCompanies(db)) {
    for (const [field, label] of COMPANY_MODEL_FIELDS) {
      const model = c[field].trim();
      used.set(model, [...(used.get(model) ?? []), `${c.name} / ${label}`]);
    }
  }
  const checks: ModelCheck[] = [];
  for (const [model, usedBy] of [...used.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    checks.push({ model, usedBy, ...(await checkModel(model, config, timeoutMs)) });
  }
  return checks;
}

/**
 * The providers' health for the console: each configured provider, whether its key is set, and
 * whether the models companies use on it answered one tiny request.
 */
export async function providersHealth(
  db: DbOrTx,
  config: ModelConfig,
  timeoutMs = 10_000,
): Promise<ProviderHealth[]> {
  const checks = await checkModels(db, config, timeoutMs);
  return knownProviders(config).map((name) => {
    const mine = checks.filter((c) =>
      name === 'builtin' ? c.model === 'builtin' : c.model.startsWith(`${name}:`),
    );
    const endpoint = name === 'builtin' ? null : endpointOf(name, config);
    const keyVar =
      name === 'openai'
        ? 'OPENAI_API_KEY'
        : config.modelProviders.find((p) => p.name === name)?.apiKeyEnv;
    return {
      name,
      endpoint:
        name === 'builtin'
          ? 'the offline analyst (no endpoint)'
          : endpoint?.baseUrl
            ? safeUrl(endpoint.baseUrl)
            : `not set (${endpoint?.baseUrlSetting ?? 'MODEL_PROVIDERS'})`,
      keySet: keyVar ? Boolean(endpoint?.apiKey) : null,
      answers: mine.length ? mine.every((c) => c.ok) : null,
      detail: mine.length
        ? mine.map((c) => `${c.model}: ${c.detail}`).join('; ')
        : 'no company uses it',
    };
  });
}

export function checkLine(c: ModelCheck): string {
  return `${c.ok ? 'ok  ' : 'FAIL'}  ${c.model}  ${c.detail} (${c.ms} ms)\n      used by ${c.usedBy.join(', ')}`;
}
