import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import {
  LIBRARY_LANGUAGES,
  type LibraryDocumentDto,
  type LibraryLanguage,
  type LibraryPassageDto,
  type LibraryVersionDto,
} from '@contract/library';
import type { ModuleKey } from '@contract/modules';
import type { SplitPassage } from '../analyst/tools/library-passages';
import type { Db, DbOrTx } from '../db/connect';
import { libraryDocuments, libraryPassages, libraryTerms, libraryVersions } from '../db/schema';
import {
  QUERY_EMBED_TIMEOUT_MS,
  realArray,
  vectorLiteral,
  type LibraryVectors,
} from './embeddings';

// The library's storage (docs/decisions/0065-company-library.md). Every read names the company
// (and the module where it lists or searches) in its WHERE clause: a document id alone never
// reaches another company's rows.

/** The document's name as a citation gives it: its file name without the extension. */
export function titleOf(fileName: string): string {
  return fileName.replace(/\.[a-z0-9]{1,5}$/i, '').trim() || fileName;
}

/** Where a passage stands, as an answer cites it: "Brand guidelines v3, 2.1 Tone". */
export function citationOf(
  title: string,
  version: number,
  place: { headingPath: string; clause: string | null; page: number | null },
): string {
  const heading = place.headingPath.split(' > ').pop() ?? '';
  const parts: string[] = [];
  if (heading) parts.push(heading);
  if (place.clause && !heading.startsWith(place.clause) && !heading.includes(` ${place.clause}`))
    parts.unshift(place.clause);
  if (place.page !== null) parts.push(`p. ${place.page}`);
  return `${title} v${version}${parts.length ? `, ${parts.join(', ')}` : ''}`;
}

const configOf = (language: LibraryLanguage) => `library_${language}`;

const asLanguage = (v: string): LibraryLanguage =>
  (LIBRARY_LANGUAGES as readonly string[]).includes(v) ? (v as LibraryLanguage) : 'english';

type DocRow = typeof libraryDocuments.$inferSelect;

/** Where one version of a document is: its own company's, by number. */
const versionOf = (doc: Pick<DocRow, 'id' | 'companyId'>, version: number) =>
  and(
    eq(libraryVersions.documentId, doc.id),
    eq(libraryVersions.companyId, doc.companyId),
    eq(libraryVersions.version, version),
  );

async function documentDto(db: DbOrTx, doc: DocRow): Promise<LibraryDocumentDto> {
  const [v] = await db.select().from(libraryVersions).where(versionOf(doc, doc.currentVersion));
  return toDocumentDto(doc, v!);
}

function toDocumentDto(
  doc: DocRow,
  v: Pick<
    typeof libraryVersions.$inferSelect,
    'size' | 'passages' | 'addedByEmail' | 'createdAt' | 'version'
  >,
): LibraryDocumentDto {
  return {
    id: doc.id,
    module: doc.module as ModuleKey,
    fileName: doc.fileName,
    title: titleOf(doc.fileName),
    language: asLanguage(doc.language),
    version: v.version,
    size: v.size,
    passages: v.passages,
    addedBy: v.addedByEmail,
    addedAt: v.createdAt.toISOString(),
    retired: doc.retiredAt !== null,
  };
}

/** The module's documents of one company, current version each, retired ones last. */
export async function listDocuments(
  db: DbOrTx,
  companyId: number,
  module: ModuleKey,
): Promise<LibraryDocumentDto[]> {
  const rows = await db
    .select({ doc: libraryDocuments, v: libraryVersions })
    .from(libraryDocuments)
    .innerJoin(
      libraryVersions,
      and(
        eq(libraryVersions.documentId, libraryDocuments.id),
        eq(libraryVersions.version, libraryDocuments.currentVersion),
      ),
    )
    .where(and(eq(libraryDocuments.companyId, companyId), eq(libraryDocuments.module, module)))
    .orderBy(sql`${libraryDocuments.retiredAt} is not null`, asc(libraryDocuments.fileName));
  return rows.map((r) => toDocumentDto(r.doc, r.v));
}

export async function findDocument(
  db: DbOrTx,
  companyId: number,
  id: number,
): Promise<DocRow | undefined> {
  const [doc] = await db
    .select()
    .from(libraryDocuments)
    .where(and(eq(libraryDocuments.id, id), eq(libraryDocuments.companyId, companyId)));
  return doc;
}

