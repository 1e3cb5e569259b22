import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { StructuredResponse } from '@contract/structured-response';
import { builtinAgent } from '../../providers/builtin';
import { citationLink, type KnowledgePassage, type TurnLibrary } from '../../tools/knowledge';
import type { SplitPassage } from '../../tools/library-passages';
import { closeToolPool, runTool } from '../../tools/runner';
import type { HistoryAttachment } from '../../types';
import { chartOf, fileOfBytes, textOf, user } from '../../../../test-support/analyst/ask';
import { runTurn } from '../../../../test-support/analyst/turns';
import { BANDS, bandsCsv, workforceCsv } from '../../../../test-support/fixtures/starters';
import { AS_OF, employedOn, workforce } from '../../../../test-support/fixtures/workforce';
import { amountOf, libraryBandsOf } from './library-bands';

/**
 * A band check uses the pay bands of the company library (ADR 0082): with an HR export attached
 * and no band file, the builtin searches the Talent Intelligence library, applies the bands of
 * its pay band document, names it and cites it; an attached band file wins and the report says
 * so; a library without pay bands changes nothing. The library documents are read into passages
 * by the library's own reader (library_passages in the worker pool); the library here answers
 * a search with every passage that shares a word with the query, best first.
 */

afterAll(() => closeToolPool());

const people = workforce();
const current = people.filter((p) => employedOn(p, AS_OF) && p.salary !== null);
const hr = () => fileOfBytes('hr-export.csv', workforceCsv(people));
const REQUEST = 'Check our salary bands: who is paid outside their band?';

/** The library's bands: other limits than the attached file's, so the counts tell them apart. */
const LIBRARY_BANDS = [
  { grade: 'G1', min: 30000, mid: 32000, max: 34000 },
  { grade: 'G2', min: 38000, mid: 44000, max: 50000 },
  { grade: 'G3', min: 48000, mid: 55000, max: 62000 },
  { grade: 'G4', min: 60000, mid: 70000, max: 80000 },
  { grade: 'G5', min: 86000, mid: 98000, max: 110000 },
];

