import { regulationNamed, unknownRegulationNamed } from './regulations';

/**
 * Requests that are not a starter's analysis: a policy checked against a named regulation, and a
 * direct question about a document's content (answered from the document, not with the nearest
 * starter's report).
 */

const CHECK_VERB =
  /\b(against|compar\w*|complian\w*|compl(y|ies)|meets?|gaps?|check\w*|review\w*|assess\w*|aligned?|map)\b/i;

export function asksRegulationCheck(request: string): boolean {
  if (!CHECK_VERB.test(request)) return false;
  return regulationNamed(request) !== null || unknownRegulationNamed(request) !== null;
}

/** An analysis people ask for by name: these keep their report even when phrased as a question. */
const ANALYSIS =
  /\b(gaps?|gap check|missing|weak|sections?|cover\w*|review|check|assess\w*|audit\w*|summar\w+|draft|write|minutes|register|heat ?map|against|compare|chase|briefing|framework|health check|terms of reference|readiness)\b/i;
const QUESTION =
  /^\s*(what|who|whom|which|when|where|how|why|can|could|do|does|did|is|are|may|must|should|list|show me|tell me|give me)\b|\?\s*$/i;

export function isDocumentQuestion(request: string): boolean {
  const r = request.trim();
  return r.length <= 400 && QUESTION.test(r) && !ANALYSIS.test(r);
}