/** Bytes a company's library keeps, every version counted. */
export async function usedBytes(db: DbOrTx, companyId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<string>`coalesce(sum(${libraryVersions.size}), 0)` })
    .from(libraryVersions)
    .where(eq(libraryVersions.companyId, companyId));
  return Number(row?.n ?? 0);
}

/**
 * Adds (sign 1) or removes (sign -1) one version's passages to the company module's lexeme
 * counts (library_terms, ADR 0068). Called in the transaction that flips those passages'
 * `searchable`, and only when it flipped some, so the counts follow what a search can find.
 */
async function countTerms(
  tx: DbOrTx,
  companyId: number,
  versionId: number,
  sign: 1 | -1,
): Promise<void> {
  await tx.execute(sql`
    insert into ${libraryTerms} (company_id, module, lexeme, passages)
    select p.company_id, p.module, l.lexeme, ${sign}::int * count(*)::int
    from ${libraryPassages} p, unnest(tsvector_to_array(p.search_vector)) as l(lexeme)
    where p.version_id = ${versionId} and p.company_id = ${companyId}
    group by 1, 2, 3
    on conflict (company_id, module, lexeme)
    do update set passages = ${libraryTerms}.passages + excluded.passages`);
  if (sign < 0)
    await tx.execute(
      sql`delete from ${libraryTerms} where company_id = ${companyId} and passages <= 0`,
    );
}

/** Turns one version's passages searchable or not, the lexeme counts with them. */
async function setSearchable(
  tx: DbOrTx,
  companyId: number,
  versionId: number,
  searchable: boolean,
): Promise<void> {
  const flipped = await tx
    .update(libraryPassages)
    .set({ searchable })
    .where(
      and(
        eq(libraryPassages.versionId, versionId),
        eq(libraryPassages.companyId, companyId),
        eq(libraryPassages.searchable, !searchable),
      ),
    )
    .returning({ id: libraryPassages.id });
  if (flipped.length > 0) await countTerms(tx, companyId, versionId, searchable ? 1 : -1);
}

/** Rebuilds one company module's lexeme counts from its searchable passages (the benchmark). */
export async function recountTerms(db: DbOrTx, companyId: number, module: ModuleKey) {
  await db.execute(
    sql`delete from ${libraryTerms} where company_id = ${companyId} and module = ${module}`,
  );
  await db.execute(sql`
    insert into ${libraryTerms} (company_id, module, lexeme, passages)
    select p.company_id, p.module, l.lexeme, count(*)::int
    from ${libraryPassages} p, unnest(tsvector_to_array(p.search_vector)) as l(lexeme)
    where p.company_id = ${companyId} and p.module = ${module} and p.searchable
    group by 1, 2, 3`);
}

export interface NewVersion {
  companyId: number;
  module: ModuleKey;
  fileName: string;
  mimeType: string;
  data: Buffer;
  language: LibraryLanguage;
  passages: SplitPassage[];
  addedBy: { id: string; email: string } | null;
}

/** Passages written per INSERT (each row has 12 parameters; PostgreSQL allows 65,535). */
const PASSAGE_BATCH = 500;

/** Advisory lock namespace for one company's library writes (quota and versions stay exact). */
const LIBRARY_LOCK = 715_627;

/**
 * Adds a document, or a new version of the document of that file name (earlier versions kept,
 * their passages no longer searched). Runs in one transaction under the company's lock, so the
 * quota holds against concurrent uploads; `quotaBytes` refused returns null.
 */
