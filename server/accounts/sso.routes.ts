import type { FastifyInstance, FastifyReply } from 'fastify';
import { RateLimitedError } from '../lib/errors';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SsoLookupAnswer, SsoLookupQuery } from '@contract/sso';
import { originOf } from '../audit/audit';
import type { Config } from '../config';
import { ssoFailurePage, SSO_FAILURE_TEXT } from './sso-page';
import type { SamlService } from './saml.service';
import { SSO_LOGIN_TTL_MS, SsoFailure, type SsoService } from './sso.service';
import { setSessionCookie } from './sessions';

/** The cookie that ties a sign-in at the provider to the browser that started it. */
export function ssoStateCookieName(config: Pick<Config, 'secureCookies'>): string {
  return config.secureCookies ? '__Host-atrium_sso_state' : 'atrium_sso_state';
}

/** The cookie that ties a SAML answer to the browser that sent the AuthnRequest (its ID). */
export function samlRequestCookieName(config: Pick<Config, 'secureCookies'>): string {
  return config.secureCookies ? '__Host-atrium_saml_request' : 'atrium_saml_request';
}

/**
 * The IdP answers with a cross-site POST, which carries no SameSite=Lax cookie: with https the
 * cookie is SameSite=None (Secure); over http on this machine (development, tests, where the IdP
 * is same-site) browsers refuse None without Secure, so it is Lax there (ADR 0075).
 */
export function samlCookieOptions(config: Pick<Config, 'secureCookies'>) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: config.secureCookies ? ('none' as const) : ('lax' as const),
    secure: config.secureCookies,
  };
}

/** A failed start or answer is a page (a page navigation), never the API's JSON or a stack. */
export function ssoFailed(reply: FastifyReply, err: unknown) {
  if (!(err instanceof SsoFailure)) throw err;
  return reply
    .code(SSO_FAILURE_TEXT[err.reason].status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(ssoFailurePage(err.reason, err.company));
}

/**
 * A page navigation refused by its rate limit (ADR 0080) gets the failure page with 429 and
 * Retry-After, not the API's JSON; any other error goes on to the app's handler.
 */
export function ssoPagesRateLimited(app: FastifyInstance, pageRoutes: ReadonlySet<string>) {
  app.setErrorHandler((err, req, reply) => {
    if (
      !(err instanceof RateLimitedError) ||
      !pageRoutes.has(`${req.method} ${req.routeOptions.url}`)
    )
      throw err;
    return reply
      .code(429)
      .header('retry-after', String(err.retryAfterSeconds))
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(ssoFailurePage('rate_limited', null));
  });
}

/** Query values a provider sends back are short; anything else is not read. */
const CallbackQuery = z.record(z.string().max(64), z.string().max(4096));

/**
 * Sign-in through the company's identity provider (ADR 0034): the lookup the /auth form asks
 * while the address is typed, the start (a redirect to the provider) and the callback. Start and
 * callback are page navigations: their failures are pages (sso-page.ts), not JSON.
 */
export const ssoRoutes =
  (sso: SsoService, saml: SamlService): FastifyPluginAsyncZod =>
  async (app) => {
    const { config } = app.deps;
    const stateCookie = ssoStateCookieName(config);
    const samlCookie = samlRequestCookieName(config);
    const cookieOptions = {
      path: '/',
      httpOnly: true,
      // Lax: sent on the provider's top-level redirect back to the callback.
      sameSite: 'lax' as const,
      secure: config.secureCookies,
    };

    const failed = ssoFailed;
    ssoPagesRateLimited(app, new Set(['GET /api/auth/sso/start']));

    app.get(
      '/auth/sso',
      { schema: { querystring: SsoLookupQuery, response: { 200: SsoLookupAnswer } } },
      async (req) => sso.lookup(req.query.email),
    );

    app.get('/auth/sso/start', { schema: { querystring: SsoLookupQuery } }, async (req, reply) => {
      try {
        const provider = await sso.providerFor(req.query.email);
        if (provider?.kind === 'saml') {
          const { url, requestId } = await saml.start(provider.companyId);
          reply.setCookie(samlCookie, requestId, {
            ...samlCookieOptions(config),
            maxAge: Math.floor(SSO_LOGIN_TTL_MS / 1000),
          });
          return reply.header('cache-control', 'no-store').redirect(url, 302);
        }
        const { url, state } = await sso.start(req.query.email);
        reply.setCookie(stateCookie, state, {
          ...cookieOptions,
          maxAge: Math.floor(SSO_LOGIN_TTL_MS / 1000),
        });
        return reply.header('cache-control', 'no-store').redirect(url, 302);
      } catch (err) {
        return failed(reply, err);
      }
    });

    app.get(
      '/auth/sso/callback',
      { schema: { querystring: CallbackQuery } },
      async (req, reply) => {
        // Used or not, the state is spent: a second callback in this browser finds nothing.
        reply.clearCookie(stateCookie, cookieOptions);
        try {
          const { token } = await sso.callback(
            req.query,
            req.cookies[stateCookie],
            req.session,
            originOf(req),
          );
          setSessionCookie(reply, config, token);
          return reply.header('cache-control', 'no-store').redirect('/', 302);
        } catch (err) {
          return failed(reply, err);
        }
      },
    );
  };
