import { afterAll, describe, expect, it } from 'vitest';
import { closeToolPool, runTool } from '../tools/runner';
import type { HistoryAttachment } from '../types';
import { MAX_ARCHIVE_ENTRIES, tooBigMessage } from './archive-limits';
import { docxBomb, xlsxBomb, zipOf } from '../../../test-support/fixtures/zip-bomb';

// A few megabytes of DOCX or XLSX could unpack to gigabytes in the analysis workers, which share
// the process's memory: one such file took the process to 4.3 GB.

afterAll(() => closeToolPool());

const GB = 1024 * 1024 * 1024;
const docx = (data: Buffer): HistoryAttachment => ({
  fileName: 'bomb.docx',
  mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  data,
});
const xlsx = (data: Buffer): HistoryAttachment => ({
  fileName: 'bomb.xlsx',
  mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  data,
});

/** The call's answer and how far the process's memory rose above where it was while it ran. */
async function withPeakMemory<T>(fn: () => Promise<T>): Promise<{ value: T; risenMb: number }> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  try {
    const value = await fn();
    return { value, risenMb: (Math.max(peak, process.memoryUsage.rss()) - before) / 2 ** 20 };
  } finally {
    clearInterval(sampler);
  }
}

describe('archives that unpack to far more than they weigh', () => {
  it('refuses a DOCX that unpacks to 2 GB, with a clear message and little memory', async () => {
    const bomb = docxBomb(2 * GB);
    expect(bomb.length).toBeLessThan(4 * 1024 * 1024);
    const { value, risenMb } = await withPeakMemory(() =>
      runTool('read_document', { file: 'bomb.docx' }, [docx(bomb)]),
    );
    expect(value).toEqual({ error: tooBigMessage('bomb.docx') });
    expect(risenMb).toBeLessThan(400);
  });

  it('refuses an XLSX that unpacks to 2 GB, also when it declares a small size', async () => {
    for (const declare of [undefined, 1024]) {
      const { value, risenMb } = await withPeakMemory(() =>
        runTool('read_tables', {}, [xlsx(xlsxBomb(2 * GB, declare))]),
      );
      expect(value, `declared ${declare ?? 'honestly'}`).toEqual({
        error: tooBigMessage('bomb.xlsx'),
      });
      expect(risenMb).toBeLessThan(400);
    }
  });

  it('refuses an archive of too many parts', async () => {
    const many = zipOf(
      Array.from({ length: MAX_ARCHIVE_ENTRIES + 1 }, (_, i) => ({ name: `p${i}.xml`, text: '' })),
    );
    expect(await runTool('read_document', { file: 'bomb.docx' }, [docx(many)])).toEqual({
      error: tooBigMessage('bomb.docx'),
    });
  });
});
