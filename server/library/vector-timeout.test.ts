import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestDatabase } from '../../test-support/app';
import { startEmbeddingsServer, type EmbeddingsServer } from '../../test-support/embeddings-server';
import { addCompany } from '../admin/companies';
import { splitPassages } from '../analyst/tools/library-passages';
import type { Database } from '../db/connect';
import { embedPending, openAiEmbedder, type Embedder } from './embeddings';
import { VECTOR_TIMEOUT_MS, addVersion, searchPassages } from './library.repo';

// The vector ranking's bound on PostgreSQL without pgvector (docs/decisions/0026-library-embeddings.md):
// the plain-SQL cosine reads every vector, so it runs under a statement timeout of
// VECTOR_TIMEOUT_MS; past it the search answers with full text alone. PostgreSQL only: PGlite has
// one session, so nothing else can hold the ranking up.

const POLICY = `# Leave policy

## Annual leave
Employees receive 30 days of annual leave each calendar year.

## Sick days
Report sickness to your manager before 10:00.
`;

describe.runIf(inject('testDatabaseUrl'))('library vector ranking past its bound', () => {
  let fake: EmbeddingsServer;
  let database: Database;
  let company: number;

  beforeAll(async () => {
    fake = await startEmbeddingsServer();
    database = await openTestDatabase({ vectors: true });
    company = (
      await addCompany(database.db, { name: `Vector bound ${randomBytes(3).toString('hex')}` })
    ).id;
    await addVersion(
      database.db,
      {
        companyId: company,
        module: 'governance',
        fileName: 'Leave policy.md',
        mimeType: 'text/markdown',
        data: Buffer.from(POLICY),
        language: 'english',
        passages: splitPassages([{ page: null, text: POLICY }]),
        addedBy: null,
      },
      1 << 30,
    );
    await embedPending(
      database.db,
      openAiEmbedder({ baseUrl: fake.baseUrl, model: 'fake-embed', apiKey: undefined }),
    );
  });
  afterAll(async () => {
    await database?.close();
    await fake?.close();
  });

  it('answers with full text alone when the vector ranking is held up past it', async () => {
    // This machine's PostgreSQL has no pgvector: the plain-SQL ranking is the one bounded.
    expect(database.pgvector).toBe(false);
    const q = 'annual leave days';
    const fullText = await searchPassages(database.db, company, 'governance', q, 5);
    expect(fullText[0]!.headingPath).toBe('Leave policy > Annual leave');

    // Another session takes library_versions (which the vector ranking joins) exclusively once
    // the full-text ranking is done, as the question is embedded: the vector ranking waits.
    const holder = new pg.Client({ connectionString: inject('testDatabaseUrl')! });
    await holder.connect();
    const real = openAiEmbedder({ baseUrl: fake.baseUrl, model: 'fake-embed', apiKey: undefined });
    const embedder: Embedder = {
      model: real.model,
      async embed(texts, signal) {
        const vectors = await real.embed(texts, signal);
        await holder.query('begin');
        await holder.query('lock table library_versions in access exclusive mode');
        return vectors;
      },
    };
    const warnings: string[] = [];
    try {
      const search = searchPassages(database.db, company, 'governance', q, 5, {
        embedder,
        pgvector: false,
        warn: (err, what) => warnings.push(`${what}: ${String((err as Error).cause ?? err)}`),
      });
      // Held well past the bound, and released only after: without it the search would wait for
      // the lock (or the connection's 10 s statement timeout).
      const outcome = await Promise.race([
        search,
        new Promise<'still waiting'>((r) =>
          setTimeout(() => r('still waiting'), 4 * VECTOR_TIMEOUT_MS),
        ),
      ]);
      expect(outcome).not.toBe('still waiting');
      const hits = outcome as Awaited<typeof search>;
      expect(hits.map((h) => h.id)).toEqual(fullText.map((h) => h.id));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/vector ranking failed or took too long.*statement timeout/);
    } finally {
      await holder.query('rollback').catch(() => undefined);
      await holder.end();
    }
  }, 30_000);
});
