import type { SsoFailureReason } from './sso.service';

// The page a browser lands on when a sign-in through the company's provider fails: a clear
// sentence and the way back, never a stack or the provider's raw answer. Served from the
// callback (a full page navigation from the provider), so it is HTML, not the API's JSON.

const theProvider = (company: string | null) =>
  company ? `${company}'s identity provider` : "your company's identity provider";

export const SSO_FAILURE_TEXT: Record<
  SsoFailureReason,
  { status: number; text: (company: string | null) => string }
> = {
  not_configured: {
    status: 404,
    text: () =>
      'Single sign-on is not set up for this address. Sign in with your password instead.',
  },
  idp_unreachable: {
    status: 502,
    text: (c) =>
      `${theProvider(c)} could not be reached or did not answer as an OpenID provider. Try again in a few minutes; if it keeps happening, tell your IT team.`,
  },
  client_rejected: {
    status: 502,
    text: (c) =>
      `${theProvider(c)} did not accept Atrium's client id or secret. Your administrator needs to check the single sign-on settings.`,
  },
  state_mismatch: {
    status: 400,
    text: () =>
      'This sign-in answer does not belong to the sign-in started in this browser, so it was not accepted. Start again from the sign-in page.',
  },
  expired_or_replayed: {
    status: 400,
    text: () => 'This sign-in has expired or was already used. Start again from the sign-in page.',
  },
  idp_refused: {
    status: 400,
    text: (c) => `${theProvider(c)} did not sign you in. Start again from the sign-in page.`,
  },
  invalid_response: {
    status: 502,
    text: (c) =>
      `The answer from ${theProvider(c)} could not be verified, so you were not signed in. Try again; if it keeps happening, tell your IT team.`,
  },
  no_email: {
    status: 403,
    text: (c) =>
      `${theProvider(c)} did not give your e-mail address. Your IT team needs to release the "email" claim to Atrium.`,
  },
  wrong_domain: {
    status: 403,
    text: (c) =>
      `The e-mail address ${theProvider(c)} gave is not on one of ${c ?? 'the company'}'s domains, so it cannot sign in here.`,
  },
  unverified_email: {
    status: 403,
    text: (c) =>
      `An Atrium account with this e-mail address exists, and ${theProvider(c)} has not confirmed that the address is yours. Ask your IT team to mark it verified.`,
  },
  user_disabled: {
    status: 403,
    text: (c) => `Your Atrium account is disabled. Ask ${c ?? 'your company'}'s administrator.`,
  },
  wrong_issuer: {
    status: 403,
    text: (c) =>
      `This sign-in answer came from an identity provider that is not ${theProvider(c)}, so it was not accepted.`,
  },
  invalid_signature: {
    status: 403,
    text: (c) =>
      `The sign-in answer is not signed with ${theProvider(c)}'s certificate, so it was not accepted. If your IT team changed the certificate, your administrator needs to update the single sign-on settings.`,
  },
  wrong_audience: {
    status: 403,
    text: (c) =>
      `The sign-in answer from ${theProvider(c)} was made for another application, not this Atrium. Your IT team needs to check the Audience (SP entity ID) they set for Atrium.`,
  },
  wrong_recipient: {
    status: 403,
    text: (c) =>
      `The sign-in answer from ${theProvider(c)} was addressed to another URL. Your IT team needs to check the Assertion Consumer Service URL they set for Atrium.`,
  },
  assertion_expired: {
    status: 400,
    text: (c) =>
      `The sign-in answer from ${theProvider(c)} is outside its validity time (expired, or not yet valid). Start again from the sign-in page; if it keeps happening, the clocks of the two servers differ.`,
  },
  rate_limited: {
    status: 429,
    text: () =>
      'Too many single sign-on attempts from your network. Please wait a minute and try again.',
  },
  settings_unreadable: {
    status: 500,
    text: () =>
      'The single sign-on settings cannot be read on this server (its SECRETS_KEY does not match them). Tell your administrator.',
  },
};

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function ssoFailurePage(reason: SsoFailureReason, company: string | null): string {
  const text = SSO_FAILURE_TEXT[reason].text(company);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in failed · Atrium</title>
<style>
body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:100vh;margin:0;background:#f8fafc;color:#0f172a}
main{max-width:32rem;padding:2rem;background:#fff;border:1px solid #e2e8f0;border-radius:.75rem}
h1{font-size:1.25rem;margin:0 0 .75rem}
a{color:#2563eb}
@media (prefers-color-scheme:dark){body{background:#0f172a;color:#e2e8f0}main{background:#1e293b;border-color:#334155}a{color:#93c5fd}}
</style>
</head>
<body>
<main>
<h1>Sign-in failed</h1>
<p>${escape(text)}</p>
<p><a href="/auth">Back to sign in</a></p>
</main>
</body>
</html>
`;
}
