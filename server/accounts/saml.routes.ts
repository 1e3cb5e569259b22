import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { originOf } from '../audit/audit';
import type { SamlService } from './saml.service';
import { setSessionCookie } from './sessions';
import {
  samlCookieOptions,
  samlRequestCookieName,
  ssoFailed,
  ssoPagesRateLimited,
} from './sso.routes';

const CompanyParam = z.object({
  companyId: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31 - 1),
});

/** What an IdP posts to the ACS (HTTP-POST binding); a response is base64 XML, a few KB. */
const AcsBody = z.object({
  SAMLResponse: z.string().max(200_000).optional(),
  RelayState: z.string().max(1_000).optional(),
});

/**
 * The company's SAML service provider (ADR 0075): its metadata at a stable URL and the Assertion
 * Consumer Service the IdP posts to. The start is /api/auth/sso/start, as for OpenID Connect.
 */
export const samlRoutes =
  (saml: SamlService): FastifyPluginAsyncZod =>
  async (app) => {
    const { config } = app.deps;
    const cookie = samlRequestCookieName(config);
    ssoPagesRateLimited(app, new Set(['POST /api/auth/saml/:companyId/acs']));

    // The HTTP-POST binding is a form post; only these routes read forms.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 256 * 1024 },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    app.get(
      '/auth/saml/:companyId/metadata',
      { schema: { params: CompanyParam } },
      async (req, reply) => {
        const xml = await saml.spMetadata(req.params.companyId);
        if (!xml) return reply.code(404).send({ message: 'Company not found' });
        return reply.type('application/samlmetadata+xml; charset=utf-8').send(xml);
      },
    );

    app.post(
      '/auth/saml/:companyId/acs',
      { schema: { params: CompanyParam, body: AcsBody } },
      async (req, reply) => {
        // Used or not, the request is spent: a second post in this browser finds nothing.
        reply.clearCookie(cookie, samlCookieOptions(config));
        try {
          const { token } = await saml.acs(
            req.params.companyId,
            req.body.SAMLResponse,
            req.cookies[cookie],
            req.session,
            originOf(req),
          );
          setSessionCookie(reply, config, token);
          return reply.header('cache-control', 'no-store').redirect('/', 303);
        } catch (err) {
          return ssoFailed(reply, err);
        }
      },
    );
  };
