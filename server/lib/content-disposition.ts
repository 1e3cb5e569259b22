/**
 * Content-Disposition for a user-supplied name: an ASCII fallback without quotes, slashes or
 * control characters (Node refuses header bytes past Latin-1, so a raw title would fail the
 * answer), and the exact name in RFC 5987 form, which every current browser prefers.
 */
export function contentDisposition(fileName: string): string {
  const ascii =
    fileName
      .replace(/[^\x20-\x7e]/g, '_')
      .replace(/["\\/;%]/g, '_')
      .trim() || 'attachment';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
