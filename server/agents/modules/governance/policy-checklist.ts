import { plainLines } from '../../tools/documents';
import { round } from '../../tools/stats';

/** The governance policy checklist and the rules that decide whether a document covers each item. */

export interface ChecklistItem {
  key: string;
  label: string;
  /** Why the section matters: shown for gaps and written into the skeleton. */
  guidance: string;
  /** Words that, as a short heading line, mean the section exists. */
  headings: string[];
  /** Phrases in the body that show the topic is touched without its own section. */
  phrases: string[];
  /** Only applicable when the document deals with personal or sensitive data. */
  conditional?: boolean;
}

export const POLICY_CHECKLIST: ChecklistItem[] = [
  {
    key: 'purpose',
    label: 'Purpose',
    guidance: 'Why the policy exists and what it aims to achieve.',
    headings: [
      'purpose',
      'objective',
      'objectives',
      'aim',
      'aims',
      'introduction',
      'overview',
      'background',
      'policy purpose',
    ],
    phrases: [
      'purpose of this policy',
      'this policy sets out',
      'this policy explains',
      'this policy describes',
      'this policy establishes',
      'aims to',
      'is intended to',
    ],
  },
  {
    key: 'scope',
    label: 'Scope',
    guidance:
      'Who and what the policy applies to (people, systems, locations) and what is out of scope.',
    headings: ['scope', 'applicability', 'application', 'who this policy applies to', 'audience'],
    phrases: [
      'applies to',
      'apply to',
      'this policy covers',
      'it covers',
      'in scope',
      'out of scope',
    ],
  },
  {
    key: 'definitions',
    label: 'Definitions',
    guidance: 'The key terms used in the policy and their meaning.',
    headings: ['definitions', 'glossary', 'terms', 'key terms', 'terminology', 'interpretation'],
    phrases: [' means ', 'is defined as', 'for the purposes of this policy', 'refers to'],
  },
  {
    key: 'roles',
    label: 'Roles and responsibilities',
    guidance: 'Who owns, applies, monitors and follows the policy, and what each role must do.',
    headings: [
      'roles and responsibilities',
      'responsibilities',
      'roles',
      'accountabilities',
      'accountability',
    ],
    phrases: [
      'is responsible for',
      'are responsible for',
      'accountable for',
      'must ensure that',
      'responsibility of',
    ],
  },
  {
    key: 'statements',
    label: 'Policy statements',
    guidance: 'The rules themselves: what must and must not be done.',
    headings: [
      'policy statements',
      'policy statement',
      'policy',
      'policy requirements',
      'requirements',
      'principles',
      'rules',
      'standards',
      'policy details',
      'procedures',
    ],
    phrases: [
      ' must ',
      ' shall ',
      'must not',
      'are required to',
      'is prohibited',
      'are prohibited',
    ],
  },
  {
    key: 'compliance',
    label: 'Compliance and enforcement',
    guidance: 'How compliance is monitored and what happens on a breach.',
    headings: [
      'compliance',
      'enforcement',
      'compliance and enforcement',
      'breaches',
      'breach',
      'non compliance',
      'violations',
      'monitoring',
      'consequences',
    ],
    phrases: [
      'disciplinary',
      'breach of this policy',
      'breaches of this policy',
      'non-compliance',
      'failure to comply',
      'violation of this policy',
    ],
  },
  {
    key: 'exceptions',
    label: 'Exceptions',
    guidance: 'How to request an exception, who approves it and how exceptions are recorded.',
    headings: [
      'exceptions',
      'exemptions',
      'waivers',
      'deviations',
      'exception process',
      'exceptions process',
    ],
    phrases: ['exception', 'exceptions', 'exemption', 'exemptions', 'waiver', 'waivers'],
  },
  {
    key: 'review',
    label: 'Review cycle',
    guidance: 'How often the policy is reviewed, by whom, and the next review date.',
    headings: [
      'review',
      'policy review',
      'review cycle',
      'review and update',
      'review and maintenance',
      'maintenance',
      'document review',
    ],
    phrases: [
      'reviewed annually',
      'reviewed every',
      'reviewed each',
      'review date',
      'next review',
      'at least once a year',
      'reviewed at least',
      'annual review',
    ],
  },
  {
    key: 'ownership',
    label: 'Owner and approval',
    guidance: 'The accountable owner, the approving body, the approval date and the version.',
    headings: [
      'owner',
      'ownership',
      'approval',
      'approvals',
      'document control',
      'version control',
      'version history',
      'sign off',
      'document owner',
    ],
    phrases: ['policy owner', 'owner:', 'approved by', 'approval date', 'document owner'],
  },
  {
    key: 'related',
    label: 'Related documents',
    guidance: 'Other policies, standards, procedures and laws this policy relies on.',
    headings: [
      'related documents',
      'related policies',
      'references',
      'see also',
      'associated documents',
      'supporting documents',
      'related procedures',
    ],
    phrases: [
      'related policies',
      'related policy',
      'see also',
      'in conjunction with',
      'refer to the',
    ],
  },
  {
    key: 'dataProtection',
    label: 'Data protection',
    conditional: true,
    guidance:
      'How personal data is collected, used, stored, shared and deleted, and the legal basis (e.g. GDPR).',
    headings: [
      'data protection',
      'privacy',
      'personal data',
      'information security',
      'confidentiality',
      'data privacy',
    ],
    phrases: ['personal data', 'gdpr', 'data protection', 'privacy', 'data subject', 'ccpa'],
  },
];

