import type { Regulation } from './types';

export const DORA: Regulation = {
  id: 'dora',
  name: 'DORA (Digital Operational Resilience Act)',
  citation: 'Regulation (EU) 2022/2554',
  aliases: /\b(dora|digital operational resilience( act)?|2022\/2554)\b/i,
  scope:
    'EU financial entities (banks, insurers, investment firms, payment institutions and others in Art. 2), from 17 January 2025.',
  obligations: [
    {
      ref: 'Art. 5',
      label: 'Management body responsibility',
      requirement:
        'The management body defines, approves, oversees and is responsible for the ICT risk management framework, and keeps its ICT knowledge up to date.',
      names: ['governance', 'roles and responsibilities'],
      cues: [/\b(board|management body)\b[^.\n]{0,80}\b(approv\w*|oversee\w*|responsib\w*)\b/i],
    },
    {
      ref: 'Art. 6',
      label: 'ICT risk management framework',
      requirement:
        'A documented ICT risk management framework, reviewed at least once a year and after major ICT incidents (Art. 6(5)).',
      names: ['ict risk management', 'risk management framework'],
      cues: [
        /\b(ict|technology|information) risk\b/i,
        /\breview\w*\b[^.\n]{0,60}\b(annually|once a year|every year|at least yearly)\b/i,
      ],
    },
    {
      ref: 'Art. 8',
      label: 'Identifying ICT assets and risks',
      requirement:
        'Identify, classify and document ICT-supported business functions, information assets and ICT assets, and their dependencies.',
      names: ['asset management', 'identification'],
      cues: [/\basset (inventory|register|management)\b|\binventory\b/i],
    },
    {
      ref: 'Art. 9',
      label: 'Protection and prevention',
      requirement:
        'ICT security policies, procedures and tools: access control, strong authentication, encryption, patching, change management.',
      names: ['protection and prevention', 'security controls'],
      cues: [/\baccess control\b/i, /\b(encrypt\w*|authenticat\w*|patch\w*|change management)\b/i],
      minCues: 2,
    },
    {
      ref: 'Art. 10',
      label: 'Detection',
      requirement:
        'Mechanisms to promptly detect anomalous activities and ICT network performance issues.',
      names: ['detection', 'monitoring'],
      cues: [/\b(detect\w*|monitor\w*|anomal\w*)\b/i],
    },
    {
      ref: 'Arts. 11–12',
      label: 'Response, recovery and backups',
      requirement:
        'An ICT business continuity policy with response and recovery plans, tested; backup policies and restoration and recovery procedures.',
      names: ['business continuity', 'disaster recovery', 'backups'],
      cues: [/\b(business continuity|disaster recovery|recovery plan)\b/i, /\bback-?ups?\b/i],
    },
    {
      ref: 'Art. 13(6)',
      label: 'ICT security awareness and training',
      requirement:
        'ICT security awareness programmes and digital operational resilience training for all staff, including the management body.',
      names: ['training', 'awareness'],
      cues: [/\b(training|awareness)\b/i],
    },
    {
      ref: 'Art. 17',
      label: 'ICT incident management process',
      requirement:
        'A process to detect, manage, record and notify ICT-related incidents, with roles and escalation.',
      names: ['incident management', 'incident response'],
      cues: [
        /\bincident (management|response|handling)\b/i,
        /\b(record|log)\w*\b[^.\n]{0,40}\bincidents?\b/i,
      ],
    },
    {
      ref: 'Arts. 18–19',
      label: 'Classifying and reporting major ICT incidents',
      requirement:
        'Classify ICT-related incidents by the Art. 18 criteria and report major ones to the competent authority: initial, intermediate and final reports.',
      names: ['incident reporting', 'incident classification'],
      cues: [
        /\b(major|significant) (ict[- ]related )?incidents?\b/i,
        /\b(competent authority|regulator)\b/i,
        /\bclassif\w*\b/i,
      ],
      minCues: 2,
    },
    {
      ref: 'Arts. 24–25',
      label: 'Digital operational resilience testing',
      requirement:
        'A risk-based testing programme (vulnerability assessments, scans, scenario and penetration tests), with critical systems tested at least yearly.',
      names: ['testing', 'resilience testing'],
      cues: [
        /\b(penetration|resilience|scenario)[- ]test\w*\b|\bvulnerability (assessment|scan)\w*\b/i,
      ],
    },
    {
      ref: 'Art. 28',
      label: 'ICT third-party risk and the register of information',
      requirement:
        'A strategy on ICT third-party risk, a register of information on all contractual arrangements with ICT third-party service providers (Art. 28(3)), and exit strategies (Art. 28(8)).',
      names: ['third-party risk', 'outsourcing', 'suppliers'],
      cues: [
        /\b(third[- ]party|outsourc\w*|service providers?|suppliers?)\b/i,
        /\bregister of information\b/i,
        /\bexit (strateg\w*|plans?)\b/i,
      ],
      minCues: 2,
    },
    {
      ref: 'Art. 30',
      label: 'Key contractual provisions',
      requirement:
        'Contracts with ICT third-party providers contain the Art. 30 terms: service descriptions, data location, access and audit rights, termination rights, and more for critical or important functions.',
      names: ['contracts'],
      cues: [/\b(contract\w*)\b[^.\n]{0,80}\b(audit|access|termination|exit|location)\b/i],
    },
  ],
};
