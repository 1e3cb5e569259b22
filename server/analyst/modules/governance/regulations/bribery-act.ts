import type { Regulation } from './types';

/**
 * Section 7 makes a commercial organisation liable when a person associated with it bribes to
 * win or keep business; its defence is "adequate procedures" (s.7(2)), described by the Ministry
 * of Justice guidance under s.9 (2011) in six principles.
 */
export const BRIBERY_ACT: Regulation = {
  id: 'bribery-act',
  name: 'UK Bribery Act 2010 (adequate procedures)',
  citation: 'Bribery Act 2010, s.7, and the Ministry of Justice guidance under s.9 (March 2011)',
  aliases: /\b(uk )?bribery act( 2010)?\b|\badequate procedures\b/i,
  scope:
    'Organisations carrying on business, or part of a business, in the UK (s.7(5)); the defence to s.7 is having adequate procedures (s.7(2)).',
  obligations: [
    {
      ref: 's.1, s.2, s.6',
      label: 'The offences stated',
      requirement:
        'The policy forbids offering, promising or giving a bribe (s.1), requesting or accepting one (s.2) and bribing a foreign public official (s.6).',
      names: ['policy statement', 'what is bribery', 'definitions'],
      cues: [
        /\b(offer\w*|promis\w*|giv\w*)\b[^.\n]{0,60}\b(bribes?|advantage)\b/i,
        /\b(request\w*|accept\w*|receiv\w*)\b[^.\n]{0,60}\b(bribes?|advantage)\b/i,
        /\b(foreign )?public officials?\b/i,
      ],
      minCues: 2,
    },
    {
      ref: 'MoJ Principle 1',
      label: 'Proportionate procedures',
      requirement:
        'Procedures proportionate to the bribery risks the organisation faces, clear, practical and enforced.',
      names: ['procedures', 'our approach'],
      cues: [/\bproportionate\b/i, /\bprocedures?\b/i],
      minCues: 2,
    },
    {
      ref: 'MoJ Principle 2',
      label: 'Top-level commitment',
      requirement:
        'The board and senior management are committed to preventing bribery and foster a culture where it is never acceptable (for example a statement of zero tolerance from the top).',
      names: ['top-level commitment', 'commitment', 'tone from the top'],
      cues: [
        /\bzero[- ]tolerance\b/i,
        /\b(board|chief executive|ceo|senior management|directors?)\b[^.\n]{0,80}\b(commit\w*|responsib\w*)\b/i,
      ],
    },
    {
      ref: 'MoJ Principle 3',
      label: 'Risk assessment',
      requirement:
        'The nature and extent of exposure to external and internal bribery risks is assessed periodically, informed and documented.',
      names: ['risk assessment'],
      cues: [/\brisk assessment\b|\bassess\w*\b[^.\n]{0,40}\b(bribery )?risks?\b/i],
    },
    {
      ref: 'MoJ Principle 4',
      label: 'Due diligence',
      requirement:
        'Proportionate, risk-based due diligence on people who perform services for or on behalf of the organisation (agents, intermediaries, suppliers, joint venture partners).',
      names: ['due diligence', 'third parties', 'associated persons'],
      cues: [
        /\bdue diligence\b/i,
        /\b(agents?|intermediar\w*|third part(y|ies)|associated persons?)\b/i,
      ],
    },
    {
      ref: 'MoJ Principle 5',
      label: 'Communication and training',
      requirement:
        'The policies and procedures are embedded and understood through internal and external communication, including training proportionate to the risks.',
      names: ['training', 'communication', 'communication and training'],
      cues: [/\btraining\b/i, /\bcommunicat\w*\b/i],
    },
    {
      ref: 'MoJ Principle 6',
      label: 'Monitoring and review',
      requirement: 'The procedures are monitored and reviewed, and improved where necessary.',
      names: ['monitoring and review', 'monitoring', 'review'],
      cues: [
        /\bmonitor\w*\b/i,
        /\breview\w*\b[^.\n]{0,60}\b(procedures?|policy|controls?|annually|every)\b/i,
      ],
    },
    {
      ref: 'MoJ guidance',
      label: 'Facilitation payments',
      requirement:
        'Facilitation payments are bribes under the Act (there is no exemption); the policy says how to refuse them.',
      names: ['facilitation payments'],
      cues: [/\bfacilitation payments?\b|\bgrease payments?\b/i],
    },
    {
      ref: 'MoJ guidance',
      label: 'Gifts and hospitality',
      requirement:
        'Bona fide hospitality is allowed when reasonable and proportionate; limits, approval and a register keep it so.',
      names: ['gifts and hospitality', 'gifts', 'hospitality'],
      cues: [/\b(gifts?|hospitality)\b/i, /\bregister\b/i],
      minCues: 2,
    },
    {
      ref: 'Public Interest Disclosure Act 1998',
      label: 'Raising concerns',
      requirement:
        'A confidential way to raise suspicions of bribery, without retaliation (whistleblowing).',
      names: ['raising concerns', 'speak up', 'whistleblowing', 'reporting concerns'],
      cues: [
        /\b(whistle-?blow\w*|speak[- ]up|raise (a )?concerns?|report\w* (suspicions?|concerns?))\b/i,
      ],
    },
  ],
};
