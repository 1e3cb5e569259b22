import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test-support/app';
import { addCompany } from '../admin/companies';
import { splitPassages } from '../analyst/tools/library-passages';
import type { Database } from '../db/connect';
import {
  RANKED_AT_MOST,
  addVersion,
  deleteDocument,
  matchQueries,
  matchQuery,
  recountTerms,
  searchPassages,
  setRetired,
} from './library.repo';

// The lexeme counts that let a search over a large library rank a few thousand passages
// (docs/decisions/0068-library-search-at-scale.md): kept in step with what is searchable through
// add, replace, retire, restore and delete; and the narrowed match.

const tag = () => randomBytes(3).toString('hex');

describe('library lexeme counts', () => {
  let database: Database;
  let company: number;

  beforeAll(async () => {
    database = await openTestDatabase();
    company = (await addCompany(database.db, { name: `Terms ${tag()}` })).id;
  });
  afterAll(async () => {
    await database?.close();
  });

  const counts = async () => {
    const rows = (await database.db.execute(
      sql`select lexeme, passages from library_terms where company_id = ${company} and module = 'governance' order by lexeme`,
    )) as unknown as { rows: Array<{ lexeme: string; passages: number }> };
    return rows.rows.map((r) => `${r.lexeme}:${r.passages}`);
  };
  const add = (fileName: string, body: string) =>
    addVersion(
      database.db,
      {
        companyId: company,
        module: 'governance',
        fileName,
        mimeType: 'text/markdown',
        data: Buffer.from(body),
        language: 'english',
        passages: splitPassages([{ page: null, text: body }]),
        addedBy: null,
      },
      1 << 30,
    );

  it('counts each word once per searchable passage, through replace, retire, restore and delete', async () => {
    const travel = await add(
      'Travel.md',
      '# 1 Flights\n\nFlights need approval.\n\n# 2 Hotels\n\nHotels need a receipt.',
    );
    await add('Gifts.md', '# 1 Gifts\n\nGifts over 50 EUR need approval.');
    // What a recount from the searchable passages finds, after each change.
    const expectInStep = async () => {
      const kept = await counts();
      await recountTerms(database.db, company, 'governance');
      expect(kept).toEqual(await counts());
      return kept;
    };
    const first = await expectInStep();
    // "need" is in all three passages, "approv" in the flights one and the gifts one.
    expect(first).toContain('need:3');
    expect(first).toContain('approv:2');

    await add('Travel.md', '# 1 Flights\n\nFlights are booked by the travel desk.');
    const replaced = await expectInStep();
    expect(replaced).toContain('approv:1');
    expect(replaced.some((c) => c.startsWith('hotel:'))).toBe(false);

    await setRetired(database.db, company, travel!.document.id, true);
    expect((await expectInStep()).some((c) => c.startsWith('desk:'))).toBe(false);
    // Retiring twice changes nothing.
    await setRetired(database.db, company, travel!.document.id, true);
    await expectInStep();
    await setRetired(database.db, company, travel!.document.id, false);
    expect(await expectInStep()).toContain('desk:1');

    await deleteDocument(database.db, company, travel!.document.id);
    expect((await expectInStep()).some((c) => c.startsWith('desk:'))).toBe(false);
    expect(
      (await searchPassages(database.db, company, 'governance', 'travel desk flights', 5)).length,
    ).toBe(0);
    const gifts = await searchPassages(database.db, company, 'governance', 'gifts approval', 5);
    expect(gifts.map((h) => h.title)).toEqual(['Gifts']);
  });

  it('matches every word of a small library, the rarest words of a large one', () => {
    const small = [
      { lexeme: 'leav', passages: 40 },
      { lexeme: 'annual', passages: 10 },
      { lexeme: 'absent', passages: 0 },
    ];
    expect(matchQuery(small, 500)).toBe("'annual' | 'leav'");
    expect(matchQuery([{ lexeme: 'absent', passages: 0 }], 500)).toBeNull();

    // One rare word fits under the limit; the common ones are left to the ranking.
    const large = [
      { lexeme: 'employe', passages: 60_000 },
      { lexeme: 'parent', passages: 600 },
      { lexeme: 'leav', passages: 30_000 },
    ];
    expect(matchQuery(large, 100_000)).toBe("('parent')");

    // Every word is common: pairs (estimated as independent) until the limit.
    const common = [
      { lexeme: 'a', passages: 20_000 },
      { lexeme: 'b', passages: 20_000 },
      { lexeme: 'c', passages: 20_000 },
    ];
    // 20,000 x 20,000 / 100,000 = 4,000 a pair, over the limit: triples (800 each), one of them.
    expect(RANKED_AT_MOST).toBeLessThan(4_000);
    expect(matchQuery(common, 100_000)).toBe("('a' & 'b' & 'c')");
    // When three common words never meet, the search falls back to two of them, then one.
    expect(matchQueries(common, 100_000)).toEqual(["('a' & 'b' & 'c')", "('a' & 'b')", "('a')"]);
    expect(matchQueries(small, 500)).toEqual(["'annual' | 'leav'"]);
    // Lexemes of two configurations never meet in one passage: words are combined within one
    // reading of the question only, and each reading falls back to its own rarest words.
    const read = (config: string, counts: Record<string, number>) =>
      Object.entries(counts).map(([lexeme, passages]) => ({ lexeme, passages, config }));
    const twoReadings = [
      ...read('library_english', { hospit: 7_000, gift: 18_000, report: 18_000 }),
      ...read('library_german', { hospitality: 11_000, gift: 18_000, report: 18_000 }),
    ];
    const matches = matchQueries(twoReadings, 100_000);
    for (const match of matches) expect(match).not.toMatch(/'hospit' & 'hospitality'/);
    expect(matches).toEqual([
      "('hospit' & 'gift' & 'report') | ('hospitality' & 'gift' & 'report')",
      "('hospit' & 'gift') | ('hospitality' & 'gift')",
      "('hospit') | ('hospitality')",
    ]);
    // A quote in a lexeme stays inside it.
    expect(matchQuery([{ lexeme: "o'neil", passages: 1 }], 10)).toBe("'o''neil'");
  });
});
