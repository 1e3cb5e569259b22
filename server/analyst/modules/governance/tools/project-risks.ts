import { z } from 'zod';
import { defineTool } from '../../../tools/tool';
import { withOutput } from '../capabilities/output';
import { isDocumentName, readDocument } from '../read';

const RiskCategorySchema = z.enum(['Delivery', 'Financial', 'Legal', 'Security', 'People']);
export type RiskCategory = z.infer<typeof RiskCategorySchema>;
const ProjectRiskSchema = z.object({
  id: z.string(),
  category: RiskCategorySchema,
  risk: z.string(),
  likelihood: z.number(),
  impact: z.number(),
  score: z.number(),
  rating: z.enum(['High', 'Medium', 'Low']),
  ownerRole: z.string(),
  mitigation: z.string(),
  /** The words of the description that made this risk likely ("supplier", "personal data"). */
  because: z.string().nullable(),
});
export type ProjectRisk = z.infer<typeof ProjectRiskSchema>;
export const ProjectRiskRegisterOutput = z.object({
  project: z.string(),
  source: z.string(),
  /** False when the description named nothing the risks could be tailored to. */
  tailored: z.boolean(),
  risks: z.array(ProjectRiskSchema),
  csv: z.string(),
});
export type ProjectRiskRegister = z.infer<typeof ProjectRiskRegisterOutput>;

interface Template {
  category: RiskCategory;
  risk: string;
  likelihood: number;
  impact: number;
  ownerRole: string;
  mitigation: string;
  /** Words in the project description that make the risk likelier (+1) and tailor it. */
  trigger?: RegExp;
}

