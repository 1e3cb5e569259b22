import type { FastifyPluginAsync } from 'fastify';
import type { MessageBody } from '@contract/errors';
import { SaveFileBody } from '@contract/files';
import { requireUserId } from '../accounts/sessions';
import { parse } from '../lib/validate';
import { deleteFile, listFiles, saveFile } from './files.service';

/** A saved file holds up to 5 MB of text (a generated report or chart page), JSON-escaped. */
const SAVE_BODY_LIMIT = 12 * 1024 * 1024;

/** Saved files of a chat (spec section 2, Saved Files panel). */
export const filesRoutes: FastifyPluginAsync = async (app) => {
  const db = app.deps.database.db;

  app.get<{ Params: { id: string } }>('/chats/:id/files', async (req) => {
    const userId = requireUserId(req);
    return listFiles(db, userId, req.params.id);
  });

  app.post<{ Params: { id: string } }>(
    '/chats/:id/files',
    {
      bodyLimit: SAVE_BODY_LIMIT,
      onRequest: async (req) => {
        requireUserId(req);
      },
    },
    async (req, reply) => {
      const userId = requireUserId(req);
      const body = parse(SaveFileBody, req.body);
      return reply.code(201).send(await saveFile(db, userId, req.params.id, body));
    },
  );

  app.delete<{ Params: { fileId: string } }>('/files/:fileId', async (req) => {
    const userId = requireUserId(req);
    await deleteFile(db, userId, req.params.fileId);
    return { message: 'File deleted' } satisfies MessageBody;
  });
};
