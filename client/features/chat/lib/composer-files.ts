import type { ComposerFile } from './send-rules';

/** A file or blob as a base64 data URL, the form the composer sends. */
export function readAsDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(blob);
  });
}

/** A composer attachment made from bytes (a picked file, or a stored attachment to resend). */
export async function toComposerFile(
  blob: Blob,
  name: string,
  type?: string,
): Promise<ComposerFile> {
  return {
    name,
    dataUrl: await readAsDataUrl(blob),
    type: type || blob.type || 'application/octet-stream',
    size: blob.size,
  };
}
