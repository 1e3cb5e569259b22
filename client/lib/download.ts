/** Browser downloads: a Blob behind a temporary object URL, clicked through a hidden link. */
export function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoke after the click has been handled; revoking at once can cancel the download.
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

/** MIME type of a text deliverable by extension, so the saved file opens in the right program. */
export function mimeTypeOf(fileName: string): string {
  const ext = fileName.toLowerCase().split('.').pop() ?? '';
  const types: Record<string, string> = {
    md: 'text/markdown',
    markdown: 'text/markdown',
    html: 'text/html',
    htm: 'text/html',
    csv: 'text/csv',
    json: 'application/json',
    txt: 'text/plain',
  };
  return `${types[ext] ?? 'text/plain'};charset=utf-8`;
}

export function downloadText(fileName: string, text: string): void {
  downloadBlob(fileName, new Blob([text], { type: mimeTypeOf(fileName) }));
}

/** Downloads a `data:` URL (a PNG from a canvas) or a same-origin address under the given name. */
export function downloadDataUrl(fileName: string, dataUrl: string): void {
  const a = document.createElement('a');
  a.href = dataUrl;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** Downloads a same-origin address (the server names the file and records the download). */
export const downloadUrl = downloadDataUrl;

/** View is offered for .md, .txt and .html only (spec sections 2 and 9). */
export function isViewable(fileName: string): boolean {
  const ext = fileName.toLowerCase().split('.').pop() ?? '';
  return ext === 'md' || ext === 'txt' || ext === 'html';
}
