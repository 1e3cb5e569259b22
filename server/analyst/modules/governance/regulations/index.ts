import { AI_ACT } from './ai-act';
import { BRIBERY_ACT } from './bribery-act';
import { DORA } from './dora';
import { GDPR } from './gdpr';
import { NIS2 } from './nis2';
import { PAY_TRANSPARENCY } from './pay-transparency';
import type { Regulation } from './types';
import { WHISTLEBLOWING } from './whistleblowing';

export type { Regulation, RegulationObligation } from './types';

/** Every regulation held as data (ADR 0061). */
export const REGULATIONS: Regulation[] = [
  WHISTLEBLOWING,
  GDPR,
  AI_ACT,
  PAY_TRANSPARENCY,
  NIS2,
  DORA,
  BRIBERY_ACT,
];

/** The regulation a request names, if held. */
export function regulationNamed(request: string): Regulation | null {
  return REGULATIONS.find((r) => r.aliases.test(request)) ?? null;
}

/**
 * A regulation named in a request that is not held: "against the EU Deforestation Regulation",
 * "against SOX", "compared with the Modern Slavery Act". Null when none is named.
 */
export function unknownRegulationNamed(request: string): string | null {
  if (regulationNamed(request)) return null;
  const m =
    /\b(?:against|with|to|under|meets?|compl\w+ with)\s+(?:the\s+)?((?:(?:EU|UK|US)\s+)?(?:[A-Z][\w-]*\s+){0,5}(?:Directive|Regulation|Act|Law|Code|Standard|Framework)(?:\s+\d{4})?(?:\s*\(?\d{4}\/\d+\)?)?)/.exec(
      request,
    ) ??
    /\b((?:Regulation|Directive) \(EU\) \d{4}\/\d+|ISO \d{4,5}|SOX|Sarbanes-Oxley|HIPAA|CCPA)\b/.exec(
      request,
    );
  return m ? m[1]!.trim() : null;
}