export async function addVersion(
  db: Db,
  v: NewVersion,
  quotaBytes: number,
): Promise<{ document: LibraryDocumentDto; replaced: boolean } | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LIBRARY_LOCK}, ${v.companyId})`);
    if ((await usedBytes(tx, v.companyId)) + v.data.length > quotaBytes) return null;
    const [existing] = await tx
      .select()
      .from(libraryDocuments)
      .where(
        and(
          eq(libraryDocuments.companyId, v.companyId),
          eq(libraryDocuments.module, v.module),
          eq(libraryDocuments.fileName, v.fileName),
        ),
      );
    const [{ last } = { last: 0 }] = existing
      ? await tx
          .select({ last: sql<number>`max(${libraryVersions.version})::int` })
          .from(libraryVersions)
          .where(eq(libraryVersions.documentId, existing.id))
      : [];
    const version = (last ?? 0) + 1;
    let doc: DocRow;
    if (existing) {
      [doc] = (await tx
        .update(libraryDocuments)
        .set({
          currentVersion: version,
          language: v.language,
          retiredAt: null,
          updatedAt: sql`now()`,
        })
        .where(eq(libraryDocuments.id, existing.id))
        .returning()) as [DocRow];
      const [previous] = await tx
        .select({ id: libraryVersions.id })
        .from(libraryVersions)
        .where(versionOf(existing, existing.currentVersion));
      if (previous) await setSearchable(tx, v.companyId, previous.id, false);
    } else {
      [doc] = (await tx
        .insert(libraryDocuments)
        .values({
          companyId: v.companyId,
          module: v.module,
          fileName: v.fileName,
          language: v.language,
          currentVersion: version,
        })
        .returning()) as [DocRow];
    }
    const [ver] = await tx
      .insert(libraryVersions)
      .values({
        documentId: doc.id,
        companyId: v.companyId,
        version,
        mimeType: v.mimeType,
        size: v.data.length,
        data: v.data,
        addedBy: v.addedBy?.id ?? null,
        addedByEmail: v.addedBy?.email ?? null,
        passages: v.passages.length,
      })
      .returning();
    const config = configOf(v.language);
    for (let i = 0; i < v.passages.length; i += PASSAGE_BATCH) {
      await tx.insert(libraryPassages).values(
        v.passages.slice(i, i + PASSAGE_BATCH).map((p) => ({
          companyId: v.companyId,
          module: v.module,
          documentId: doc.id,
          versionId: ver!.id,
          ordinal: p.ordinal,
          headingPath: p.headingPath.slice(0, 2_000),
          clause: p.clause?.slice(0, 32) ?? null,
          page: p.page,
          text: p.text,
          language: config,
          searchable: true,
          // The heading path is part of what a passage is about.
          searchVector: sql`setweight(to_tsvector(${config}::regconfig, ${p.headingPath}), 'A') || to_tsvector(${config}::regconfig, ${p.text})`,
        })),
      );
    }
    await countTerms(tx, v.companyId, ver!.id, 1);
    return { document: toDocumentDto(doc, ver!), replaced: existing !== undefined };
  });
}

/** Retires a document (kept, listed as retired, no longer searched) or brings it back. */
export async function setRetired(
  db: Db,
  companyId: number,
  id: number,
  retired: boolean,
): Promise<LibraryDocumentDto | null> {
  return db.transaction(async (tx) => {
    const [doc] = await tx
      .update(libraryDocuments)
      .set({ retiredAt: retired ? sql`now()` : null, updatedAt: sql`now()` })
      .where(and(eq(libraryDocuments.id, id), eq(libraryDocuments.companyId, companyId)))
      .returning();
    if (!doc) return null;
    const [current] = await tx
      .select({ id: libraryVersions.id })
      .from(libraryVersions)
      .where(versionOf(doc, doc.currentVersion));
    await setSearchable(tx, companyId, current!.id, !retired);
    return documentDto(tx, doc);
  });
}

/** Deletes a document with every version and passage; its file name, or null when not found. */
export async function deleteDocument(
  db: Db,
  companyId: number,
  id: number,
): Promise<string | null> {
  return db.transaction(async (tx) => {
    const versions = await tx
      .select({ id: libraryVersions.id })
      .from(libraryVersions)
      .where(and(eq(libraryVersions.documentId, id), eq(libraryVersions.companyId, companyId)));
    for (const v of versions) await setSearchable(tx, companyId, v.id, false);
    const [doc] = await tx
      .delete(libraryDocuments)
      .where(and(eq(libraryDocuments.id, id), eq(libraryDocuments.companyId, companyId)))
      .returning({ fileName: libraryDocuments.fileName });
    return doc?.fileName ?? null;
  });
}

export async function listVersions(
  db: DbOrTx,
  doc: DocRow,
): Promise<{ document: LibraryDocumentDto; versions: LibraryVersionDto[] }> {
  const rows = await db
    .select({
      version: libraryVersions.version,
      size: libraryVersions.size,
      passages: libraryVersions.passages,
      addedBy: libraryVersions.addedByEmail,
      createdAt: libraryVersions.createdAt,
    })
    .from(libraryVersions)
    .where(
      and(eq(libraryVersions.documentId, doc.id), eq(libraryVersions.companyId, doc.companyId)),
    )
    .orderBy(desc(libraryVersions.version));
  return {
    document: await documentDto(db, doc),
    versions: rows.map((r) => ({
      version: r.version,
      size: r.size,
      passages: r.passages,
      addedBy: r.addedBy,
      addedAt: r.createdAt.toISOString(),
      current: r.version === doc.currentVersion,
    })),
  };
}

/** Every passage of one version of a document, in order (the viewer). */
export async function versionPassages(
  db: DbOrTx,
  doc: DocRow,
  version: number,
): Promise<LibraryPassageDto[] | null> {
  const [ver] = await db
    .select({ id: libraryVersions.id })
    .from(libraryVersions)
    .where(versionOf(doc, version));
  if (!ver) return null;
  const rows = await db
    .select()
    .from(libraryPassages)
    .where(and(eq(libraryPassages.versionId, ver.id), eq(libraryPassages.companyId, doc.companyId)))
    .orderBy(asc(libraryPassages.ordinal));
  const title = titleOf(doc.fileName);
  return rows.map((p) => ({
    id: p.id,
    documentId: doc.id,
    title,
    version,
    headingPath: p.headingPath,
    clause: p.clause,
    page: p.page,
    ordinal: p.ordinal,
    text: p.text,
    citation: citationOf(title, version, p),
  }));
}

/** The stored bytes of one version (download). */
export async function versionFile(
  db: DbOrTx,
  doc: DocRow,
  version: number,
): Promise<{ data: Buffer; mimeType: string } | null> {
  const [ver] = await db
    .select({ data: libraryVersions.data, mimeType: libraryVersions.mimeType })
    .from(libraryVersions)
    .where(versionOf(doc, version));
  return ver ?? null;
}

export interface LibraryHit extends LibraryPassageDto {
  rank: number;
}

/**
 * Passages a search ranks at most: the narrowed match aims under it by the lexeme counts'
 * estimate (ADR 0068), and the candidates are cut there whatever the match finds (ADR 0027).
 */
export const RANKED_AT_MOST = 1_000;
/** The rarest question words combined when every single word is too common. */
const RAREST = 8;

const tsLexeme = (l: string) => `'${l.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

