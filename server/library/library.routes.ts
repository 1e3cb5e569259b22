import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MessageBody } from '@contract/errors';
import {
  LIBRARY_MESSAGES,
  LibraryDocumentDto,
  LibraryIdParam,
  LibraryListAnswer,
  LibraryModuleQuery,
  LibrarySearchAnswer,
  LibrarySearchQuery,
  LibraryUploadBody,
  LibraryVersionParam,
  LibraryVersionsAnswer,
  LibraryViewAnswer,
} from '@contract/library';
import { requireUserId } from '../accounts/sessions';
import { originOf } from '../audit/audit';
import { contentDisposition } from '../lib/content-disposition';
import { NotFoundError } from '../lib/errors';
import {
  findDocument,
  listDocuments,
  listVersions,
  searchPassages,
  usedBytes,
  versionFile,
  versionPassages,
} from './library.repo';
import {
  decodeUpload,
  libraryCaller,
  removeDocument,
  requireEditor,
  retireDocument,
  uploadDocument,
} from './library.service';
import { BackgroundEmbedder, libraryVectors } from './embeddings';

/** 50 MB in base64 (4/3) with the JSON around it. */
const UPLOAD_BODY_LIMIT = 70 * 1024 * 1024;

const CompanyOnly = z.object({
  company: z.coerce.number().int().positive('Company must be a company id').optional(),
});

/**
 * The company library under /api/library (docs/decisions/0065-company-library.md): members read
 * their company's, company admins change it, operators name the company (?company=).
 */
export const libraryRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const deps = { db, clock: app.deps.clock, quotaBytes: app.deps.config.libraryQuotaBytes };
  // Embeddings (ADR 0026): passages are embedded in the background after an upload and at start
  // (what an earlier failure or restart left), never holding up the upload's answer.
  const vectors = libraryVectors(app.deps.config, app.deps.database, (err, what) =>
    app.log.warn({ err }, what),
  );
  const embedder = vectors
    ? new BackgroundEmbedder(db, vectors.embedder, (err) =>
        app.log.warn({ err }, 'library: passages could not be embedded (full text serves them)'),
      )
    : null;
  if (embedder) {
    app.addHook('onReady', async () => embedder.kick());
    app.addHook('onClose', async () => embedder.idle());
  }
  const companyParam = (req: FastifyRequest) => {
    const raw = (req.query as { company?: unknown } | undefined)?.company;
    // Before validation (onRequest) the query is raw: a bad value is refused by the schema later.
    const parsed = CompanyOnly.safeParse({ company: raw });
    return parsed.success ? parsed.data.company : undefined;
  };
  const callerOf = (req: FastifyRequest) =>
    libraryCaller(db, requireUserId(req), companyParam(req));
  const docOf = async (req: FastifyRequest, id: number) => {
    const caller = await callerOf(req);
    const doc = await findDocument(db, caller.companyId, id);
    if (!doc) throw new NotFoundError(LIBRARY_MESSAGES.notFound);
    return { caller, doc };
  };

  app.get(
    '/library',
    { schema: { querystring: LibraryModuleQuery, response: { 200: LibraryListAnswer } } },
    async (req) => {
      const caller = await callerOf(req);
      return {
        documents: await listDocuments(db, caller.companyId, req.query.module),
        usedBytes: await usedBytes(db, caller.companyId),
        quotaBytes: deps.quotaBytes,
        canEdit: caller.canEdit,
      };
    },
  );

  app.get(
    '/library/search',
    { schema: { querystring: LibrarySearchQuery, response: { 200: LibrarySearchAnswer } } },
    async (req) => {
      const caller = await callerOf(req);
      const { module, q, limit } = req.query;
      return { passages: await searchPassages(db, caller.companyId, module, q, limit, vectors) };
    },
  );

  app.post(
    '/library',
    {
      bodyLimit: UPLOAD_BODY_LIMIT,
      schema: {
        querystring: CompanyOnly,
        body: LibraryUploadBody,
        response: { 201: LibraryDocumentDto, 200: LibraryDocumentDto },
      },
      // Signed out 401, a member 403, before up to 70 MB of body is read.
      onRequest: async (req) => {
        requireEditor(await callerOf(req));
      },
    },
    async (req, reply) => {
      const caller = await callerOf(req);
      const data = decodeUpload(req.body.base64);
      const { document, replaced } = await uploadDocument(
        deps,
        caller,
        { ...req.body, data },
        originOf(req),
      );
      embedder?.kick();
      return reply.code(replaced ? 200 : 201).send(document);
    },
  );

  app.get(
    '/library/:id/versions',
    {
      schema: {
        params: LibraryIdParam,
        querystring: CompanyOnly,
        response: { 200: LibraryVersionsAnswer },
      },
    },
    async (req) => {
      const { doc } = await docOf(req, req.params.id);
      return listVersions(db, doc);
    },
  );

  app.get(
    '/library/:id/versions/:version',
    {
      schema: {
        params: LibraryVersionParam,
        querystring: CompanyOnly,
        response: { 200: LibraryViewAnswer },
      },
    },
    async (req) => {
      const { doc } = await docOf(req, req.params.id);
      const passages = await versionPassages(db, doc, req.params.version);
      if (!passages) throw new NotFoundError('That version does not exist');
      const { document } = await listVersions(db, doc);
      return { document, version: req.params.version, passages };
    },
  );

  app.get(
    '/library/:id/versions/:version/file',
    { schema: { params: LibraryVersionParam, querystring: CompanyOnly } },
    async (req, reply) => {
      const { doc } = await docOf(req, req.params.id);
      const file = await versionFile(db, doc, req.params.version);
      if (!file) throw new NotFoundError('That version does not exist');
      return reply
        .header('content-type', file.mimeType)
        .header('content-disposition', contentDisposition(doc.fileName))
        .send(file.data);
    },
  );

  app.post(
    '/library/:id/retire',
    {
      schema: {
        params: LibraryIdParam,
        querystring: CompanyOnly,
        response: { 200: LibraryDocumentDto },
      },
    },
    async (req) => retireDocument(deps, await callerOf(req), req.params.id, true, originOf(req)),
  );

  app.post(
    '/library/:id/restore',
    {
      schema: {
        params: LibraryIdParam,
        querystring: CompanyOnly,
        response: { 200: LibraryDocumentDto },
      },
    },
    async (req) => retireDocument(deps, await callerOf(req), req.params.id, false, originOf(req)),
  );

  app.delete(
    '/library/:id',
    {
      schema: { params: LibraryIdParam, querystring: CompanyOnly, response: { 200: MessageBody } },
    },
    async (req) => {
      const name = await removeDocument(deps, await callerOf(req), req.params.id, originOf(req));
      return { message: `${name} deleted from the library` };
    },
  );
};
