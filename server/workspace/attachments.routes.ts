import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams } from '@contract/chats';
import { requireUserId } from '../accounts/sessions';
import { NotFoundError } from '../lib/errors';
import { findOwnAttachment } from './conversation.repo';

/**
 * Content-Disposition for a user-supplied name: an ASCII fallback without quotes, slashes or
 * control characters, and the exact name in RFC 5987 form.
 */
export function contentDisposition(fileName: string): string {
  const ascii =
    fileName
      .replace(/[^\x20-\x7e]/g, '_')
      .replace(/["\\/;%]/g, '_')
      .trim() || 'attachment';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

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
