// Types only: the zip reader loads with the first archive (ADR 0104).
import type yauzl from 'yauzl';

/**
 * Office files (DOCX, XLSX) are zip archives. A few megabytes can expand to gigabytes (a 7.3 MB
 * DOCX to 2.15 GB, which took 4.3 GB of memory to read), so every archive is checked before a
 * reader unpacks it: its number of parts and its size unpacked. The sizes an archive declares
 * may lie; yauzl checks each part's real size against its declaration as it inflates (streamed,
 * nothing kept), so what the reader then unpacks is what was counted.
 */

/** Far above any real workbook or document (an 850,000-row sheet unpacks to about 150 MB). */
export const MAX_UNPACKED_BYTES = 400 * 1024 * 1024;
/** Parts of one archive (a document has tens, a workbook one per sheet and a few more). */
export const MAX_ARCHIVE_ENTRIES = 10_000;

export type ArchiveCheck = { ok: true } | { ok: false; reason: 'too-big' | 'damaged' };

/** Whether an archive stays within the limits; 'damaged' when it cannot be read as a zip. */
export async function checkArchive(data: Buffer): Promise<ArchiveCheck> {
  const { default: zipReader } = await import('yauzl');
  let zip: yauzl.ZipFile;
  try {
    zip = await zipReader.fromBufferPromise(data, { lazyEntries: true, validateEntrySizes: true });
  } catch {
    return { ok: false, reason: 'damaged' };
  }
  try {
    if (zip.entryCount > MAX_ARCHIVE_ENTRIES) return { ok: false, reason: 'too-big' };
    const entries: yauzl.Entry[] = [];
    let declared = 0;
    for await (const entry of zip.eachEntry()) {
      declared += entry.uncompressedSize;
      if (declared > MAX_UNPACKED_BYTES) return { ok: false, reason: 'too-big' };
      entries.push(entry);
    }
    for (const entry of entries) {
      if (entry.fileName.endsWith('/')) continue;
      const stream = await zip.openReadStreamPromise(entry);
      try {
        for await (const chunk of stream) void chunk;
      } catch (err) {
        // "too many bytes in the stream": the part unpacks to more than it declares.
        return { ok: false, reason: /too many bytes/.test(String(err)) ? 'too-big' : 'damaged' };
      }
    }
    return { ok: true };
  } catch {
    return { ok: false, reason: 'damaged' };
  } finally {
    zip.close();
  }
}

/** What a user reads when their archive is refused as too big unpacked. */
export function tooBigMessage(fileName: string): string {
  return `${fileName} unpacks to more than ${MAX_UNPACKED_BYTES / (1024 * 1024)} MB (or holds more than ${MAX_ARCHIVE_ENTRIES.toLocaleString('en-US')} parts), more than the analysis may read. Attach a smaller file, or export the data as CSV.`;
}