function combinations<T>(items: T[], k: number): T[][] {
  if (k === 0) return [[]];
  const out: T[][] = [];
  items.forEach((first, i) => {
    for (const rest of combinations(items.slice(i + 1), k - 1)) out.push([first, ...rest]);
  });
  return out;
}

/**
 * A question word as the search reads it: its lexeme in one text search configuration and how
 * many of the module's searchable passages hold it. `config` groups the lexemes one reading of the
 * question gives: words are combined (ANDed) only within a group, since lexemes of different
 * configurations ("hospit" in English, "hospitality" unstemmed in German) never meet in one
 * passage (ADR 0027).
 */
export interface QuestionTerm {
  lexeme: string;
  passages: number;
  config?: string;
}

/**
 * The tsquery a search matches on (ADR 0068), from the question's lexemes and how many of the
 * module's `total` searchable passages hold each. When all of them together hold at most
 * RANKED_AT_MOST passages, every word (the plain OR search). Otherwise the rarest words that
 * together stay under it; when even the rarest alone holds more, passages holding two (then
 * three) of the rarest words of one configuration together, their count estimated as if words
 * were independent. Null when no word occurs at all.
 */
export function matchQuery(terms: ReadonlyArray<QuestionTerm>, total: number): string | null {
  return matchQueries(terms, total)[0] ?? null;
}

/** The question's lexemes found in the library, rarest first, per configuration. */
function termGroups(terms: ReadonlyArray<QuestionTerm>): QuestionTerm[][] {
  const groups = new Map<string, QuestionTerm[]>();
  for (const t of terms) {
    if (t.passages <= 0) continue;
    const group = groups.get(t.config ?? '') ?? [];
    if (!group.some((g) => g.lexeme === t.lexeme)) group.push(t);
    groups.set(t.config ?? '', group);
  }
  return [...groups.values()].map((g) => g.sort((a, b) => a.passages - b.passages));
}

const andClause = (c: readonly QuestionTerm[]) =>
  `(${c.map((t) => tsLexeme(t.lexeme)).join(' & ')})`;

