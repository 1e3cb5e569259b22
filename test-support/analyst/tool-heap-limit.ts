/**
 * Run as its own process by server/analyst/tools/heap-limit.test.ts: the pool configured from the
 * environment as main.ts configures it (ANALYSIS_WORKER_HEAP_MB), a long DOCX whose reading fills
 * a small worker heap, then another user's short DOCX on the same pool. Prints the answers as JSON.
 */
import { closeToolPool, configureToolPool, runTool } from '../../server/analyst/tools/runner';
import type { HistoryAttachment } from '../../server/analyst/types';
import { loadConfig } from '../../server/config';
import { docx, type Para } from '../fixtures/documents/writers';

configureToolPool(loadConfig());

const word = async (fileName: string, paragraphs: Para[]): Promise<HistoryAttachment> => ({
  fileName,
  mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  data: await docx(paragraphs),
});

// A register pasted into a handbook: mammoth holds the whole document, its table of 30,000 rows
// included, as objects while it reads it, many times the file's few MB.
const rows = Number(process.argv[2] ?? 30_000);
const handbook = await word('handbook.docx', [
  ['Title', 'Employee handbook'],
  ['Heading1', '1. Who works where'],
  [
    'Table',
    [
      ['Employee', 'Department', 'Location', 'Manager'],
      ...Array.from({ length: rows }, (_, i) => [
        `Employee ${i}`,
        `Department ${i % 40}`,
        `Office ${i % 12}`,
        `Manager ${i % 300}`,
      ]),
    ],
  ],
]);
const policy = await word('policy.docx', [
  ['Heading1', 'Travel policy'],
  [null, 'Economy class for flights under six hours.'],
]);

// Two users at once, so that both workers meet the limit and the next call needs a new one.
const large = await Promise.all(
  ['handbook.docx', 'handbook-copy.docx'].map((file) =>
    runTool('read_document', { file }, [{ ...handbook, fileName: file }]),
  ),
);
const next = await runTool('read_document', { file: 'policy.docx' }, [policy]);
await closeToolPool();
process.stdout.write(`${JSON.stringify({ large, next })}\n`);
