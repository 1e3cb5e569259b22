import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SCIM_ERROR_SCHEMA } from '@contract/scim';
import { RateLimitedError } from '../lib/errors';
import type { CompanyWithDomains } from './accounts.repo';
import { ScimGroupsService } from './scim-groups.service';
import { ScimError, ScimService } from './scim.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The company whose SCIM token authenticated the request (SCIM routes only). */
    scimCompany: CompanyWithDomains | null;
  }
}

const SCIM_JSON = 'application/scim+json';

/**
 * /scim/v2 (RFC 7644): Users and Groups, authenticated by the company's bearer token. Answers and errors
 * are SCIM's own shapes, not the API's; bodies come as application/scim+json or JSON.
 */
export async function scimRoutes(app: FastifyInstance): Promise<void> {
  const scim = new ScimService(app.deps, app.log);
  app.decorateRequest('scimCompany', null);
  app.addContentTypeParser(
    SCIM_JSON,
    { parseAs: 'string' },
    app.getDefaultJsonParser('error', 'error'),
  );

  app.addHook('onRequest', async (req) => {
    req.scimCompany = await scim.authenticate(req.headers.authorization);
  });

  app.setErrorHandler((err: unknown, req: FastifyRequest, reply: FastifyReply) => {
    let status = 500;
    let detail = 'The request could not be completed.';
    let scimType: string | undefined;
    if (err instanceof ScimError) ({ status, detail, scimType } = err);
    else if (err instanceof RateLimitedError) {
      // RFC 7644 3.12: 429 Too Many Requests, with when to retry (ADR 0080).
      status = 429;
      detail = err.message;
      reply.header('retry-after', String(err.retryAfterSeconds));
    } else if ((err as { statusCode?: number }).statusCode === 400 || err instanceof SyntaxError) {
      status = 400;
      detail = 'The body is not valid JSON.';
      scimType = 'invalidSyntax';
    } else if ((err as { statusCode?: number }).statusCode === 415) {
      status = 415;
      detail = 'Send application/scim+json or application/json.';
    } else req.log.error({ err }, 'SCIM request failed');
    if (status === 401) reply.header('www-authenticate', 'Bearer realm="Atrium SCIM"');
    return reply
      .code(status)
      .type(SCIM_JSON)
      .send({
        schemas: [SCIM_ERROR_SCHEMA],
        status: String(status),
        ...(scimType ? { scimType } : {}),
        detail,
      });
  });

  resourceRoutes(app, '/Users', scim);
  resourceRoutes(app, '/Groups', new ScimGroupsService(app.deps));
}

/** What a SCIM resource type (Users, Groups) offers; the routes are the same for each. */
interface ScimResources<T extends { meta: { location: string } }> {
  list(company: CompanyWithDomains, query: Record<string, string>): Promise<unknown>;
  get(company: CompanyWithDomains, id: string): Promise<T>;
  create(company: CompanyWithDomains, body: unknown): Promise<T>;
  replace(company: CompanyWithDomains, id: string, body: unknown): Promise<T>;
  patch(company: CompanyWithDomains, id: string, body: unknown): Promise<T>;
  remove(company: CompanyWithDomains, id: string): Promise<void>;
}

function resourceRoutes<T extends { meta: { location: string } }>(
  app: FastifyInstance,
  path: string,
  service: ScimResources<T>,
): void {
  const company = (req: FastifyRequest) => req.scimCompany!;
  type IdParams = { Params: { id: string } };
  const send = (reply: FastifyReply, body: unknown) => reply.type(SCIM_JSON).send(body);
  app.get<{ Querystring: Record<string, string> }>(path, async (req, reply) =>
    send(reply, await service.list(company(req), req.query)),
  );
  app.get<IdParams>(`${path}/:id`, async (req, reply) =>
    send(reply, await service.get(company(req), req.params.id)),
  );
  app.post(path, async (req, reply) => {
    const made = await service.create(company(req), req.body);
    return send(reply.code(201).header('location', made.meta.location), made);
  });
  app.put<IdParams>(`${path}/:id`, async (req, reply) =>
    send(reply, await service.replace(company(req), req.params.id, req.body)),
  );
  app.patch<IdParams>(`${path}/:id`, async (req, reply) =>
    send(reply, await service.patch(company(req), req.params.id, req.body)),
  );
  app.delete<IdParams>(`${path}/:id`, async (req, reply) => {
    await service.remove(company(req), req.params.id);
    return reply.code(204).send();
  });
}
