import type { StructuredResponse } from '@contract/structured-response';
import { finishReport, text } from '../tools/reports';

/**
 * What the builtin analyst cannot do, said once and plainly (ARCHITECTURE.md section 5): a greeting, bare
 * arithmetic, or an open question with no data to compute from. A request is never refused for
 * its language (ADR 0055): it is answered in English whatever a detector guesses. Each module passes what it can do instead, so the answer is never a dead end.
 */

export type CannotKind = 'greeting' | 'arithmetic' | 'open-question';

export interface ModuleOffer {
  /** "Talent Intelligence": used in the sentence "As the ... analyst, I ...". */
  moduleName: string;
  /** What it does with data, as a clause: "compute headcount, attrition and pay gaps from ...". */
  canDo: string;
  /** What to attach for that, as a noun phrase: "a workforce export (CSV or XLSX)". */
  attach: string;
  /** Two or three requests the user can send as they are. */
  examples: string[];
}

const GREETING =
  /^(hi|hello|hey|hiya|howdy|good (morning|afternoon|evening|day)|greetings|thanks|thank you|thx|cheers|ok|okay|yo)\b[\s!.,:;)-]*(there|team|atrium|again|all|everyone|so much|a lot)?[\s!.,:;)-]*$/i;

/** A bare calculation: digits and operators, optionally asked as "what is ...". */
const ARITHMETIC =
  /^(what('?s| is)|calculate|compute|how much is|solve)?\s*[-+(]*\d[\d.,\s]*(\s*(\*\*|[-+*/x×÷^%])\s*[-+(]*\d[\d.,\s]*\)*)+\s*[=?]?\s*$/i;

/** A question that asks the analyst to decide or forecast (not to compute from a file). */
const OPEN_QUESTION =
  /\b(should|what would you|recommend|advise|plan for|strategy|forecast|predict|best way|how (do|can|should) (we|i))\b/i;

/**
 * A question put to the analyst (not a task description such as a starter template's "Help me
 * with: ... recommend ..."): short, and asked as a question.
 */
function isQuestion(value: string): boolean {
  return (
    value.length < 300 &&
    (/\?\s*$/.test(value) ||
      /^(what|how|should|which|when|where|why|can|could|would|do|does|is|are)\b/i.test(value))
  );
}

/**
 * Which of the cannot-do cases a request is, or null when the analyst can work on it.
 * `hasFiles`: files are in scope (then an open question is answered from them).
 */
export function cannotDo(request: string, hasFiles: boolean): CannotKind | null {
  const value = request.trim();
  if (!value) return 'greeting';
  if (GREETING.test(value)) return 'greeting';
  if (ARITHMETIC.test(value)) return 'arithmetic';
  if (!hasFiles && isQuestion(value) && OPEN_QUESTION.test(value)) return 'open-question';
  return null;
}

/** The one honest paragraph for a case, with what the module can do instead. */
export function cannotDoParagraph(kind: CannotKind, offer: ModuleOffer): string {
  const instead = `What I can do: ${offer.canDo}. Attach ${offer.attach} and ask, for example, "${offer.examples[0]}".`;
  switch (kind) {
    case 'greeting':
      return `Hello. I am the built-in ${offer.moduleName} analyst: I work on files you attach and compute every figure from them with fixed, stated rules; I do not hold a conversation. ${instead}`;
    case 'arithmetic':
      return `I am not a calculator: the built-in ${offer.moduleName} analyst computes figures from the files you attach, so a sum typed in a message is not something I answer. ${instead}`;
    case 'open-question':
      return `I cannot answer that from nothing: the built-in ${offer.moduleName} analyst has no language model and no data of yours yet, and a plan or a recommendation without figures would be a guess dressed up as advice. ${instead} From the figures, the decision is yours or your model-backed agent's (ask your admin to connect one for open-ended questions).`;
  }
}

/** A short, valid report carrying the honest paragraph and requests the user can send instead. */
export function cannotDoReport(kind: CannotKind, offer: ModuleOffer): StructuredResponse {
  const titles: Record<CannotKind, string> = {
    greeting: `${offer.moduleName}: what I can do`,
    arithmetic: `${offer.moduleName}: not a calculator`,
    'open-question': `${offer.moduleName}: data needed to answer`,
  };
  return finishReport({
    taskName: titles[kind],
    content: [text(cannotDoParagraph(kind, offer))],
    nextSteps: offer.examples,
  });
}
