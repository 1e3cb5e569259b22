/**
 * What the server says about a model endpoint without loading the AI SDK: the admin console's
 * provider lines and health read these at any time, the SDK loads with the first model call
 * (docs/decisions/0104-start-up-loads-what-a-request-needs.md).
 */

/** One OpenAI-compatible endpoint: `openai` (OPENAI_BASE_URL) or a provider the operator named. */
export interface EndpointOptions {
  /** The provider's name, the part before the colon of a model string. */
  provider: string;
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /** Where an operator fixes the URL and the key (named in messages, never their values). */
  baseUrlSetting: string;
  apiKeySetting: string;
}

/** The URL as safe to log and show: no user, password or query (where keys sometimes travel). */
export function safeUrl(raw: string): string {
  try {
    const u = new URL(raw);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}
