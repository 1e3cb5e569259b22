import { randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LibraryDocumentDto, LibrarySearchAnswer } from '@contract/library';
import { createTestApp, openTestDatabase, uniqueEmail, type TestApp } from '../../test-support/app';
import { call } from '../../test-support/accounts';
import {
  EMBEDDING_DIMENSIONS,
  startEmbeddingsServer,
  type EmbeddingsServer,
} from '../../test-support/embeddings-server';
import { createUser, signIn } from '../../test-support/factories';
import { addCompany, type CompanyWithDomains } from '../admin/companies';
import { closeToolPool } from '../analyst/tools/runner';
import type { Database } from '../db/connect';
import { libraryPassages } from '../db/schema';
import { BackgroundEmbedder, openAiEmbedder } from './embeddings';
import { fuseRankings, searchPassages } from './library.repo';
import { readPassages } from './library.service';

// Embeddings fused with full text (docs/decisions/0026-library-embeddings.md), against a local
// OpenAI-compatible /embeddings server whose vectors know synonyms full text does not. Run with
// pgvector (PGlite's extension) and without it (plain SQL cosine: PGlite without the extension,
// and this machine's PostgreSQL, which has no pgvector).

const tag = () => randomBytes(3).toString('hex');
const b64 = (s: string) => Buffer.from(s).toString('base64');

const LEAVE = `# Leave policy

## Annual leave
Employees receive 30 days of annual leave each calendar year.

## Sick days
Report sickness to your manager before 10:00.
`;
const TRAVEL = `# Travel policy

## Train travel
Train tickets are refunded in second class.
`;
const HOME = `# Remote work policy

## Working from home
Staff may work from home two days a week.
`;

describe('reciprocal rank fusion', () => {
  it('sums 1/(60 + rank) over the lists a passage is in', () => {
    const fused = fuseRankings([
      [{ id: 'a' }, { id: 'b' }, { id: 'c' }],
      [{ id: 'c' }, { id: 'a' }],
    ]);
    // a: 1/61 + 1/62 = 0.032522; c: 1/63 + 1/61 = 0.032266; b: 1/62 = 0.016129
    expect(fused.map((f) => f.id)).toEqual(['a', 'c', 'b']);
    expect(fused[0]!.fused).toBeCloseTo(0.032522, 6);
    expect(fused[1]!.fused).toBeCloseTo(0.032266, 6);
    expect(fused[2]!.fused).toBeCloseTo(0.016129, 6);
  });
});

