import type { ModuleKey } from '@contract/modules';
import type { ModuleOffer } from './honest';

/** What each module's builtin analyst does with data: said whenever it cannot do what was asked. */
export const MODULE_OFFERS: Record<ModuleKey, ModuleOffer> = {
  'talent-intelligence': {
    moduleName: 'Talent Intelligence',
    canDo:
      'compute headcount, attrition, tenure, pay and gender pay gaps, spans of control and skills gaps from your HR exports, with the definitions stated',
    attach: 'a workforce export from your HR system (CSV or XLSX, one row per employee)',
    examples: [
      'What is our attrition rate over the last 12 months, by department?',
      'Show the mean and median gender pay gap by grade',
      'Which managers have fewer than 3 or more than 12 direct reports?',
    ],
  },
  governance: {
    moduleName: 'Governance',
    canDo:
      'check policies against a checklist of the sections they need, summarise board packs, turn minutes into an action log and review risk registers',
    attach: 'the policy, board paper, minutes or risk register (DOCX, PDF, text, CSV or XLSX)',
    examples: [
      'Check this policy for missing sections',
      'Summarise this board pack with the decisions asked of the board',
      'Turn these minutes into an action log with owners and dates',
    ],
  },
  'brand-hub': {
    moduleName: 'Brand Hub',
    canDo:
      'review copy against your brand guidelines (banned terms, preferred words, tone, readability) and draft briefs, calendars and messaging from your inputs',
    attach: 'the copy to review and, if you have them, your brand guidelines (text, DOCX or PDF)',
    examples: [
      'Review this copy against our brand voice',
      'Write a campaign brief for our spring launch',
      'Plan a quarterly content calendar for our three audiences',
    ],
  },
};
