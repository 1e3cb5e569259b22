import type { ModuleKey } from '@contract/modules';
import { KNOWLEDGE_LIMIT, citationLink, type TurnLibrary } from '../analyst/tools/knowledge';
import type { DbOrTx } from '../db/connect';
import type { LibraryVectors } from './embeddings';
import { libraryTitles, searchPassages } from './library.repo';

// The library a turn's models search (docs/decisions/0069-search-knowledge.md), bound by the turn
// runtime to the caller's company and the chat's module before any model sees it.

/** The library of a company's module for one turn (one query for the titles). */
export async function turnLibrary(
  db: DbOrTx,
  companyId: number,
  module: ModuleKey,
  vectors?: LibraryVectors | null,
): Promise<TurnLibrary> {
  const titles = (await libraryTitles(db, companyId, module)).map(({ title, version }) => ({
    title,
    version,
  }));
  return {
    titles,
    async search(query, limit = KNOWLEDGE_LIMIT) {
      const words = query.trim().slice(0, 500);
      if (!words) return [];
      const hits = await searchPassages(db, companyId, module, words, limit, vectors);
      return hits.map((h) => ({
        id: h.id,
        documentId: h.documentId,
        title: h.title,
        version: h.version,
        headingPath: h.headingPath,
        clause: h.clause,
        page: h.page,
        citation: h.citation,
        link: citationLink(module, h.documentId, h.version, h.id),
        text: h.text,
      }));
    },
  };
}
