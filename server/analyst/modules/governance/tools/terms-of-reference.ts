import { z } from 'zod';
import { countOf } from '../../../tools/language';
import { documentTool } from '../capabilities/output';
import { TERMS_OF_REFERENCE } from '../checklists';
import { ConceptResultSchema, coverageScore, judgeConcepts, truncate } from '../sections';

const TorCheckSchema = z.object({
  element: z.string(),
  found: z.string(),
  goodPractice: z.string(),
  verdict: z.enum(['meets', 'weak', 'missing']),
});
export type TorCheck = z.infer<typeof TorCheckSchema>;
export const TorReviewOutput = z.object({
  fileName: z.string(),
  title: z.string(),
  committee: z.string(),
  score: z.number(),
  items: z.array(ConceptResultSchema),
  checks: z.array(TorCheckSchema),
});
export type TorReview = z.infer<typeof TorReviewOutput>;

const num = countOf;

function committeeOf(textContent: string): string {
  const m =
    /\b(audit(?: and risk)?|risk|remuneration|nomination|nominations|finance|people|esg)\s+committee\b/i.exec(
      textContent,
    );
  return m
    ? `${m[1]!.replace(/\b\w/g, (c) => c.toUpperCase()).replace(/ And /, ' and ')} Committee`
    : 'Committee';
}

/**
 * Reviews a committee's terms of reference against UK good practice (the Corporate Governance
 * Code and ICSA model terms): membership (at least three, independent non-executives), quorum
 * (at least two), meetings (audit: at least three a year), duties, reporting to the board and
 * an annual review of the terms and of effectiveness. Reads the figures the terms state.
 */
export const termsOfReferenceReview = documentTool(TorReviewOutput, {
  name: 'terms_of_reference_review',
  description:
    "Review an attached committee terms of reference against good practice: membership size and independence, quorum, meeting frequency, duties, reporting to the board, annual review; each judged by the section's content with the figures the terms state.",
  read(doc): TorReview {
    const t = doc.text;
    const items = judgeConcepts(doc, TERMS_OF_REFERENCE);
    const committee = committeeOf(`${doc.title}\n${t}`);
    const audit = /audit/i.test(committee);
    const checks: TorCheck[] = [];
    const members =
      /\b(?:at least|no fewer than|minimum of|comprise|consist of)\s+(\w+)\s+(?:independent\s+)?(?:non-executive\s+)?(?:directors|members)\b/i.exec(
        t,
      );
    const n = members ? num(members[1]!) : null;
    checks.push({
      element: 'Membership',
      found: members ? truncate(members[0], 120) : 'No minimum number of members stated',
      goodPractice:
        'At least three members (two in smaller companies), all independent non-executive directors',
      verdict: n === null ? 'missing' : n >= 3 ? 'meets' : 'weak',
    });
    const independent = /\bindependent non-?executive\b/i.test(t);
    checks.push({
      element: 'Independence',
      found: independent
        ? 'Members are independent non-executive directors'
        : 'Independence of members not stated',
      goodPractice:
        'All members independent non-executive directors; the board chair does not sit on the audit committee',
      verdict: independent ? 'meets' : 'missing',
    });
    const quorum =
      /\bquorum\b[^.]{0,80}?\b(\w+)\s+(?:independent\s+)?members?\b|\b(\w+)\s+members?\b[^.]{0,40}\bquorum\b/i.exec(
        t,
      );
    const q = quorum ? num(quorum[1] ?? quorum[2]!) : null;
    checks.push({
      element: 'Quorum',
      found: quorum
        ? truncate(quorum[0], 120)
        : /quorum/i.test(t)
          ? 'Quorum mentioned without a number'
          : 'No quorum stated',
      goodPractice: 'At least two members, both independent',
      verdict: q === null ? (/quorum/i.test(t) ? 'weak' : 'missing') : q >= 2 ? 'meets' : 'weak',
    });
    const freq =
      /\bmeet\w*\b[^.\n]{0,60}?\b(?:at least\s+)?(once|twice|\w+\s+times)\s+(?:a|per|each|in (?:the|each))\s+(?:year|financial year)/i.exec(
        t,
      );
    const quarterly = /\bmeet\w*\b[^.\n]{0,40}\bquarterly\b/i.test(t);
    const times = freq ? num(freq[1]!.replace(/\s+times$/i, '')) : quarterly ? 4 : null;
    const minTimes = audit ? 3 : 2;
    checks.push({
      element: 'Meeting frequency',
      found: freq
        ? truncate(freq[0], 120)
        : quarterly
          ? 'Meets quarterly'
          : 'No meeting frequency stated',
      goodPractice: audit
        ? 'At least three meetings a year, timed to the reporting and audit cycle'
        : 'At least twice a year',
      verdict: times === null ? 'missing' : times >= minTimes ? 'meets' : 'weak',
    });
    const byKey = (k: string) => items.find((i) => i.key === k)!;
    for (const [key, element, practice] of [
      ['duties', 'Duties', "Duties listed in full, matching the committee's remit"],
      [
        'reporting',
        'Reporting to the board',
        'Reports to the board after each meeting and in the annual report',
      ],
      [
        'annualReview',
        'Annual review',
        'Reviews its terms of reference and its own effectiveness every year',
      ],
    ] as const) {
      const r = byKey(key);
      checks.push({
        element,
        found:
          r.status === 'covered'
            ? `${r.section ? `"${r.section}": ` : ''}${r.evidence ?? 'present'}`
            : r.status === 'partial'
              ? `Only mentioned: ${r.evidence}`
              : 'Not found',
        goodPractice: practice,
        verdict: r.status === 'covered' ? 'meets' : r.status === 'partial' ? 'weak' : 'missing',
      });
    }
    return {
      fileName: doc.fileName,
      title: doc.title,
      committee,
      score: coverageScore(items).score,
      items,
      checks,
    };
  },
});
