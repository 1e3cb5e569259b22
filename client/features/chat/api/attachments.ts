import { fetchAttachment } from '@/api/attachments';
import { toast } from '@/hooks/use-toast';
import { downloadBlob } from '@/lib/download';

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