const LIBRARY: Template[] = [
  {
    category: 'Delivery',
    risk: 'The go-live date slips because scope grows during the project',
    likelihood: 3,
    impact: 3,
    ownerRole: 'Project manager',
    mitigation: 'Baseline the scope, run change control through the steering group',
    trigger:
      /\b(deadline|go-?live|launch|by (q[1-4]|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|phase)\b/i,
  },
  {
    category: 'Delivery',
    risk: 'A key supplier or integrator delivers late or below the agreed quality',
    likelihood: 3,
    impact: 4,
    ownerRole: 'Supplier manager',
    mitigation: 'Milestone payments tied to acceptance; weekly supplier checkpoint',
    trigger: /\b(supplier|vendor|integrator|partner|outsourc\w*|contractor|saas|platform)\b/i,
  },
  {
    category: 'Delivery',
    risk: 'Data migration from the old system is incomplete or wrong',
    likelihood: 3,
    impact: 4,
    ownerRole: 'Data lead',
    mitigation: 'Trial migrations with reconciliation reports before cut-over',
    trigger: /\b(migrat\w*|legacy|replace|cut-?over|data transfer)\b/i,
  },
  {
    category: 'Financial',
    risk: 'Costs exceed the approved budget',
    likelihood: 3,
    impact: 3,
    ownerRole: 'Finance business partner',
    mitigation: 'Monthly budget-to-actual review; a 10% contingency released only by the sponsor',
    trigger: /(£|\$|€|\bbudget\b|\bcost\b|\bcapex\b)/i,
  },
  {
    category: 'Financial',
    risk: 'The expected benefits are not realised after go-live',
    likelihood: 2,
    impact: 4,
    ownerRole: 'Project sponsor',
    mitigation: 'Benefits register with owners and a 6-month post-implementation review',
    trigger: /\b(saving|savings|benefit|revenue|roi|efficien\w*)\b/i,
  },
  {
    category: 'Legal',
    risk: 'Contract terms leave us without remedies if the supplier fails',
    likelihood: 2,
    impact: 4,
    ownerRole: 'Legal counsel',
    mitigation: 'Legal review of service levels, liability caps, exit and step-in rights',
    trigger: /\b(contract|supplier|vendor|licen[cs]e)\b/i,
  },
  {
    category: 'Legal',
    risk: 'Processing personal data without a lawful basis or a DPIA breaches data protection law',
    likelihood: 2,
    impact: 5,
    ownerRole: 'Data Protection Officer',
    mitigation: 'Complete a DPIA before build; update the record of processing',
    trigger:
      /\b(personal data|customer data|employee data|gdpr|privacy|patients?|hr data|payroll)\b/i,
  },
  {
    category: 'Security',
    risk: 'Unauthorised access to data through the new system or its integrations',
    likelihood: 3,
    impact: 5,
    ownerRole: 'Information security lead',
    mitigation:
      'Security architecture review, single sign-on, least-privilege roles, penetration test before go-live',
    trigger: /\b(cloud|integrat\w*|api|access|portal|online|app)\b/i,
  },
  {
    category: 'Security',
    risk: 'A supplier with access to our data suffers a breach',
    likelihood: 2,
    impact: 5,
    ownerRole: 'Information security lead',
    mitigation:
      'Supplier security questionnaire, ISO 27001 or SOC 2 evidence, breach notice clause',
    trigger: /\b(supplier|vendor|saas|third[- ]party|hosted)\b/i,
  },
  {
    category: 'People',
    risk: 'Staff do not adopt the new way of working',
    likelihood: 3,
    impact: 3,
    ownerRole: 'Change lead',
    mitigation: 'Change plan with champions, training before go-live, adoption measures',
    trigger: /\b(staff|users|employees|teams?|training|adoption|rollout|roll-out)\b/i,
  },
  {
    category: 'People',
    risk: 'Key project people leave or are pulled back to their day jobs',
    likelihood: 3,
    impact: 3,
    ownerRole: 'Project sponsor',
    mitigation: 'Named deputies, backfill for seconded staff, documented decisions',
    trigger: /\b(team|resourc\w*|secondment|small team|key person)\b/i,
  },
];

export const ratingOf = (score: number): ProjectRisk['rating'] =>
  score >= 15 ? 'High' : score >= 8 ? 'Medium' : 'Low';

const csvCell = (v: string | number | null) => {
  const s = String(v ?? '');
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/**
 * Drafts a project risk register from the project's description (and brief, when attached): the
 * likely delivery, financial, legal, security and people risks, two or more per category, each
 * with likelihood and impact (1-5), an owner role and a first mitigation. A risk the description
 * points to ("supplier", "personal data", "migration") is rated one step likelier and says why.
 */
export const projectRiskRegister = withOutput(
  ProjectRiskRegisterOutput,
  defineTool({
    name: 'project_risk_register',
    description:
      'Draft a risk register for a new project from its description (and an attached brief): delivery, financial, legal, security and people risks, each with likelihood, impact (1-5), score, owner role and a first mitigation; risks the description points to are rated likelier and say why.',
    input: z.object({
      description: z.string().max(20_000).describe('The project as the user described it'),
      file: z.string().max(255).optional(),
    }),
    async run(ctx, { description, file }): Promise<ProjectRiskRegister> {
      let textContent = description;
      let source = 'your description';
      const brief = file ?? ctx.fileNames.find(isDocumentName);
      if (brief) {
        const doc = await readDocument(ctx, brief);
        textContent = `${description}\n${doc.text}`;
        source = `your description and ${doc.fileName}`;
      }
      const project =
        /(?:^|\n|[.:]\s+)(?:project|programme|initiative)(?:\s+name)?\s*:\s*([^\n.;,]{3,60})/i
          .exec(textContent)?.[1]
          ?.trim() ??
        /\bproject (?:to|for)\s+(?!a new project)([^\n.,;:]{3,60})/i
          .exec(textContent)?.[1]
          ?.trim() ??
        'New project';
      const risks: ProjectRisk[] = [];
      for (const category of [
        'Delivery',
        'Financial',
        'Legal',
        'Security',
        'People',
      ] as RiskCategory[]) {
        const candidates = LIBRARY.filter((t) => t.category === category).map((t) => {
          const hit = t.trigger?.exec(textContent)?.[0] ?? null;
          return { t, hit };
        });
        // The ones the description points to first; at least two per category.
        candidates.sort((a, b) => Number(!!b.hit) - Number(!!a.hit));
        const chosen = candidates.filter((c, i) => c.hit || i < 2);
        for (const { t, hit } of chosen) {
          const likelihood = Math.min(5, t.likelihood + (hit ? 1 : 0));
          const score = likelihood * t.impact;
          risks.push({
            id: `R${String(risks.length + 1).padStart(2, '0')}`,
            category,
            risk: t.risk,
            likelihood,
            impact: t.impact,
            score,
            rating: ratingOf(score),
            ownerRole: t.ownerRole,
            mitigation: t.mitigation,
            because: hit ? `the project mentions "${hit}"` : null,
          });
        }
      }
      const header = [
        'ID',
        'Category',
        'Risk',
        'Likelihood (1-5)',
        'Impact (1-5)',
        'Score',
        'Rating',
        'Owner role',
        'First mitigation',
        'Why it is likely',
      ];
      const csv = `${[
        header,
        ...risks.map((r) => [
          r.id,
          r.category,
          r.risk,
          r.likelihood,
          r.impact,
          r.score,
          r.rating,
          r.ownerRole,
          r.mitigation,
          r.because ?? 'common to projects of this kind',
        ]),
      ]
        .map((row) => row.map(csvCell).join(','))
        .join('\n')}\n`;
      return { project, source, tailored: risks.some((r) => r.because), risks, csv };
    },
  }),
);
