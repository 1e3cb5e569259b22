import { crc32, constants, deflateRawSync } from 'node:zlib';

/**
 * Small zip archives that unpack to a lot: built by hand, because the point is an archive no
 * honest writer makes (one declaring less than it holds). The deflate stream is one flushed
 * block of zeros repeated: a sync flush ends byte-aligned and not final, so copies chain into
 * one valid stream, closed by an empty final block.
 */

const BLOCK = 16 * 1024 * 1024;
const block = deflateRawSync(Buffer.alloc(BLOCK), { finishFlush: constants.Z_SYNC_FLUSH });
const FINAL = deflateRawSync(Buffer.alloc(0));

export interface BombEntry {
  name: string;
  /** Bytes of zeros it unpacks to (a multiple of 16 MB), or text stored as is. */
  zeros?: number;
  text?: string;
  /** The uncompressed size the archive declares; the real one unless lying. */
  declare?: number;
}

/** A zip archive of the given entries. */
export function zipOf(entries: BombEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    let data: Buffer;
    let size: number;
    let crc: number;
    if (e.zeros !== undefined) {
      const copies = Math.round(e.zeros / BLOCK);
      data = Buffer.concat([...Array<Buffer>(copies).fill(block), FINAL]);
      size = copies * BLOCK;
      crc = 0;
      const zeros = Buffer.alloc(BLOCK);
      for (let i = 0; i < copies; i++) crc = crc32(zeros, crc);
    } else {
      const raw = Buffer.from(e.text ?? '');
      data = deflateRawSync(raw);
      size = raw.length;
      crc = crc32(raw);
    }
    const name = Buffer.from(e.name);
    const declared = e.declare ?? size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(declared, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>`;

/** A DOCX-shaped archive whose document part unpacks to `bytes` of zeros. */
export const docxBomb = (bytes: number, declare?: number) =>
  zipOf([
    { name: '[Content_Types].xml', text: CONTENT_TYPES },
    { name: 'word/document.xml', zeros: bytes, declare },
  ]);

/** An XLSX-shaped archive whose sheet unpacks to `bytes` of zeros. */
export const xlsxBomb = (bytes: number, declare?: number) =>
  zipOf([
    { name: '[Content_Types].xml', text: CONTENT_TYPES },
    { name: 'xl/workbook.xml', text: '<workbook/>' },
    { name: 'xl/worksheets/sheet1.xml', zeros: bytes, declare },
  ]);
