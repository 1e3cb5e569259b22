import type { ModuleKey } from '@contract/modules';
import { StructuredResponse } from '@contract/structured-response';
import { describe, expect, it } from 'vitest';
import { nextMove } from '../providers/builtin-model';
import { detectLanguage } from '../tools/language';
import { MODULE_AGENTS } from './catalog';
import type { FileInfo } from './module';

/**
 * Short English requests as people type them (lower case, typos, two questions in one): none is
 * refused for its language and none gets a title about language (ADR 0055). A 60-letter HR
 * question once scored German 1.00 against English 0.96 in franc and was refused.
 */
const REQUESTS: Record<ModuleKey, string[]> = {
  'talent-intelligence': [
    'What is our attrition by department and site, and do we have a gender pay gap?',
    'Headcount by department please, and where is attrition highest?',
    'whats our turnover this year',
    'how many ppl left in q3?',
    'gender pay gap by grade pls',
    'which team loses the most people',
    'show me headcount by site',
    'attrition by manager and tenure',
    'who are our regretted leavers',
    'are new hires leaving in the first year?',
    'pay by grade and department',
    'do we pay women less',
    'average tenure by dept',
    'span of control for managers',
    'is there bias in ratings by gender?',
    'calibration pack for sales',
    'promotion shortlist for engineering',
    'salary bands - who is outside their band',
    'how does our pay compare to market',
    'succession cover for critical roles',
    'skils gap for data analysts',
    'overview of the workforce pls',
  ],
  governance: [
    'check our speak-up policy against the eu whistleblowing directive and list the gaps',
    'what are the approval levels in the attached policy?',
    'review this policy for gaps',
    'is our data retention policy gdpr compliant',
    'list the obligations in this regulation',
    'what does the new ai act mean for us',
    'whats missing from our expenses policy',
    'when is this policy due for review?',
    'who owns this policy',
    'compare the two policies and tell me what changed',
    'summarise this contract pls',
    'does our anti bribery policy cover gifts and hospitality?',
    'map this policy to nis2',
    'risk register review',
    'check the dora requirements against our it policy',
    'pay transparency directive - are we ready?',
  ],
  'brand-hub': [
    'review this copy for our brand voice',
    'write me three tagline options for the winter sale',
    'is this on brand?',
    'check the attached brochure against our guidelines',
    'make this sound friendlier and plain',
    'any banned words in this email?',
    'rewrite the homepage hero in our tone',
    'draft a linkedin post about our new office',
    'headline ideas for the spring campaign pls',
    'check spelling of email vs e-mail in our copy',
    'give me a tone of voice guide from these samples',
    'campaign brief for the product launch',
    'is this press release too long winded',
    'shorten this paragraph',
    'score this landing page for readability',
    'our brand voice is friendly, plain - review the ad copy',
  ],
};

const FILES: Record<ModuleKey, FileInfo[]> = {
  'talent-intelligence': [
    { fileName: 'hr-export.csv', mimeType: 'text/csv', bytes: 2_000, kind: 'table' },
  ],
  governance: [
    {
      fileName: 'policy.docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      bytes: 20_000,
      kind: 'document',
    },
  ],
  'brand-hub': [{ fileName: 'copy.txt', mimeType: 'text/plain', bytes: 800, kind: 'document' }],
};

const cases = (Object.keys(REQUESTS) as ModuleKey[]).flatMap((m) =>
  REQUESTS[m].map((r) => [m, r] as const),
);

describe('short English requests are answered, never refused for language', () => {
  it('holds at least 50 requests', () => expect(cases.length).toBeGreaterThanOrEqual(50));

  it.each(cases)('%s: %s', (module, request) => {
    // The detector never names another language for a short request.
    expect(detectLanguage(request).english).toBe(true);
    for (const files of [FILES[module], []]) {
      const move = nextMove(
        {
          module: MODULE_AGENTS[module],
          request,
          history: [{ role: 'user', text: request, attachments: [] }],
          files,
        },
        [],
        0,
      );
      if ('calls' in move) {
        expect(move.calls.length).toBeGreaterThan(0);
        continue;
      }
      const report = StructuredResponse.parse(JSON.parse(move.text));
      const all = `${report.task_name}\n${JSON.stringify(report.content)}`;
      expect(report.task_name).not.toMatch(/english|language/i);
      expect(all).not.toMatch(/looks like|English requests only|English-only/i);
    }
  });
});
