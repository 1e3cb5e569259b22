import { plural } from '../../../report/words';
import { barChart } from '../../../tools/charts';
import { file, fileNameFor, markdownTable, text } from '../../../tools/reports';
import { list } from '../../report-parts';
import { projectRiskRegister, type ProjectRiskRegister } from '../tools/project-risks';
import { defineGovernance } from './define';
import { documents } from './inputs';
import type { Section } from '../../../report/section';

function projectRisksReport(p: ProjectRiskRegister): Section {
  const cats = ['Delivery', 'Financial', 'Legal', 'Security', 'People'];
  const high = p.risks.filter((r) => r.rating === 'High');
  return {
    title: `Project risk register: ${p.project}`,
    content: [
      text(
        `A first risk register for **${p.project}** from ${p.source}: ${plural(p.risks.length, 'risk')} across delivery, financial, legal, security and people, each with likelihood, impact, an owner role and a first mitigation. ${high.length ? `Highest: ${list(high.slice(0, 3).map((r) => r.risk.toLowerCase()))}.` : ''} ${p.tailored ? 'Risks your description points to are rated one step likelier and say why; the rest are common to projects of this kind.' : 'Your message does not describe the project yet (its scope, suppliers, data, deadline or budget), so these are the risks common to most projects: describe it or attach the brief and I will tailor them.'}`,
      ),
      text(
        markdownTable(
          [
            'ID',
            'Category',
            'Risk',
            'Likelihood',
            'Impact',
            'Score',
            'Owner role',
            'First mitigation',
          ],
          p.risks.map((r) => [
            r.id,
            r.category,
            r.risk + (r.because ? ` (${r.because})` : ''),
            r.likelihood,
            r.impact,
            `${r.score} (${r.rating})`,
            r.ownerRole,
            r.mitigation,
          ]),
        ),
      ),
      barChart(
        'Risk score by category (highest risk)',
        cats,
        [
          {
            label: 'Score',
            data: cats.map((c) =>
              Math.max(0, ...p.risks.filter((r) => r.category === c).map((r) => r.score)),
            ),
          },
        ],
        { max: 25 },
      ),
      file(fileNameFor(`${p.project} risk register`, 'csv'), p.csv),
    ],
    nextSteps: [],
  };
}

/** A first risk register for a new project, from its description or brief. */
export const projectRisks = defineGovernance({
  task: {
    key: 'project-risks',
    title: 'Project risk register',
    words:
      /\b(new project|project risk|risks? (of|for) (a|the|our) (new )?project|draft\w* a risk register)\b/i,
  },
  tool: projectRiskRegister,
  plan: (ctx, request) => {
    const doc = documents(ctx)[0];
    return [
      {
        tool: projectRiskRegister.name,
        input: { description: request.slice(0, 20_000), ...(doc ? { file: doc.fileName } : {}) },
      },
    ];
  },
  render: projectRisksReport,
});
