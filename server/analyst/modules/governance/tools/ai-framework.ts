import { z } from 'zod';
import { defineTool } from '../../../tools/tool';
import { withOutput } from '../capabilities/output';
import { AI_FRAMEWORK } from '../checklists';
import { isDocumentName, readDocument } from '../read';
import { ConceptResultSchema, judgeConcepts } from '../sections';

export const AiFrameworkOutput = z.object({
  /** What an attached IT or data policy already covers, per framework element. */
  existing: z.object({ fileName: z.string(), items: z.array(ConceptResultSchema) }).nullable(),
  tiers: z.array(z.object({ tier: z.string(), examples: z.string(), controls: z.string() })),
  framework: z.string(),
});
export type AiFramework = z.infer<typeof AiFrameworkOutput>;

const TIERS = [
  {
    tier: 'Prohibited',
    examples:
      'Decisions about people made by AI alone (hiring, firing, pay); emotion recognition at work; putting secret or special-category data into public tools',
    controls: 'Not allowed',
  },
  {
    tier: 'High',
    examples:
      "AI that informs decisions about people, customers' money or safety; customer-facing automated answers",
    controls:
      'DPIA, legal and security review, executive approval, named human reviewer for every output, quarterly audit',
  },
  {
    tier: 'Limited',
    examples:
      'Drafting internal documents, summarising non-confidential material, coding assistants on approved repositories',
    controls:
      'Approved tool only, manager approval, output checked by the user, disclosure where AI content is published',
  },
  {
    tier: 'Minimal',
    examples: 'Spell-checking, translation of public text, search',
    controls: 'Approved tool list; no extra approval',
  },
];

/**
 * Drafts an AI use governance framework (inventory, risk tiers, approval steps, human oversight,
 * record keeping, staff guidance) and, when an IT or data policy is attached, marks which of
 * those elements it already covers so the framework builds on it rather than repeating it.
 */
export const aiGovernanceFramework = withOutput(
  AiFrameworkOutput,
  defineTool({
    name: 'ai_governance_framework',
    description:
      'Draft a governance framework for AI tools: an inventory template, risk tiers with controls, approval steps, human oversight, record keeping and staff guidance; marks what an attached IT or data policy already covers.',
    input: z.object({ organisation: z.string().max(100).optional() }),
    async run(ctx, { organisation }): Promise<AiFramework> {
      const name = ctx.fileNames.find(isDocumentName);
      let existing: AiFramework['existing'] = null;
      if (name) {
        const doc = await readDocument(ctx, name);
        existing = { fileName: doc.fileName, items: judgeConcepts(doc, AI_FRAMEWORK) };
      }
      const org = organisation ?? 'the organisation';
      const covered = (key: string) => {
        const r = existing?.items.find((i) => i.key === key);
        return r && r.status === 'covered'
          ? `\n\n_Already covered in ${existing!.fileName}${r.section ? `, section "${r.section}"` : ''}: align this section with it._`
          : '';
      };
      const framework = [
        `# AI use governance framework for ${org}`,
        '',
        '## 1. AI inventory' + covered('inventory'),
        '',
        'Every AI tool and use case is recorded before use and reviewed every six months.',
        '',
        '| ID | Tool or system | Use case | Business owner | Data used | Vendor | Risk tier | Approved on | Next review |',
        '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
        '| AI-01 | [tool] | [what it is used for] | [role] | [none / internal / personal / special category] | [vendor] | [tier] | [date] | [date] |',
        '',
        '## 2. Risk tiers' + covered('riskTiers'),
        '',
        '| Tier | Examples | Controls |',
        '| --- | --- | --- |',
        ...TIERS.map((t) => `| ${t.tier} | ${t.examples} | ${t.controls} |`),
        '',
        '## 3. Approval steps' + covered('approval'),
        '',
        '1. The business owner records the use case in the inventory and proposes a tier.',
        '2. Information security reviews the vendor and the data flows; the Data Protection Officer decides whether a DPIA is needed (always for high tier).',
        '3. Legal reviews the contract terms (training on our data, IP in outputs, liability).',
        '4. Approval: the line manager for minimal and limited tiers; the AI steering group for high tier.',
        '5. The inventory records the decision, conditions and next review date.',
        '',
        '## 4. Human oversight' + covered('oversight'),
        '',
        '- A named person checks AI output before it is relied on, published or sent to a customer, and can override it.',
        '- No decision with legal or similar effect on a person is made by AI alone.',
        '- High-tier uses sample and re-check outputs every quarter and report errors to the steering group.',
        '',
        '## 5. Record keeping' + covered('records'),
        '',
        '- The inventory, approvals, DPIAs and reviews are kept for the life of the use case plus six years.',
        '- High-tier uses log inputs where lawful, outputs used, the reviewer and the decision taken.',
        '- Incidents (wrong, biased or leaked output) are logged and handled under the incident process.',
        '',
        '## 6. Staff guidance' + covered('guidance'),
        '',
        '- Use only approved tools, signed in with your work account.',
        '- Never paste personal data, customer data, passwords or confidential plans into a tool that is not approved for them.',
        '- Check facts, figures and references in AI output; you are responsible for what you send.',
        '- Say when published content was drafted with AI, where our disclosure rules require it.',
        '- Complete the AI awareness training before first use, and yearly after.',
        '',
        '## 7. Ownership and review',
        '',
        'Owner: [Chief Information Officer or Chief Risk Officer]. Approved by: [board or executive committee] on [date]. Reviewed every year, or sooner when the law (for example the EU AI Act) or our use changes.',
        '',
      ].join('\n');
      return { existing, tiers: TIERS, framework };
    },
  }),
);
