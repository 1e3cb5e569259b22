import type { Regulation } from './types';

export const NIS2: Regulation = {
  id: 'nis2',
  name: 'NIS2 Directive',
  citation: 'Directive (EU) 2022/2555',
  aliases: /\b(nis ?2|nis two|2022\/2555)\b/i,
  scope:
    'Essential and important entities in the sectors of Annexes I and II (generally medium-sized and larger), as transposed into national law from 18 October 2024.',
  obligations: [
    {
      ref: 'Art. 20',
      label: 'Management body approval, oversight and training',
      requirement:
        'The management body approves the cybersecurity risk-management measures, oversees their implementation and can be held liable; its members follow training (Art. 20(2)).',
      names: ['governance', 'roles and responsibilities', 'accountability'],
      cues: [
        /\b(board|management body|directors?|senior management)\b[^.\n]{0,80}\b(approv\w*|oversee\w*|oversight)\b/i,
        /\b(board|management body|directors?)\b[^.\n]{0,60}\btraining\b/i,
      ],
    },
    {
      ref: 'Art. 21(2)(a)',
      label: 'Risk analysis and information system security policies',
      requirement: 'Policies on risk analysis and information system security.',
      names: ['risk assessment', 'risk management'],
      cues: [/\brisk (analysis|assessment)s?\b/i],
    },
    {
      ref: 'Art. 21(2)(b)',
      label: 'Incident handling',
      requirement: 'Incident handling.',
      names: ['incident management', 'incident response', 'incident handling'],
      cues: [/\bincident (handling|response|management)\b/i],
    },
    {
      ref: 'Art. 21(2)(c)',
      label: 'Business continuity and crisis management',
      requirement:
        'Business continuity, such as backup management and disaster recovery, and crisis management.',
      names: ['business continuity', 'backups', 'disaster recovery'],
      cues: [/\b(business continuity|disaster recovery|crisis management)\b/i, /\bback-?ups?\b/i],
    },
    {
      ref: 'Art. 21(2)(d)',
      label: 'Supply chain security',
      requirement:
        'Supply chain security, including the security of relationships with direct suppliers and service providers.',
      names: ['supply chain security', 'suppliers', 'third parties'],
      cues: [/\b(supply chain|suppliers?|service providers?|third part(y|ies))\b/i],
    },
    {
      ref: 'Art. 21(2)(e)',
      label: 'Secure acquisition, development and vulnerability handling',
      requirement:
        'Security in network and information systems acquisition, development and maintenance, including vulnerability handling and disclosure.',
      names: ['vulnerability management', 'secure development'],
      cues: [/\bvulnerabilit\w*/i, /\b(patch\w*|secure development)\b/i],
    },
    {
      ref: 'Art. 21(2)(f)',
      label: 'Assessing effectiveness',
      requirement:
        'Policies and procedures to assess the effectiveness of the cybersecurity risk-management measures.',
      names: ['testing', 'audit', 'effectiveness'],
      cues: [/\b(effectiveness|penetration test\w*|audit\w*)\b/i],
    },
    {
      ref: 'Art. 21(2)(g)',
      label: 'Cyber hygiene and training',
      requirement: 'Basic cyber hygiene practices and cybersecurity training.',
      names: ['training', 'awareness'],
      cues: [/\b(training|awareness|cyber hygiene)\b/i],
    },
    {
      ref: 'Art. 21(2)(h)',
      label: 'Cryptography and encryption',
      requirement:
        'Policies and procedures on the use of cryptography and, where appropriate, encryption.',
      names: ['encryption', 'cryptography'],
      cues: [/\b(encrypt\w*|cryptograph\w*)\b/i],
    },
    {
      ref: 'Art. 21(2)(i)',
      label: 'HR security, access control and asset management',
      requirement: 'Human resources security, access control policies and asset management.',
      names: ['access control', 'asset management'],
      cues: [
        /\baccess (control|rights|management)\b/i,
        /\basset (management|inventory|register)\b/i,
      ],
    },
    {
      ref: 'Art. 21(2)(j)',
      label: 'Multi-factor authentication and secured communications',
      requirement:
        'Multi-factor or continuous authentication, secured voice, video and text communications and secured emergency communications, where appropriate.',
      names: ['authentication', 'multi-factor authentication'],
      cues: [/\b(multi-?factor|two-?factor|mfa|2fa)\b/i],
    },
    {
      ref: 'Art. 23(4)',
      label: 'Incident reporting: 24 hours, 72 hours, one month',
      requirement:
        'Report significant incidents to the CSIRT or competent authority: an early warning within 24 hours, an incident notification within 72 hours, a final report within one month of the notification.',
      names: ['incident reporting', 'reporting incidents'],
      cues: [/\b24 hours\b/i, /\b72 hours\b/i, /\b(csirt|competent authority|regulator)\b/i],
      minCues: 2,
    },
  ],
};