/** Clauses joined by OR, each once. */
const orOf = (clauses: string[]) => [...new Set(clauses)].join(' | ');

/**
 * matchQuery first, then broader matches to fall back on when it finds too few passages (words
 * are not independent: three common words may never meet): each configuration's rarest words
 * ANDed, one fewer each time, down to its rarest word alone.
 */
export function matchQueries(terms: ReadonlyArray<QuestionTerm>, total: number): string[] {
  const groups = termGroups(terms);
  const first = narrowMatch(groups, total);
  if (!first) return [];
  const and = first.startsWith('(') ? first.split(' | ')[0]!.split(' & ').length : 0;
  const broader: string[] = [];
  for (let k = and - 1; k >= 1; k -= 1)
    broader.push(orOf(groups.filter((g) => g.length >= k).map((g) => andClause(g.slice(0, k)))));
  return [first, ...broader.filter((m) => m !== first)];
}

function narrowMatch(groups: QuestionTerm[][], total: number): string | null {
  const found = new Map(groups.flat().map((t) => [t.lexeme, t] as const));
  if (found.size === 0) return null;
  const sum = [...found.values()].reduce((n, t) => n + t.passages, 0);
  if (sum <= RANKED_AT_MOST)
    return [...found.values()]
      .sort((a, b) => a.passages - b.passages)
      .map((t) => tsLexeme(t.lexeme))
      .join(' | ');
  const rarest = groups.map((g) => g.slice(0, RAREST));
  const largest = Math.min(3, Math.max(...rarest.map((g) => g.length)));
  for (let k = 1; k <= largest; k += 1) {
    const byClause = new Map<string, number>();
    for (const group of rarest)
      for (const c of combinations(group, k))
        byClause.set(
          andClause(c),
          c.reduce((n, t) => (n * t.passages) / Math.max(total, 1), Math.max(total, 1)),
        );
    const clauses = [...byClause].sort((a, b) => a[1] - b[1]);
    const chosen: string[] = [];
    let estimate = 0;
    for (const [clause, n] of clauses) {
      if (estimate + n > RANKED_AT_MOST) break;
      chosen.push(clause);
      estimate += n;
    }
    // The last size tried takes its smallest clause even over the limit.
    if (chosen.length === 0 && k === largest) chosen.push(clauses[0]![0]);
    if (chosen.length > 0) return orOf(chosen);
  }
  return null;
}

type Hit = {
  id: string | number;
  document_id: number;
  file_name: string;
  version: number;
  heading_path: string;
  clause: string | null;
  page: number | null;
  ordinal: number;
  text: string;
  rank: number;
};

/** Each ranking's depth fused when embeddings are on (ADR 0026). */
export const FUSION_DEPTH = 50;
/** The vector ranking's bound; past it full text answers alone (ADR 0026). */
export const VECTOR_TIMEOUT_MS = 2_000;
/** Reciprocal rank fusion's constant (ADR 0026). */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion: each list gives a passage 1 / (k + its rank there), ranks from 1; the
 * sums order the fused list (ties by id). A passage in one list only keeps its share.
 */
export function fuseRankings<T extends { id: string | number }>(
  lists: ReadonlyArray<readonly T[]>,
  k = RRF_K,
): Array<T & { fused: number }> {
  const byId = new Map<string, { item: T; fused: number }>();
  for (const list of lists)
    list.forEach((item, i) => {
      const key = String(item.id);
      const seen = byId.get(key) ?? { item, fused: 0 };
      seen.fused += 1 / (k + i + 1);
      byId.set(key, seen);
    });
  return [...byId.values()]
    .sort((a, b) => b.fused - a.fused || Number(a.item.id) - Number(b.item.id))
    .map(({ item, fused }) => ({ ...item, fused }));
}

/**
 * Search over one company's module library: the current version of each document not retired.
 * Full text always (fullTextHits); with `vectors` (an embedding endpoint, ADR 0026) the question
 * is embedded too and the passages nearest to it are fused with the full-text ranking
 * (fuseRankings). The question's vector failing leaves full text alone. Company and module are in
 * every WHERE.
 */