for (const vectors of [true, false]) {
  describe(`library search with embeddings (${vectors ? 'pgvector where the database has it' : 'plain SQL cosine'})`, () => {
    let fake: EmbeddingsServer;
    let database: Database;
    let t: TestApp;
    let A: CompanyWithDomains;
    let B: CompanyWithDomains;
    const cookies = {} as Record<'adminA' | 'adminB' | 'memberA', string>;

    const upload = (who: keyof typeof cookies, fileName: string, content: string) =>
      call(
        t,
        'POST',
        '/api/library',
        { module: 'governance', fileName, base64: b64(content) },
        { cookie: cookies[who] },
      );
    const search = async (who: keyof typeof cookies, q: string) => {
      const res = await call(
        t,
        'GET',
        `/api/library/search?module=governance&q=${encodeURIComponent(q)}`,
        undefined,
        { cookie: cookies[who] },
      );
      expect(res.statusCode).toBe(200);
      return res.json<LibrarySearchAnswer>().passages;
    };
    const unembedded = async (companyId: number) => {
      const [row] = await database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(libraryPassages)
        .where(
          and(
            eq(libraryPassages.companyId, companyId),
            eq(libraryPassages.searchable, true),
            isNull(libraryPassages.embedding),
          ),
        );
      return row!.n;
    };
    /** The background embedder has reached every searchable passage of the company. */
    const embedded = async (companyId: number) => {
      for (const until = Date.now() + 30_000; Date.now() < until;) {
        if ((await unembedded(companyId)) === 0) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('the passages were not embedded in 30 s');
    };

    beforeAll(async () => {
      fake = await startEmbeddingsServer();
      database = await openTestDatabase({ vectors });
      t = await createTestApp({
        database,
        env: { EMBEDDINGS_URL: fake.baseUrl, EMBEDDINGS_MODEL: 'fake-embed' },
      });
      const db = database.db;
      A = await addCompany(db, { name: `Vec A ${tag()}`, emailDomains: [`veca-${tag()}.com`] });
      B = await addCompany(db, { name: `Vec B ${tag()}`, emailDomains: [`vecb-${tag()}.com`] });
      const make = async (
        who: keyof typeof cookies,
        companyId: number,
        domain: string,
        admin: boolean,
      ) => {
        const user = await createUser(db, {
          email: uniqueEmail(domain),
          companyId,
          ...(admin ? { role: 'admin' as const } : {}),
        });
        cookies[who] = await signIn(t, user);
      };
      await make('adminA', A.id, A.emailDomains[0]!, true);
      await make('memberA', A.id, A.emailDomains[0]!, false);
      await make('adminB', B.id, B.emailDomains[0]!, true);
      await readPassages('warm-up.txt', 'text/plain', Buffer.from('Warm up'));
      for (const [name, text] of [
        ['Leave policy.md', LEAVE],
        ['Travel policy.md', TRAVEL],
        ['Remote work policy.md', HOME],
      ] as const) {
        expect((await upload('adminA', name, text)).statusCode).toBe(201);
        // B's library holds the same documents with other figures.
        expect(
          (
            await upload(
              'adminB',
              name,
              text.replace(/\d+/g, (n) => `${Number(n) + 1}`),
            )
          ).statusCode,
        ).toBe(201);
      }
      await embedded(A.id);
      await embedded(B.id);
    }, 120_000);
    afterAll(async () => {
      await t?.close();
      await database?.close();
      await fake?.close();
      await closeToolPool();
    });

    it('states which ranking it uses: pgvector on PGlite with the extension, else plain SQL', () => {
      expect(database.pgvector).toBe(vectors && database.kind === 'pglite');
      expect(fake.models.every((m) => m === 'fake-embed')).toBe(true);
    });

    it('finds a passage that shares no word with the question once embeddings are on', async () => {
      const question = 'How much vacation do I get?';
      // Full text alone (no vectors): the leave passage is not found.
      const alone = await searchPassages(database.db, A.id, 'governance', question, 5);
      expect(alone.some((p) => p.headingPath.endsWith('Annual leave'))).toBe(false);

      const hits = await search('memberA', question);
      expect(hits[0]).toMatchObject({
        title: 'Leave policy',
        headingPath: 'Leave policy > Annual leave',
      });
      expect(hits[0]!.text).toContain('30 days');

      const home = await search('memberA', 'Is telework allowed?');
      expect(home[0]!.title).toBe('Remote work policy');
    });

    it('keeps what full text finds first at the top of the fused ranking', async () => {
      const q = 'train tickets second class';
      const fullText = await searchPassages(database.db, A.id, 'governance', q, 5);
      expect(fullText[0]!.title).toBe('Travel policy');
      const fused = await search('memberA', q);
      expect(fused[0]!.id).toBe(fullText[0]!.id);
      // A passage full text ranks first and vectors rank first scores 2/61.
      expect(fused[0]!.rank).toBeCloseTo(2 / 61, 6);
    });

    it('never returns another company’s passages, whatever the question', async () => {
      const listA = await call(t, 'GET', '/api/library?module=governance', undefined, {
        cookie: cookies.adminA,
      });
      const idsA = new Set(
        listA.json<{ documents: LibraryDocumentDto[] }>().documents.map((d) => d.id),
      );
      for (const q of ['How much vacation do I get?', '31 days of annual leave', 'telework', 'x']) {
        const hits = await search('memberA', q);
        expect(hits.length).toBeGreaterThan(0);
        for (const h of hits) expect(idsA.has(h.documentId)).toBe(true);
        expect(hits.some((h) => h.text.includes('31 days'))).toBe(false);
      }
      const hitsB = await search('adminB', 'How much vacation do I get?');
      expect(hitsB[0]!.text).toContain('31 days');
      expect(hitsB.every((h) => !idsA.has(h.documentId))).toBe(true);
    });

    it('an upload answers before its passages are embedded', async () => {
      let release!: () => void;
      fake.holdUntil = new Promise<void>((r) => (release = r));
      try {
        const res = await upload(
          'adminA',
          'Held policy.md',
          '# Held\n\n## Gifts\nGifts above 50 euros are declined.\n',
        );
        expect(res.statusCode).toBe(201);
        expect(await unembedded(A.id)).toBeGreaterThan(0);
        // Full text finds it meanwhile.
        expect((await search('memberA', 'gifts declined'))[0]!.title).toBe('Held policy');
      } finally {
        fake.holdUntil = null;
        release();
      }
      await embedded(A.id);
    });

    it('an endpoint that fails loses no document: full text serves, and the next upload embeds', async () => {
      fake.failing = true;
      try {
        const res = await upload(
          'adminA',
          'Expenses policy.md',
          '# Expenses\n\n## Meals\nMeals on trips are repaid up to 40 euros a day.\n',
        );
        expect(res.statusCode).toBe(201);
        // Searching with the question's vector failing: full text alone answers.
        const hits = await search('memberA', 'meals on trips');
        expect(hits[0]!.title).toBe('Expenses policy');
        const synonym = await search('memberA', 'How much vacation do I get?');
        expect(synonym.some((p) => p.title === 'Leave policy')).toBe(false);
        await new Promise((r) => setTimeout(r, 300));
        expect(await unembedded(A.id)).toBeGreaterThan(0);
      } finally {
        fake.failing = false;
      }
      expect(
        (
          await upload(
            'adminA',
            'Gifts policy.md',
            '# Gifts\n\n## Hospitality\nHospitality is logged.\n',
          )
        ).statusCode,
      ).toBe(201);
      await embedded(A.id);
      // Found by its synonym now that it is embedded ("reimbursed" ~ "repaid").
      const hits = await search('memberA', 'are meals reimbursed');
      expect(hits[0]!.title).toBe('Expenses policy');
    });

    it('ranks on the HNSW index of the model’s dimension where the database has pgvector', async () => {
      const rows = (await database.db.execute(
        sql`select indexdef from pg_indexes where indexname = ${`library_passages_embedding_${EMBEDDING_DIMENSIONS}_idx`}`,
      )) as unknown as { rows: Array<{ indexdef: string }> };
      if (!database.pgvector) {
        expect(rows.rows).toEqual([]);
        return;
      }
      expect(rows.rows[0]!.indexdef).toMatch(/USING hnsw .*vector_cosine_ops/);
      // The search's ordering is the one the index serves: with sorting priced out (a library
      // this small is cheaper to sort), the plan orders by the index.
      const plan = await database.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_sort = off`);
        const q = `[${Array.from({ length: EMBEDDING_DIMENSIONS }, (_, i) => (i ? 0 : 1)).join(',')}]`;
        return (await tx.execute(
          sql.raw(
            `explain select id from library_passages p where p.searchable and array_length(p.embedding, 1) = ${EMBEDDING_DIMENSIONS} order by p.embedding::vector(${EMBEDDING_DIMENSIONS}) <=> '${q}'::vector(${EMBEDDING_DIMENSIONS}) limit 5`,
          ),
        )) as unknown as { rows: Array<Record<string, string>> };
      });
      expect(plan.rows.map((r) => Object.values(r)[0]).join('\n')).toContain(
        `library_passages_embedding_${EMBEDDING_DIMENSIONS}_idx`,
      );
    });

    // Last: it leaves company A's vectors to the other model.
    it('compares only the configured model’s vectors; a changed model redoes them in the background', async () => {
      const q = 'How much vacation do I get?';
      const other = openAiEmbedder({
        baseUrl: fake.baseUrl,
        model: 'fake-embed-2',
        apiKey: undefined,
      });
      const withOther = { embedder: other, pgvector: database.pgvector === true };
      // Every stored vector is fake-embed's (the fake answers both models alike): none is ranked
      // against a fake-embed-2 question, so only full text answers and the synonym is not found.
      const before = await searchPassages(database.db, A.id, 'governance', q, 5, withOther);
      expect(before.some((p) => p.headingPath.endsWith('Annual leave'))).toBe(false);

      // A process started with the other model redoes the vectors in the background.
      const warnings: unknown[] = [];
      const background = new BackgroundEmbedder(database.db, other, (err) => warnings.push(err));
      background.kick();
      await background.idle();
      expect(warnings).toEqual([]);
      expect(fake.models).toContain('fake-embed-2');
      const after = await searchPassages(database.db, A.id, 'governance', q, 5, withOther);
      expect(after[0]!.headingPath).toBe('Leave policy > Annual leave');
      // The first model's questions now meet no vector of theirs.
      const first = await search('memberA', q);
      expect(first.some((p) => p.headingPath.endsWith('Annual leave'))).toBe(false);
    });
  });
}