async function bandsXlsx(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Bands 2026');
  sheet.addRow(['Grade', 'Minimum', 'Midpoint', 'Maximum']);
  for (const b of LIBRARY_BANDS) sheet.addRow([b.grade, b.min, b.mid, b.max]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

const LEAVE_POLICY = `# Leave policy

## 1 Annual leave
Every employee has 28 days of annual leave a year, pro rata for part-time staff.

## 2 Carry-over
Up to five days carry over to the next year; the rest lapses on 31 March.
`;

interface LibraryDoc {
  id: number;
  fileName: string;
  version: number;
  data: Buffer;
}

/** A library of these documents, read into passages by the library's reader. */
async function libraryOf(docs: LibraryDoc[]): Promise<TurnLibrary> {
  const passages: KnowledgePassage[] = [];
  for (const d of docs) {
    const read = (await runTool('library_passages', {}, [
      fileOfBytes(d.fileName, d.data) as HistoryAttachment,
    ])) as { passages: SplitPassage[] };
    const title = d.fileName.replace(/\.[a-z]+$/, '');
    for (const p of read.passages) {
      const id = d.id * 100 + p.ordinal;
      const heading = p.headingPath.split(' > ').pop() ?? '';
      passages.push({
        id,
        documentId: d.id,
        title,
        version: d.version,
        headingPath: p.headingPath,
        clause: p.clause,
        page: p.page,
        citation: `${title} v${d.version}${heading ? `, ${heading}` : ''}`,
        link: citationLink('talent-intelligence', d.id, d.version, id),
        text: p.text,
      });
    }
  }
  const wordsOf = (s: string) => new Set(s.toLowerCase().match(/\p{L}+/gu) ?? []);
  return {
    titles: docs.map((d) => ({ title: d.fileName.replace(/\.[a-z]+$/, ''), version: d.version })),
    async search(query, limit = 8) {
      const q = wordsOf(query);
      return passages
        .map((p) => ({ p, n: [...wordsOf(`${p.title} ${p.text}`)].filter((w) => q.has(w)).length }))
        .filter((x) => x.n > 0)
        .sort((a, b) => b.n - a.n)
        .slice(0, limit)
        .map((x) => x.p);
    },
  };
}

async function check(attachments: HistoryAttachment[], library?: TurnLibrary) {
  const turn = await runTurn(
    builtinAgent(),
    'talent-intelligence',
    [user(REQUEST, attachments)],
    undefined,
    0,
    library,
  );
  const report = StructuredResponse.parse(turn.report);
  const calls = turn.thinking.flatMap((l) => /^Running (\w+)/.exec(l)?.[1] ?? []);
  return { report, text: textOf(report.content), calls };
}

/** Below the minimum and above the maximum per grade, counted here from the people. */
function outsideCounts(bands: Array<{ grade: string; min: number; max: number }>) {
  return {
    below: bands.map((b) => current.filter((p) => p.level === b.grade && p.salary! < b.min).length),
    above: bands.map((b) => current.filter((p) => p.level === b.grade && p.salary! > b.max).length),
  };
}

const outsideChart = (report: StructuredResponse) => {
  const data = chartOf(report.content, 'People outside their band by grade')!.config.data;
  return {
    labels: data.labels,
    below: data.datasets.find((d) => d.label === 'Below minimum')!.data,
    above: data.datasets.find((d) => d.label === 'Above maximum')!.data,
  };
};

describe('a band check uses the pay bands in the library', () => {
  it('applies the bands of the library document when no band file is attached, and cites it', async () => {
    const library = await libraryOf([
      { id: 7, fileName: 'Leave policy.md', version: 1, data: Buffer.from(LEAVE_POLICY) },
      { id: 9, fileName: 'Pay bands 2026.xlsx', version: 2, data: await bandsXlsx() },
    ]);
    const { report, text, calls } = await check([hr()], library);
    expect(calls).toContain('search_knowledge');
    expect(calls).toContain('ti_salary_bands');
    const expected = outsideCounts(LIBRARY_BANDS);
    expect(outsideChart(report)).toEqual({
      labels: LIBRARY_BANDS.map((b) => b.grade),
      ...expected,
    });
    const total = [...expected.below, ...expected.above].reduce((a, b) => a + b, 0);
    const below = expected.below.reduce((a, b) => a + b, 0);
    expect(text).toContain(
      `**${total} people** paid outside their band (${below} below the minimum, ${total - below} above the maximum)`,
    );
    // Named with its version and cited as a link to the passage holding the table.
    const [passage] = await library.search('Grade Minimum Maximum');
    expect(passage!.documentId).toBe(9);
    expect(text).toContain(
      `Bands from Pay bands 2026 v2 in the company library ([${passage!.citation}](/talent-intelligence?library=9&version=2&passage=${passage!.id}))`,
    );
    expect(text).not.toContain('Leave policy');
  });

  it('applies the library bands in another take too', async () => {
    const library = await libraryOf([
      { id: 9, fileName: 'Pay bands 2026.xlsx', version: 2, data: await bandsXlsx() },
    ]);
    const turn = await runTurn(
      builtinAgent(),
      'talent-intelligence',
      [user(REQUEST, [hr()])],
      undefined,
      1,
      library,
    );
    const report = StructuredResponse.parse(turn.report);
    expect(textOf(report.content)).toContain('Bands from Pay bands 2026 v2 in the company library');
    expect(outsideChart(report)).toEqual({
      labels: LIBRARY_BANDS.map((b) => b.grade),
      ...outsideCounts(LIBRARY_BANDS),
    });
  });

  it('uses an attached band file over the library and says it won', async () => {
    const library = await libraryOf([
      { id: 9, fileName: 'Pay bands 2026.xlsx', version: 2, data: await bandsXlsx() },
    ]);
    const { report, text } = await check(
      [hr(), fileOfBytes('bands.csv', bandsCsv(BANDS))],
      library,
    );
    expect(outsideChart(report)).toEqual({
      labels: BANDS.map((b) => b.grade),
      ...outsideCounts(BANDS),
    });
    expect(text).toContain(
      'The bands attached in this chat (bands.csv) were applied: an attachment wins over the company library, so Pay bands 2026 v2 in the library was not used.',
    );
    expect(text).not.toContain('Bands from Pay bands');
  });

  it('gives the answer of today when the library holds no pay bands', async () => {
    const without = await check([hr(), fileOfBytes('bands.csv', bandsCsv(BANDS))]);
    const library = await libraryOf([
      { id: 7, fileName: 'Leave policy.md', version: 1, data: Buffer.from(LEAVE_POLICY) },
    ]);
    const withLeave = await check([hr(), fileOfBytes('bands.csv', bandsCsv(BANDS))], library);
    expect(withLeave.text).toBe(without.text);
    expect(withLeave.text).not.toContain('company library');
    // No band file at all: the same request for one as today.
    const none = await check([hr()], library);
    expect(none.text).toContain(
      'No salary bands among the attachments: attach them as CSV or XLSX',
    );
  });

  it('says in one line when the library speaks of pay bands but gives no band rows', async () => {
    const prose = '# Pay bands 2026\n\nPay bands are reviewed every April by the reward team.\n';
    const library = await libraryOf([
      { id: 4, fileName: 'Pay bands 2026.md', version: 1, data: Buffer.from(prose) },
    ]);
    const { text } = await check([hr()], library);
    expect(text).toContain(
      'No salary bands among the attachments, and no band rows (grade, minimum, maximum) could be read from Pay bands 2026 v1 in the company library',
    );
  });
});

describe('band rows from library passages', () => {
  const passage = (id: number, text: string, documentId = 1): KnowledgePassage => ({
    id,
    documentId,
    title: 'Pay bands 2026',
    version: 3,
    headingPath: '',
    clause: null,
    page: null,
    citation: `Pay bands 2026 v3 #${id}`,
    link: citationLink('talent-intelligence', documentId, 3, id),
    text,
  });

  it('reads a CSV passage with quoted thousands and a table cut across two passages', () => {
    const csv = libraryBandsOf({
      query: 'q',
      passages: [
        passage(
          1,
          'Grade,Band Min,Band Mid,Band Max\nL1,"28,000","32,000","36,000"\nL2,"€40,500",45000,"50,000"',
        ),
      ],
    });
    expect(csv?.source).toBe('Pay bands 2026 v3');
    expect(csv?.bands).toEqual([
      { band: 'L1', min: 28000, max: 36000 },
      { band: 'L2', min: 40500, max: 50000 },
    ]);
    // A DOCX table: rows with " | ", the header only in the passage before.
    const docx = libraryBandsOf({
      query: 'q',
      passages: [
        passage(2, 'Engineering | 3 | x | y\nmore text'),
        passage(3, '4 Bands\nGrade | Minimum | Maximum\nE1 | 50.000 | 60.000'),
        passage(4, 'E2 | 58.000 | 72.000\nE3 | 70.000 | 90.000'),
      ],
    });
    expect(docx?.bands.map((b) => [b.band, b.min, b.max])).toEqual([
      ['E1', 50000, 60000],
      ['E2', 58000, 72000],
      ['E3', 70000, 90000],
    ]);
    expect(docx?.passages.map((p) => p.citation)).toEqual([
      'Pay bands 2026 v3 #3',
      'Pay bands 2026 v3 #4',
    ]);
    expect([amountOf('n/a'), amountOf('29.000,00'), amountOf('31 500')]).toEqual([
      null,
      29000,
      31500,
    ]);
  });
});
