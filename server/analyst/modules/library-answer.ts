import type { StructuredResponse } from '@contract/structured-response';
import { isStarterRequest } from '../report/words';
import {
  SEARCH_KNOWLEDGE,
  citationMarkdown,
  type KnowledgePassage,
  type KnowledgeResult,
} from '../tools/knowledge';
import { finishReport, text } from '../tools/reports';
import type { ToolCallRecord } from '../tools/tool';
import { HONESTY_NOTE, type ModuleAgent, type PlanContext } from './module';
import { list } from './report-parts';

/**
 * The builtin's answer from the company library (docs/decisions/0096-library-answer.md), shared by
 * every module: a typed question the module's own plan has nothing to call for (no file in scope
 * that its task needs), in a company whose library holds documents, searches the library with the
 * request (one search_knowledge call) and answers from the passages it receives, each cited. No
 * passage back: the module's answer of before (asking for the document, the template).
 */

/** Passages an answer quotes at most: the best few, not the whole search. */
const QUOTED = 4;
/** A quote's length at most, in characters. */
const QUOTE_CHARS = 400;

/** True when the module's own plan calls nothing for this request and the library may answer. */
function asksLibrary(agent: ModuleAgent, ctx: PlanContext): boolean {
  // A starter is the card's own flow (attach a file): it keeps its answer.
  if (!ctx.library?.length || isStarterRequest(ctx.request)) return false;
  return agent.plan({ ...ctx, calls: [] }).length === 0;
}

/** The passages of this answer's search, as the turn received them (none: no search ran). */
function passagesOf(calls: ToolCallRecord[]): KnowledgePassage[] {
  const found = calls.find((c) => c.tool === SEARCH_KNOWLEDGE)?.output as
    Partial<KnowledgeResult> | undefined;
  return Array.isArray(found?.passages) ? found.passages : [];
}

const quote = (p: KnowledgePassage) => {
  const said = p.text.replace(/\s+/g, ' ').trim();
  return said.length > QUOTE_CHARS ? `${said.slice(0, QUOTE_CHARS)}…` : said;
};

/** The answer: the best passages quoted, each with its citation, the documents used, next steps. */
export function libraryAnswer(passages: KnowledgePassage[]): StructuredResponse {
  const best = passages.slice(0, QUOTED);
  const documents = [...new Set(best.map((p) => `${p.title} v${p.version}`))];
  const lines = [
    '## From your company library',
    '',
    `Your company library says this on the question (${documents.length === 1 ? 'from' : 'from these documents:'} ${list(documents.map((d) => `**${d}**`))}):`,
    '',
    ...best.map((p) => `- "${quote(p)}" (${citationMarkdown(p)})`),
    '',
    `Documents used: ${list(documents)}. Only what the quoted passages say is stated here; open the document for its full wording.`,
  ];
  return finishReport({
    taskName: 'From your company library',
    content: [text(lines.join('\n')), text(HONESTY_NOTE)],
    nextSteps: [
      `Open ${documents[0]} in the library to read the passage in context`,
      'Attach a document to review it against your company library',
    ],
  });
}

/**
 * A module agent whose builtin answers from the library when it has nothing else to call. Only
 * `plan` and `write` change, the builtin's: a real model keeps its instructions and tools.
 */
export function withLibraryAnswer(agent: ModuleAgent): ModuleAgent {
  return {
    ...agent,
    plan(ctx) {
      if (!asksLibrary(agent, ctx)) return agent.plan(ctx);
      if (ctx.calls.some((c) => c.tool === SEARCH_KNOWLEDGE)) return [];
      return [{ tool: SEARCH_KNOWLEDGE, input: { query: ctx.request.slice(0, 500) } }];
    },
    write(ctx) {
      if (!asksLibrary(agent, ctx)) return agent.write(ctx);
      const passages = passagesOf(ctx.calls);
      // Nothing relevant in the library: the answer of a turn that searched nothing.
      return passages.length ? libraryAnswer(passages) : agent.write({ ...ctx, calls: [] });
    },
  };
}
