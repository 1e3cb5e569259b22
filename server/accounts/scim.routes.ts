import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SCIM_ERROR_SCHEMA } from '@contract/scim';
import type { Company } from '../db/schema';
import { ScimError, ScimService } from './scim.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The company whose SCIM token authenticated the request (SCIM routes only). */
    scimCompany: Company | null;
  }
}

const SCIM_JSON = 'application/scim+json';

/**
 * /scim/v2 (RFC 7644): Users, authenticated by the company's bearer token. Answers and errors
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
    else if ((err as { statusCode?: number }).statusCode === 400 || err instanceof SyntaxError) {
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

  const company = (req: FastifyRequest) => req.scimCompany!;
  type IdParams = { Params: { id: string } };

  app.get<{ Querystring: Record<string, string> }>('/Users', async (req, reply) =>
    reply.type(SCIM_JSON).send(await scim.list(company(req), req.query)),
  );
  app.get<IdParams>('/Users/:id', async (req, reply) =>
    reply.type(SCIM_JSON).send(await scim.get(company(req), req.params.id)),
  );
  app.post('/Users', async (req, reply) => {
    const user = await scim.create(company(req), req.body);
    return reply.code(201).type(SCIM_JSON).header('location', user.meta.location).send(user);
  });
  app.put<IdParams>('/Users/:id', async (req, reply) =>
    reply.type(SCIM_JSON).send(await scim.replace(company(req), req.params.id, req.body)),
  );
  app.patch<IdParams>('/Users/:id', async (req, reply) =>
    reply.type(SCIM_JSON).send(await scim.patch(company(req), req.params.id, req.body)),
  );
  app.delete<IdParams>('/Users/:id', async (req, reply) => {
    await scim.remove(company(req), req.params.id);
    return reply.code(204).send();
  });
}
