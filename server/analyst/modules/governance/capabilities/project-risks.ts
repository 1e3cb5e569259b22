import { plural } from '../../../report/words';
import { barChart } from '../../../tools/charts';
import { file, fileNameFor } from '../../../tools/reports';
import { list } from '../../report-parts';
import { projectRiskRegister, type ProjectRiskRegister } from '../tools/project-risks';
import { defineGovernance } from './define';
import { documents } from './inputs';
import { laidOut, section, table, type Section } from '../../../report/section';

function projectRisksReport(p: ProjectRiskRegister): Section {
  const cats = ['Delivery', 'Financial', 'Legal', 'Security', 'People'];
  const high = p.risks.filter((r) => r.rating === 'High');
  const risks = table<ProjectRiskRegister['risks'][number]>(
    [
      { header: 'ID', value: (r) => r.id },
      { header: 'Category', value: (r) => r.category },
      { header: 'Risk', value: (r) => r.risk + (r.because ? ` (${r.because})` : '') },
      { header: 'Likelihood', value: (r) => r.likelihood },
      { header: 'Impact', value: (r) => r.impact },
      { header: 'Score', value: (r) => `${r.score} (${r.rating})` },
      { header: 'Owner role', value: (r) => r.ownerRole },
      { header: 'First mitigation', value: (r) => r.mitigation },
    ],
    p.risks,
  );
  return section(`Project risk register: ${p.project}`, {
    answer: [
      `A first risk register for **${p.project}** from ${p.source}: ${plural(p.risks.length, 'risk')} across delivery, financial, legal, security and people, each with likelihood, impact, an owner role and a first mitigation. ${high.length ? `Highest: ${list(high.slice(0, 3).map((r) => r.risk.toLowerCase()))}.` : ''} ${p.tailored ? 'Risks your description points to are rated one step likelier and say why; the rest are common to projects of this kind.' : 'Your message does not describe the project yet (its scope, suppliers, data, deadline or budget), so these are the risks common to most projects: describe it or attach the brief and I will tailor them.'}`,
    ],
    content: [
      ...laidOut([risks.markdown()]),
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
  });
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
