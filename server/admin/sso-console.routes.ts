import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CompanyQuery } from '@contract/admin';
import { SamlSettingsBody } from '@contract/sso';
import {
  AdminGroupsBody,
  OidcSettingsBody,
  ScimTokenCreated,
  SsoConsoleDto,
} from '@contract/sso-admin';
import type { AdminService } from './admin.service';
import { SsoConsole } from './sso-console';

/**
 * /api/admin/sso (docs/decisions/0079-sso-settings.md), registered inside the admin routes: the
 * caller is already known to be an admin or operator (401/403 before anything). A company admin
 * reaches their own company (another company's id is a 404); an operator names it with ?company=.
 */
export const ssoConsoleRoutes =
  (admins: AdminService): FastifyPluginAsyncZod =>
  async (app) => {
    const settings = new SsoConsole(app.deps);
    const companyOf = (req: FastifyRequest) =>
      admins.companyOf(req.admin!, (req.query as { company?: number }).company);
    const answer = { 200: SsoConsoleDto };

    app.get('/', { schema: { querystring: CompanyQuery, response: answer } }, async (req) =>
      settings.view(await companyOf(req)),
    );

    app.put(
      '/oidc',
      { schema: { querystring: CompanyQuery, body: OidcSettingsBody, response: answer } },
      async (req) => settings.setOidc(req.admin!, await companyOf(req), req.body),
    );
    app.delete('/oidc', { schema: { querystring: CompanyQuery, response: answer } }, async (req) =>
      settings.removeOidc(req.admin!, await companyOf(req)),
    );

    app.put(
      '/saml',
      { schema: { querystring: CompanyQuery, body: SamlSettingsBody, response: answer } },
      async (req) => settings.setSaml(req.admin!, await companyOf(req), req.body),
    );
    app.delete('/saml', { schema: { querystring: CompanyQuery, response: answer } }, async (req) =>
      settings.removeSaml(req.admin!, await companyOf(req)),
    );

    app.post(
      '/scim-token',
      { schema: { querystring: CompanyQuery, response: { 200: ScimTokenCreated } } },
      async (req, reply) => {
        const company = await companyOf(req);
        const token = await settings.newScimToken(req.admin!, company);
        reply.header('cache-control', 'no-store');
        return { token, settings: await settings.view(company) };
      },
    );
    app.delete(
      '/scim-token',
      { schema: { querystring: CompanyQuery, response: answer } },
      async (req) => settings.revokeScimToken(req.admin!, await companyOf(req)),
    );

    app.put(
      '/admin-groups',
      { schema: { querystring: CompanyQuery, body: AdminGroupsBody, response: answer } },
      async (req) => settings.setAdminGroups(req.admin!, await companyOf(req), req.body.groups),
    );
  };