export type CoverageStatus = 'covered' | 'partial' | 'missing' | 'not applicable';

export interface CoverageResult {
  item: ChecklistItem;
  status: CoverageStatus;
  /** The heading or sentence that showed the item, when found. */
  evidence: string | null;
}

export interface PolicyCoverage {
  title: string;
  results: CoverageResult[];
  /** Covered counts 1, partial 0.5, over the applicable items; a percentage with one decimal. */
  score: number;
  applicable: number;
}

const normalize = (s: string) =>
  ` ${s
    .toLowerCase()
    .replace(/[^a-z0-9:]+/g, ' ')
    .trim()} `;

/** Strips numbering like "1.", "2.3", "Section 4:", "IV." from a heading line. */
function stripNumbering(line: string): string {
  return line.replace(
    /^\s*(section|article|part|clause)?\s*([0-9]+(\.[0-9]+)*|[ivxlc]+|[a-z])[.):]?\s+/i,
    '',
  );
}

function isHeadingLike(line: string): boolean {
  const words = stripNumbering(line).split(/\s+/).filter(Boolean);
  return words.length > 0 && words.length <= 8 && !/[.;,]$/.test(line.trim());
}

const RELEVANT_TO_DATA =
  /\b(personal|data|privacy|records?|customer|employee information|confidential|gdpr|information)\b/i;

