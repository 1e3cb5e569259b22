import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODULE_KEYS } from '@contract/modules';
import { openTestDatabase } from '../../test-support/app';
import { LIBRARY_QUESTIONS } from '../../test-support/fixtures/library/questions';
import { seededRandom } from '../../test-support/fixtures/random';
import { addCompany } from '../admin/companies';
import { libraryLanguageOf, splitPassages } from '../analyst/tools/library-passages';
import type { Database } from '../db/connect';
import { addVersion, searchPassages } from './library.repo';

// Retrieval over a small library of policies and guidelines in English and German: the quality
// set (at least 27 of 30 questions find their passage in the top 3, full text alone), and
// isolation: two companies hold similar documents and a search never returns the other's.

const DIR = 'test-support/fixtures/library';
const tag = () => randomBytes(3).toString('hex');

describe('library retrieval', () => {
  let database: Database;
  let A: number;
  let B: number;
  const idsOf = { A: new Set<number>(), B: new Set<number>() };

  beforeAll(async () => {
    database = await openTestDatabase();
    const db = database.db;
    A = (await addCompany(db, { name: `Retrieval A ${tag()}` })).id;
    B = (await addCompany(db, { name: `Retrieval B ${tag()}` })).id;
    for (const file of readdirSync(DIR).filter((f) => f.endsWith('.md'))) {
      const text = readFileSync(path.join(DIR, file), 'utf8');
      const module = file.startsWith('Brand') ? 'brand-hub' : 'governance';
      // B's copy is similar: the same documents with other figures.
      for (const [company, body] of [
        [A, text],
        [B, text.replace(/\d+/g, (n) => String(Number(n) + 1))],
      ] as const) {
        const added = await addVersion(
          db,
          {
            companyId: company,
            module,
            fileName: file,
            mimeType: 'text/markdown',
            data: Buffer.from(body),
            language: libraryLanguageOf(body),
            passages: splitPassages([{ page: null, text: body }]),
            addedBy: null,
          },
          1024 * 1024 * 1024,
        );
        (company === A ? idsOf.A : idsOf.B).add(added!.document.id);
      }
    }
  }, 120_000);
  afterAll(async () => {
    await database?.close();
  });

  it('reads the German documents as German and the others as English', () => {
    for (const file of readdirSync(DIR).filter((f) => f.endsWith('.md'))) {
      const expected = /richtlinie/i.test(file) ? 'german' : 'english';
      expect(libraryLanguageOf(readFileSync(path.join(DIR, file), 'utf8')), file).toBe(expected);
    }
  });

  it('finds the passage of at least 27 of 30 questions in the top 3', async () => {
    expect(LIBRARY_QUESTIONS).toHaveLength(30);
    const missed: string[] = [];
    for (const { q, title, clause } of LIBRARY_QUESTIONS) {
      const module = title === 'Brand guidelines' ? 'brand-hub' : 'governance';
      const hits = await searchPassages(database.db, A, module, q, 3);
      if (!hits.some((h) => h.title === title && h.clause === clause))
        missed.push(`${q} -> ${hits.map((h) => h.citation).join(' | ') || 'nothing'}`);
    }
    expect(missed.length, missed.join('\n')).toBeLessThanOrEqual(3);
  });

  it('folds accents: "Uberstunden" finds "Überstunden", "arztliche" finds "ärztliche"', async () => {
    const over = await searchPassages(database.db, A, 'governance', 'Uberstunden genehmigen', 1);
    expect(over[0]?.clause).toBe('2');
    expect(over[0]?.title).toBe('Arbeitszeitrichtlinie');
    const arzt = await searchPassages(database.db, A, 'governance', 'arztliche Bescheinigung', 1);
    expect(arzt[0]?.title).toBe('Arbeitszeitrichtlinie');
  });

  it("never returns another company's passage, whatever the request", async () => {
    const random = seededRandom(27);
    const words = LIBRARY_QUESTIONS.flatMap((x) => x.q.split(/\s+/));
    const requests = [
      ...LIBRARY_QUESTIONS.map((x) => x.q),
      "' or 1=1 --",
      'leave | !annual & (hotel:* <-> flight)',
      '\\ \0 % _ * : & | ! ( )',
      'x'.repeat(500),
      ...Array.from({ length: 40 }, () =>
        Array.from(
          { length: 1 + Math.floor(random() * 8) },
          () => words[Math.floor(random() * words.length)],
        ).join(' '),
      ),
    ];
    let seenA = 0;
    let seenB = 0;
    for (const q of requests) {
      for (const module of MODULE_KEYS) {
        for (const hit of await searchPassages(database.db, A, module, q, 50)) {
          expect(idsOf.A.has(hit.documentId), `${q}: ${hit.citation}`).toBe(true);
          seenA++;
        }
        for (const hit of await searchPassages(database.db, B, module, q, 50)) {
          expect(idsOf.B.has(hit.documentId), `${q}: ${hit.citation}`).toBe(true);
          seenB++;
        }
      }
    }
    // The searches found plenty: the isolation is not the absence of results.
    expect(seenA).toBeGreaterThan(100);
    expect(seenB).toBeGreaterThan(100);
    // B's figures are B's own: 28 days in A, 29 in B.
    const a = await searchPassages(database.db, A, 'governance', 'annual leave days', 1);
    const b = await searchPassages(database.db, B, 'governance', 'annual leave days', 1);
    expect(a[0]!.text).toContain('28 days');
    expect(b[0]!.text).toContain('29 days');
  });
});
