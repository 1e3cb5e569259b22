import type { Tool } from 'ai';
import { z } from 'zod';
import { MODULES } from '@contract/module-list';
import type { ModuleKey } from '@contract/modules';

/**
 * The company library in a turn (docs/decisions/0069-search-knowledge.md): `search_knowledge`,
 * offered to every model (the builtin plans calls to it like any tool), answers passages of the
 * caller's company and module only: the runtime binds both before the model sees anything, and
 * the repository names them in the query's WHERE. A citation is a link that opens the module's
 * library viewer at the passage; links to passages the turn did not receive are taken out.
 */

export const SEARCH_KNOWLEDGE = 'search_knowledge';
/** Passages one call returns at most. */
export const KNOWLEDGE_LIMIT = 8;

export interface LibraryTitle {
  title: string;
  version: number;
}

/** A passage as a model receives it: its text and its place. */
export interface KnowledgePassage {
  id: number;
  documentId: number;
  /** The document's title (its file name without the extension). */
  title: string;
  version: number;
  headingPath: string;
  clause: string | null;
  page: number | null;
  /** How an answer names it: "Brand guidelines v3, 2.1 Tone". */
  citation: string;
  /** Where the citation links: the module's library viewer at this passage. */
  link: string;
  text: string;
}

export interface KnowledgeResult {
  query: string;
  passages: KnowledgePassage[];
}

/** The library of one turn: the caller's company and the chat's module, bound. */
export interface TurnLibrary {
  /** The module's current documents (retired ones left out). */
  titles: LibraryTitle[];
  search(query: string, limit?: number): Promise<KnowledgePassage[]>;
}

/** The module page with the library viewer open at a passage. */
export function citationLink(
  module: ModuleKey,
  documentId: number,
  version: number,
  passageId: number,
): string {
  return `${MODULES[module].path}?library=${documentId}&version=${version}&passage=${passageId}`;
}

/** A citation as markdown: the link text is the citation, the link opens the passage. */
export const citationMarkdown = (p: Pick<KnowledgePassage, 'citation' | 'link'>) =>
  `[${p.citation.replace(/[[\]]/g, '')}](${p.link})`;

export const KnowledgeInput = z.object({
  query: z
    .string()
    .min(1)
    .max(500)
    .describe('What to look for, in words the documents would use (e.g. "banned words tone")'),
});

/**
 * The tool as the AI SDK runs it (on the event loop: one indexed query, no file work). Every
 * passage returned is remembered in `received`, so the answer may cite it.
 */
export function knowledgeTool(library: TurnLibrary, received: Set<number>): Tool {
  return {
    description:
      "Search the company's library for this module (its policies, guidelines, pay bands and other documents): returns the best-matching passages with their place (document title, version, heading path, clause or page), a `citation` and a `link`. Cite every statement taken from a passage as [citation](link).",
    inputSchema: KnowledgeInput,
    execute: async (input: unknown): Promise<KnowledgeResult> => {
      const { query } = KnowledgeInput.parse(input);
      const passages = await library.search(query);
      for (const p of passages) received.add(p.id);
      return { query, passages };
    },
  } satisfies Tool;
}

/** What a real model is told of a library holding documents: that it exists and their titles. */
export function libraryInstructions(titles: LibraryTitle[]): string {
  return `
The company's library for this module holds: ${titles.map((t) => `"${t.title}" (v${t.version})`).join(', ')}.
Use ${SEARCH_KNOWLEDGE} to find what they say before answering from general knowledge, and cite every
statement drawn from a passage as a markdown link [citation](link), with the passage's own
citation and link. Cite only passages the tool returned. A file attached in the chat wins over
the library when both cover the same thing: say so.
`;
}

const CITATION_LINK = /\[([^\]\n]{1,300})\]\((\/[a-z-]+\?library=\d+&version=\d+&passage=(\d+))\)/g;

/** The answer with links to passages this turn did not receive reduced to their text. */
export function withReceivedCitations(answer: string, received: ReadonlySet<number>): string {
  return answer.replace(CITATION_LINK, (whole, label: string, _href: string, id: string) =>
    received.has(Number(id)) ? whole : label,
  );
}