export async function searchPassages(
  db: DbOrTx,
  companyId: number,
  module: ModuleKey,
  q: string,
  limit: number,
  vectors?: LibraryVectors | null,
): Promise<LibraryHit[]> {
  const depth = vectors ? Math.max(limit, FUSION_DEPTH) : limit;
  const text = await fullTextHits(db, companyId, module, q, depth);
  let list: Hit[] = text.slice(0, limit);
  const query = vectors ? await queryVector(vectors, q) : null;
  if (vectors && query) {
    const near = await nearestHits(db, companyId, module, query, vectors, depth).catch(
      (err: unknown) => {
        vectors.warn?.(err, 'library search: the vector ranking failed or took too long');
        return [];
      },
    );
    list = fuseRankings([text, near])
      .slice(0, limit)
      .map((h) => ({ ...h, rank: h.fused }));
  }
  return list.map((r) => {
    const title = titleOf(r.file_name);
    const place = { headingPath: r.heading_path, clause: r.clause, page: r.page };
    return {
      id: Number(r.id),
      documentId: r.document_id,
      title,
      version: r.version,
      ...place,
      ordinal: r.ordinal,
      text: r.text,
      citation: citationOf(title, r.version, place),
      rank: Number(r.rank),
    };
  });
}

/** The question's unit vector, or null when the endpoint fails or is slow (told to `warn`). */
async function queryVector(vectors: LibraryVectors, q: string): Promise<number[] | null> {
  try {
    const [v] = await vectors.embedder.embed(
      [q.slice(0, 8_000)],
      AbortSignal.timeout(QUERY_EMBED_TIMEOUT_MS),
    );
    return v ?? null;
  } catch (err) {
    vectors.warn?.(err, 'library search: the question could not be embedded');
    return null;
  }
}

/**
 * The searchable passages nearest the question's vector, by cosine similarity, among the vectors
 * of the configured model only (ADR 0093). With pgvector the search orders by `<=>` on the cast
 * its HNSW index of that dimension is built on, scanning the index until enough passages pass the
 * company and module filter (iterative scan); without it, an exact dot product of the unit vectors
 * in plain SQL.
 */
