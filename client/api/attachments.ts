import { httpResponse } from './http';

/** GET /api/attachments/{id}: the bytes of a file attached to a message. */
export async function fetchAttachment(id: string): Promise<Blob> {
  const res = await httpResponse('GET', `/api/attachments/${encodeURIComponent(id)}`);
  return res.blob();
}
