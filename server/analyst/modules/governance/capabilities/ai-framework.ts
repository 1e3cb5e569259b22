import { file } from '../../../tools/reports';
import { list } from '../../report-parts';
import { aiGovernanceFramework, type AiFramework } from '../tools/ai-framework';
import { checklistTable } from './coverage';
import { defineGovernance } from './define';
import { laidOut, section, table, type Section } from '../../../report/section';

function aiFrameworkReport(a: AiFramework): Section {
  const covered = a.existing?.items.filter((i) => i.status === 'covered') ?? [];
  const tiers = table<AiFramework['tiers'][number]>(
    [
      { header: 'Tier', value: (t) => t.tier },
      { header: 'Examples', value: (t) => t.examples },
      { header: 'Controls', value: (t) => t.controls },
    ],
    a.tiers,
  );
  return section('AI use governance framework', {
    answer: [
      `Here is a governance framework for AI tools with the six parts you asked for: an inventory, risk tiers, approval steps, human oversight, record keeping and staff guidance. ${a.existing ? (covered.length ? `${a.existing.fileName} already covers ${covered.length} of 6 (${list(covered.map((c) => c.label.toLowerCase()))}); the framework points to it there.` : `${a.existing.fileName} covers none of the six yet, so the framework adds all of them; the table below shows what it touches in passing.`) : 'No existing policy was attached, so it starts from scratch.'}`,
    ],
    content: [
      ...laidOut(['### Risk tiers', '', tiers.markdown()]),
      ...(a.existing
        ? laidOut([
            `### What ${a.existing.fileName} already covers`,
            '',
            checklistTable(a.existing.items).markdown(),
          ])
        : []),
      file('ai-use-governance-framework.md', a.framework),
    ],
  });
}

/** A governance framework for AI tools, pointing to what an attached policy already covers. */
export const aiFramework = defineGovernance({
  task: {
    key: 'ai-framework',
    title: 'AI use governance framework',
    words:
      /\b(ai (use|tools?|governance)|artificial intelligence|generative ai framework|framework for (the use of )?ai)\b/i,
  },
  tool: aiGovernanceFramework,
  plan: () => [{ tool: aiGovernanceFramework.name, input: {} }],
  render: aiFrameworkReport,
});