async function nearestHits(
  db: DbOrTx,
  companyId: number,
  module: ModuleKey,
  query: number[],
  vectors: Pick<LibraryVectors, 'pgvector' | 'embedder'>,
  limit: number,
): Promise<Hit[]> {
  // An integer: safe as SQL text, and it must be a constant for the partial index to apply.
  const dims = sql.raw(String(Math.trunc(query.length)));
  const distance = sql`p.embedding::vector(${dims}) <=> ${vectorLiteral(query)}::vector(${dims})`;
  const similarity = vectors.pgvector
    ? sql`1 - (${distance})`
    : sql`(select sum(a * b) from unnest(p.embedding, ${realArray(query)}::real[]) as x(a, b))`;
  // Bounded: plain SQL cosine reads every vector (20,000 passages of 1,536 dimensions took 24 s
  // here); past the bound full text answers alone (ADR 0026).
  const rows = await db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local statement_timeout = ${VECTOR_TIMEOUT_MS}`));
    if (vectors.pgvector) {
      await tx.execute(sql`set local hnsw.iterative_scan = strict_order`);
      await tx.execute(sql.raw(`set local hnsw.ef_search = ${Math.max(40, 2 * limit)}`));
    }
    return tx.execute(sql`
    select p.id, p.document_id, d.file_name, v.version, p.heading_path, p.clause, p.page,
           p.ordinal, p.text, ${similarity} as rank
    from ${libraryPassages} p
    join ${libraryDocuments} d on d.id = p.document_id and d.company_id = ${companyId}
    join ${libraryVersions} v on v.id = p.version_id and v.company_id = ${companyId}
    where p.company_id = ${companyId} and p.module = ${module} and p.searchable
      and p.embedding is not null and array_length(p.embedding, 1) = ${dims}
      and p.embedding_model = ${vectors.embedder.model}
    order by ${vectors.pgvector ? distance : sql`rank desc, p.id`}
    limit ${limit}`);
  });
  return (rows as unknown as { rows: Hit[] }).rows;
}

/**
 * Full-text ranking. The question is read in every document language (stemmed and unaccented by
 * that language's configuration) and its words are OR-ed, so a question in natural words finds
 * the passages sharing most of them; ts_rank_cd orders them. In a large library the match is
 * narrowed to the question's rarest words first (matchQuery, ADR 0068), so the ranking reads a
 * few thousand passages.
 */
async function fullTextHits(
  db: DbOrTx,
  companyId: number,
  module: ModuleKey,
  q: string,
  limit: number,
): Promise<Hit[]> {
  const configs = LIBRARY_LANGUAGES.map(configOf);
  // PostgreSQL text holds no NUL; any other character is safe in plainto_tsquery.
  const words = q.replace(/\0/g, ' ');
  const configList = sql.join(
    configs.map((c) => sql`${c}`),
    sql`, `,
  );
  const stats = (await db.execute(sql`
    with w(config, lexeme) as (
      select distinct c, unnest(tsvector_to_array(to_tsvector(c::regconfig, ${words})))
      from unnest(array[${configList}]::text[]) c
    )
    select w.config, w.lexeme, coalesce(t.passages, 0)::int as passages,
      (select coalesce(sum(v.passages), 0)::int
       from ${libraryDocuments} d
       join ${libraryVersions} v on v.document_id = d.id and v.version = d.current_version
         and v.company_id = ${companyId}
       where d.company_id = ${companyId} and d.module = ${module} and d.retired_at is null) as total
    from w left join ${libraryTerms} t
      on t.company_id = ${companyId} and t.module = ${module} and t.lexeme = w.lexeme`)) as unknown as {
    rows: Array<QuestionTerm & { total: number }>;
  };
  // One OR-query per configuration; replace() turns plainto_tsquery's AND into OR.
  const queries = sql.join(
    configs.map(
      (c) =>
        sql`(${c}::text, nullif(replace(plainto_tsquery(${c}::regconfig, ${words})::text, ' & ', ' | '), '')::tsquery)`,
    ),
    sql`, `,
  );
  // The candidates first, at most RANKED_AT_MOST, then each ranked by the question read in its
  // own language; only the top ones are joined to their documents and carry their text out. A
  // match of ANDed words takes its candidates from the GIN index only (library_candidates): the
  // planner, estimating the words as independent, would scan the whole table for words that never
  // meet (ADR 0027).
  async function rankedMatches(match: string): Promise<Hit[]> {
    const rows = await db.execute(sql`
    with q(config, query) as (values ${queries}),
    c as materialized (${
      match.includes(' & ')
        ? sql`select * from library_candidates(${companyId}, ${module}, ${match}::tsquery, ${RANKED_AT_MOST})`
        : sql`select p.id, p.language, p.search_vector
      from ${libraryPassages} p
      where p.company_id = ${companyId} and p.module = ${module} and p.searchable
        and p.search_vector @@ ${match}::tsquery
      limit ${RANKED_AT_MOST}`
    }),
    top as (
      select c.id, ts_rank_cd(c.search_vector, q.query, 1) as rank
      from c join q on q.config = c.language and q.query is not null
      where c.search_vector @@ q.query
      order by rank desc, c.id
      limit ${limit}
    )
    select p.id, p.document_id, d.file_name, v.version, p.heading_path, p.clause, p.page,
           p.ordinal, p.text, top.rank
    from top
    join ${libraryPassages} p on p.id = top.id and p.company_id = ${companyId}
    join ${libraryDocuments} d on d.id = p.document_id and d.company_id = ${companyId}
    join ${libraryVersions} v on v.id = p.version_id and v.company_id = ${companyId}
    order by top.rank desc, p.id`);
    return (rows as unknown as { rows: Hit[] }).rows;
  }
  const matches = matchQueries(stats.rows, stats.rows[0]?.total ?? 0);
  if (matches.length === 0) return [];
  let list: Hit[] = [];
  for (const match of matches) {
    list = await rankedMatches(match);
    if (list.length >= limit) break;
  }
  return list;
}

/** The module's current documents (titles and versions) for a model's instructions. */
export async function libraryTitles(
  db: DbOrTx,
  companyId: number,
  module: ModuleKey,
): Promise<Array<{ title: string; version: number; fileName: string }>> {
  const rows = await db
    .select({ fileName: libraryDocuments.fileName, version: libraryDocuments.currentVersion })
    .from(libraryDocuments)
    .where(
      and(
        eq(libraryDocuments.companyId, companyId),
        eq(libraryDocuments.module, module),
        isNull(libraryDocuments.retiredAt),
      ),
    )
    .orderBy(asc(libraryDocuments.fileName));
  return rows.map((r) => ({ ...r, title: titleOf(r.fileName) }));
}
