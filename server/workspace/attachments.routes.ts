import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams } from '@contract/chats';
import { requireUserId } from '../accounts/sessions';
import { contentDisposition } from '../lib/content-disposition';
import { NotFoundError } from '../lib/errors';
import { findOwnAttachment } from './conversation.repo';

/** The bytes of an attachment, for the user who sent it; history answers carry only its id. */
export const attachmentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.deps.database.db;

  app.get('/attachments/:id', { schema: { params: IdParams } }, async (req, reply) => {
    const userId = requireUserId(req);
    const attachment = await findOwnAttachment(db, req.params.id, userId);
    if (!attachment) throw new NotFoundError('Attachment not found');
    // Always a download, never rendered by the browser as a page of this origin.
    return reply
      .header('Content-Type', attachment.mimeType)
      .header('Content-Disposition', contentDisposition(attachment.fileName))
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'private, max-age=3600')
      .send(attachment.data);
  });
};