export function checkPolicy(textContent: string): PolicyCoverage {
  const lines = plainLines(textContent);
  const first = lines[0] ?? '';
  const title = isHeadingLike(first) ? stripNumbering(first).slice(0, 120) : 'Policy';
  // The first line is usually the document's title ("Data Retention Policy"): not a section.
  const headingLines = lines
    .slice(
      isHeadingLike(first) &&
        /policy|standard|procedure|code|charter|guideline|framework/i.test(first)
        ? 1
        : 0,
    )
    .filter(isHeadingLike);
  const body = normalize(lines.join(' \n '));
  const results: CoverageResult[] = POLICY_CHECKLIST.map((item) => {
    if (item.conditional && !RELEVANT_TO_DATA.test(textContent))
      return { item, status: 'not applicable', evidence: null };
    const heading = headingLines.find((l) => {
      const n = normalize(stripNumbering(l));
      return item.headings.some((h) => n.includes(` ${h} `));
    });
    if (heading) return { item, status: 'covered', evidence: heading.trim() };
    const phrase = item.phrases.find((p) => body.includes(` ${normalize(p).trim()} `));
    if (phrase) {
      const line =
        lines.find((l) => normalize(l).includes(` ${normalize(phrase).trim()} `)) ?? null;
      return { item, status: 'partial', evidence: line ? truncate(line, 140) : null };
    }
    return { item, status: 'missing', evidence: null };
  });
  const applicable = results.filter((r) => r.status !== 'not applicable');
  const points = applicable.reduce(
    (s, r) => s + (r.status === 'covered' ? 1 : r.status === 'partial' ? 0.5 : 0),
    0,
  );
  return {
    title,
    results,
    score: applicable.length ? round((points / applicable.length) * 100, 1) : 0,
    applicable: applicable.length,
  };
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

/** A markdown skeleton with the sections the policy lacks (or only touches), ready to fill in. */
export function policySkeleton(title: string, results: CoverageResult[]): string {
  const todo = results.filter((r) => r.status === 'missing' || r.status === 'partial');
  const parts = [
    `# ${title}: missing sections`,
    '',
    `Sections to add to "${title}" so it meets the governance checklist. Replace each prompt with your text.`,
    '',
  ];
  todo.forEach((r, i) => {
    parts.push(`## ${i + 1}. ${r.item.label}`, '', `_${r.item.guidance}_`, '');
    if (r.status === 'partial' && r.evidence)
      parts.push(
        `> Already mentioned in the text: "${r.evidence}". Move it into its own section and complete it.`,
        '',
      );
    parts.push(...skeletonPrompts(r.item.key), '');
  });
  if (!todo.length)
    parts.push(
      'Every checklist section is present. Keep the review date and the approval record up to date.',
      '',
    );
  return parts.join('\n');
}

/** A complete policy template with every checklist section, for drafting from scratch. */
export function fullPolicyTemplate(title: string): string {
  const parts = [
    `# ${title}`,
    '',
    '| Field | Value |',
    '| --- | --- |',
    '| Owner | [role] |',
    '| Approved by | [body], [date] |',
    '| Version | 0.1 (draft) |',
    '| Next review | [date] |',
    '',
  ];
  POLICY_CHECKLIST.forEach((item, i) => {
    parts.push(
      `## ${i + 1}. ${item.label}${item.conditional ? ' (where the policy touches personal data)' : ''}`,
      '',
      `_${item.guidance}_`,
      '',
      ...skeletonPrompts(item.key),
      '',
    );
  });
  return parts.join('\n');
}

function skeletonPrompts(key: string): string[] {
  const prompts: Record<string, string[]> = {
    purpose: ['This policy sets out [what] so that [outcome].'],
    scope: [
      'This policy applies to [employees, contractors, third parties] and to [systems, data, locations].',
      'Out of scope: [...]',
    ],
    definitions: ['| Term | Meaning |', '| --- | --- |', '| [Term] | [Meaning] |'],
    roles: [
      '| Role | Responsibilities |',
      '| --- | --- |',
      '| Policy owner | Maintains the policy and answers questions |',
      '| Managers | Make sure their teams follow the policy |',
      '| All staff | Read, understand and follow the policy |',
    ],
    statements: ['- Staff must [...].', '- Staff must not [...].'],
    compliance: [
      'Compliance is checked by [method, frequency]. Breaches are reported to [role] and may lead to disciplinary action.',
    ],
    exceptions: [
      'Exceptions are requested from [role] in writing, with the reason and an end date. Approved exceptions are recorded in [register] and reviewed [frequency].',
    ],
    review: [
      'This policy is reviewed every [12 months] by [owner], or sooner after a significant change in law or the business. Next review: [date].',
    ],
    ownership: [
      'Owner: [role]. Approved by: [body] on [date]. Version: [x.y].',
      '',
      '| Version | Date | Author | Change |',
      '| --- | --- | --- | --- |',
      '| 1.0 | [date] | [name] | First approved version |',
    ],
    related: ['- [Related policy]', '- [Procedure or standard]', '- [Law or regulation]'],
    dataProtection: [
      'Personal data handled under this policy is processed lawfully under [legal basis], kept only as long as [retention period], protected by [controls] and shared only with [recipients]. Contact the Data Protection Officer at [contact].',
    ],
  };
  return prompts[key] ?? ['[...]'];
}
