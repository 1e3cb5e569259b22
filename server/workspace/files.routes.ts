import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParams } from '@contract/chats';
import { MessageBody } from '@contract/errors';
import { FileIdParams, SaveFileBody, SavedFileDto } from '@contract/files';
import { requireUserId } from '../accounts/sessions';
import { originOf, recordAudit } from '../audit/audit';
import { contentDisposition } from '../lib/content-disposition';
import { deleteFile, downloadFile, listFiles, saveFile } from './files.service';

/** A saved file holds up to 5 MB of text (a generated report or chart page), JSON-escaped. */
const SAVE_BODY_LIMIT = 12 * 1024 * 1024;

/** Saved files of a chat (spec section 2, Saved Files panel). */
export const filesRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.deps.database.db;

  const list = { params: IdParams, response: { 200: z.array(SavedFileDto) } };
  app.get('/chats/:id/files', { schema: list }, async (req) => {
    const userId = requireUserId(req);
    return listFiles(db, userId, req.params.id);
  });

  const save = { params: IdParams, body: SaveFileBody, response: { 201: SavedFileDto } };
  app.post(
    '/chats/:id/files',
    {
      bodyLimit: SAVE_BODY_LIMIT,
      schema: save,
      // A signed-out caller is refused before up to 12 MB of body is read.
      onRequest: async (req) => {
        requireUserId(req);
      },
    },
    async (req, reply) => {
      const userId = requireUserId(req);
      return reply.code(201).send(await saveFile(db, userId, req.params.id, req.body));
    },
  );

  const remove = { params: FileIdParams, response: { 200: MessageBody } };
  app.delete('/files/:fileId', { schema: remove }, async (req) => {
    const userId = requireUserId(req);
    const name = await deleteFile(db, userId, req.params.fileId);
    await recordAudit(db, app.deps.clock, {
      ...originOf(req),
      action: 'file_deleted',
      actorId: userId,
      target: name,
    });
    return { message: 'File deleted' };
  });

  // A saved file's bytes as a download (recorded in the audit log); only its input has a schema.
  app.get('/files/:fileId/download', { schema: { params: FileIdParams } }, async (req, reply) => {
    const userId = requireUserId(req);
    const file = await downloadFile(db, userId, req.params.fileId);
    await recordAudit(db, app.deps.clock, {
      ...originOf(req),
      action: 'file_downloaded',
      actorId: userId,
      target: file.fileName,
    });
    return reply
      .header('Content-Type', 'application/octet-stream')
      .header('Content-Disposition', contentDisposition(file.fileName))
      .header('Cache-Control', 'private, no-store')
      .send(file.fileContent);
  });
};
