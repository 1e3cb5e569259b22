import type { EmbeddingModel, embedMany as EmbedMany } from 'ai';
import { and, asc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { EmbeddingsConfig } from '../config';
import type { Database, DbOrTx } from '../db/connect';
import { libraryPassages } from '../db/schema';

// Embeddings for the library (docs/decisions/0026-library-embeddings.md): when an
// OpenAI-compatible `/embeddings` endpoint is configured, passages are embedded in the
// background after they are written and a question at search time; the vector ranking is fused
// with the full-text one. Embedding is network I/O, never CPU work on the event loop; a failure
// leaves the passages without a vector, and full text serves them.

export interface Embedder {
  model: string;
  /** One unit-length vector per text, in order. */
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

/** What a search needs to add the vector ranking; null when no endpoint is configured. */
export interface LibraryVectors {
  embedder: Embedder;
  /** The database has pgvector (its `<=>` on a cast); otherwise cosine in plain SQL. */
  pgvector: boolean;
  /** Told when the endpoint fails (the search goes on with full text). */
  warn?: (err: unknown, what: string) => void;
}

/** Passages sent per request. */
export const EMBED_BATCH = 32;
/** Characters of a passage embedded (heading path and text); models take a few thousand tokens. */
const EMBED_CHARS = 8_000;
/** A question waits this long for its vector, then full text answers alone. */
export const QUERY_EMBED_TIMEOUT_MS = 5_000;
/** A batch of passages waits this long. */
const BATCH_EMBED_TIMEOUT_MS = 60_000;

/** Unit length, so cosine similarity is a dot product in plain SQL; refuses what is no vector. */
export function unitVector(v: readonly number[]): number[] {
  if (!v.length || !v.every(Number.isFinite)) throw new Error('The embedding is not a vector');
  const norm = Math.hypot(...v);
  if (!norm) throw new Error('The embedding is all zeros');
  return v.map((x) => x / norm);
}

/** A PostgreSQL `real[]` literal. */
export const realArray = (v: readonly number[]) => `{${v.join(',')}}`;
/** A pgvector literal. */
export const vectorLiteral = (v: readonly number[]) => `[${v.join(',')}]`;

/**
 * The configured endpoint through the AI SDK's OpenAI-compatible provider; the SDK loads with the
 * first embedding, not with the server (ADR 0104).
 */
export function openAiEmbedder(config: EmbeddingsConfig): Embedder {
  let sdk: Promise<{ model: EmbeddingModel; embedMany: typeof EmbedMany }> | undefined;
  const loadSdk = async () => {
    const [{ embedMany }, { createOpenAICompatible }] = await Promise.all([
      import('ai'),
      import('@ai-sdk/openai-compatible'),
    ]);
    const model = createOpenAICompatible({
      name: 'embeddings',
      baseURL: config.baseUrl,
      ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    }).embeddingModel(config.model);
    return { model, embedMany };
  };
  return {
    model: config.model,
    async embed(texts, signal) {
      const { model, embedMany } = await (sdk ??= loadSdk());
      const { embeddings } = await embedMany({
        model,
        values: texts,
        maxRetries: 1,
        ...(signal ? { abortSignal: signal } : {}),
      });
      if (embeddings.length !== texts.length)
        throw new Error(`The embedding endpoint answered ${embeddings.length} of ${texts.length}`);
      return embeddings.map(unitVector);
    },
  };
}

/** The library's vectors for this process: null without EMBEDDINGS_URL. */
export function libraryVectors(
  config: { embeddings: EmbeddingsConfig | undefined },
  database: Pick<Database, 'pgvector'>,
  warn?: LibraryVectors['warn'],
): LibraryVectors | null {
  if (!config.embeddings) return null;
  return {
    embedder: openAiEmbedder(config.embeddings),
    pgvector: database.pgvector === true,
    ...(warn ? { warn } : {}),
  };
}

/**
 * Readies the stored vectors for the configured model (ADR 0093): vectors another model made
 * (or made before the model was recorded) are dropped, so the embedder's queue redoes them and
 * no search compares two models' vectors; where the database has pgvector, the HNSW index of the
 * model's dimension is made. Once per process: the model changes only with the configuration.
 */
export async function prepareVectors(db: DbOrTx, model: string): Promise<void> {
  await db
    .update(libraryPassages)
    .set({ embedding: null, embeddingModel: null })
    .where(
      sql`${libraryPassages.embedding} is not null and ${libraryPassages.embeddingModel} is distinct from ${model}`,
    );
  const [row] = await db
    .select({ dims: sql<number | null>`array_length(${libraryPassages.embedding}, 1)` })
    .from(libraryPassages)
    .where(and(eq(libraryPassages.embeddingModel, model), isNotNull(libraryPassages.embedding)))
    .limit(1);
  if (row?.dims) await ensureVectorIndex(db, row.dims);
}

/** The dimensions whose HNSW index this process has made sure of, per database. */
const indexed = new WeakMap<object, Set<number>>();

/**
 * An HNSW index (cosine) over the searchable passages' vectors of one dimension, where the
 * database has pgvector (ADR 0093); nothing without it. Made after the embedder's queue empties
 * and at start-up. pgvector indexes a fixed dimension only,
 * hence one partial index per dimension, on the cast the search orders by. Built concurrently on
 * PostgreSQL: uploads go on meanwhile.
 */
export async function ensureVectorIndex(db: DbOrTx, dims: number): Promise<void> {
  const done = indexed.get(db) ?? new Set<number>();
  indexed.set(db, done);
  if (done.has(dims) || !Number.isInteger(dims) || dims < 1) return;
  const [ext] = (
    (await db.execute(
      sql`select exists (select 1 from pg_extension where extname = 'vector') as ok`,
    )) as unknown as { rows: Array<{ ok: boolean }> }
  ).rows;
  if (ext?.ok)
    await db.execute(
      sql.raw(
        `create index concurrently if not exists library_passages_embedding_${dims}_idx on library_passages using hnsw ((embedding::vector(${dims})) vector_cosine_ops) where searchable and array_length(embedding, 1) = ${dims}`,
      ),
    );
  done.add(dims);
}

/**
 * Embeds searchable passages that have no vector yet, a batch at a time, until none is left;
 * returns how many it wrote (each with the model's name). An endpoint failure throws (what was
 * written stays).
 */
export async function embedPending(db: DbOrTx, embedder: Embedder): Promise<number> {
  let written = 0;
  let dims = 0;
  for (;;) {
    const batch = await db
      .select({
        id: libraryPassages.id,
        headingPath: libraryPassages.headingPath,
        text: libraryPassages.text,
      })
      .from(libraryPassages)
      .where(and(eq(libraryPassages.searchable, true), isNull(libraryPassages.embedding)))
      .orderBy(asc(libraryPassages.id))
      .limit(EMBED_BATCH);
    // The index once the queue is empty: a bulk build, and embedding never waits on it.
    if (!batch.length) {
      if (dims) await ensureVectorIndex(db, dims);
      return written;
    }
    const vectors = await embedder.embed(
      batch.map((p) => `${p.headingPath}\n${p.text}`.slice(0, EMBED_CHARS)),
      AbortSignal.timeout(BATCH_EMBED_TIMEOUT_MS),
    );
    const values = sql.join(
      batch.map((p, i) => sql`(${p.id}::bigint, ${realArray(vectors[i]!)}::real[])`),
      sql`, `,
    );
    await db.execute(sql`
      update ${libraryPassages} p set embedding = v.e, embedding_model = ${embedder.model}
      from (values ${values}) as v(id, e)
      where p.id = v.id and p.embedding is null`);
    dims = vectors[0]!.length;
    written += batch.length;
  }
}

/**
 * Embeds in the background, one run at a time per process: `kick` after passages are written
 * (an upload, start-up); a kick during a run makes it go round once more. A failure is told to
 * `warn` and the run stops: the next kick (the next upload, or a restart) tries again.
 */
export class BackgroundEmbedder {
  private running: Promise<void> | null = null;
  private again = false;
  private prepared = false;

  constructor(
    private readonly db: DbOrTx,
    private readonly embedder: Embedder,
    private readonly warn: (err: unknown) => void,
  ) {}

  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.run().finally(() => {
      this.running = null;
    });
  }

  private async run(): Promise<void> {
    do {
      this.again = false;
      try {
        if (!this.prepared) await prepareVectors(this.db, this.embedder.model);
        this.prepared = true;
        await embedPending(this.db, this.embedder);
      } catch (err) {
        this.warn(err);
        return;
      }
    } while (this.again);
  }

  /** Resolves when no run is going (tests; shutdown before the database closes). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }
}
