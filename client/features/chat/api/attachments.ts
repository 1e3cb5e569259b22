import { apiRequest } from '@/lib/api';
import { toast } from '@/hooks/use-toast';
import { downloadBlob } from '@/lib/download';

/** GET /api/attachments/{id}: the bytes of a file attached to a message. */
export async function fetchAttachment(id: string): Promise<Blob> {
  const res = await apiRequest('GET', `/api/attachments/${encodeURIComponent(id)}`);
  return res.blob();
}

/** The bytes of a file attached to a message, downloaded under its name. */
export async function downloadAttachment(id: string, fileName: string): Promise<void> {
  try {
    downloadBlob(fileName, await fetchAttachment(id));
    toast({ title: 'File downloaded' });
  } catch {
    toast({
      variant: 'destructive',
      title: 'Error',
      description: 'Failed to download file. Please try again.',
    });
  }
}
