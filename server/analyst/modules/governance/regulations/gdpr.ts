import type { Regulation } from './types';

export const GDPR: Regulation = {
  id: 'gdpr',
  name: 'GDPR',
  citation: 'Regulation (EU) 2016/679',
  aliases: /\b(gdpr|general data protection regulation|2016\/679)\b/i,
  scope: 'Any organisation processing personal data in the EU, or of people in the EU (Art. 3).',
  obligations: [
    {
      ref: 'Art. 5(1)',
      label: 'Processing principles',
      requirement:
        'Lawfulness, fairness and transparency; purpose limitation; data minimisation; accuracy; storage limitation; integrity and confidentiality.',
      names: ['principles', 'data protection principles'],
      cues: [
        /\bdata minimi[sz]ation|\bminimum (personal )?data\b/i,
        /\bpurpose limitation|\b(specified|explicit) purposes?\b/i,
        /\bstorage limitation|\bno longer than (is )?necessary\b/i,
        /\baccura(te|cy)\b/i,
      ],
      minCues: 2,
    },
    {
      ref: 'Art. 5(2)',
      label: 'Accountability',
      requirement: 'The controller is responsible for, and able to demonstrate, compliance.',
      names: ['accountability'],
      cues: [/\baccountab\w*/i, /\bdemonstrat\w* compliance\b/i],
    },
    {
      ref: 'Art. 6',
      label: 'Lawful basis',
      requirement:
        'Each processing has a lawful basis: consent, contract, legal obligation, vital interests, public task or legitimate interests.',
      names: ['lawful basis', 'legal basis'],
      cues: [/\b(lawful|legal) basis\b/i, /\blegitimate interests?\b/i],
    },
    {
      ref: 'Art. 9',
      label: 'Special category data',
      requirement:
        'Health, ethnic origin, religious beliefs, trade union membership, biometric and other special category data is processed only under an Art. 9(2) condition.',
      names: ['special category data', 'sensitive data'],
      cues: [/\bspecial categor\w*|\bsensitive (personal )?data\b/i, /\b(health|biometric)\b/i],
    },
    {
      ref: 'Arts. 13–14',
      label: 'Information to individuals',
      requirement:
        'Tell people, when data is collected (or within a month if obtained elsewhere), who the controller is, the purposes and basis, recipients, retention and their rights.',
      names: ['privacy notice', 'transparency', 'information we give you'],
      cues: [
        /\bprivacy (notice|policy|statement)\b/i,
        /\b(inform|tell)\w* (individuals|people|data subjects|employees|you)\b/i,
      ],
    },
    {
      ref: 'Arts. 15–22',
      label: 'Data subject rights',
      requirement:
        'Access, rectification, erasure, restriction, portability, objection and rights on automated decisions, answered within one month (extendable by two months, Art. 12(3)).',
      names: ['your rights', 'data subject rights', 'individual rights', 'subject access requests'],
      cues: [
        /\b(subject access|right of access|right to access)\b/i,
        /\b(erasure|right to be forgotten|rectification|portability)\b/i,
        /\b(one|1) month\b/i,
      ],
      minCues: 2,
    },
    {
      ref: 'Art. 25',
      label: 'Data protection by design and by default',
      requirement:
        'Build data protection into systems and processes; by default process only the data needed.',
      names: ['privacy by design', 'data protection by design'],
      cues: [/\bby design\b/i, /\bby default\b/i],
    },
    {
      ref: 'Art. 28',
      label: 'Processors under contract',
      requirement:
        'Use only processors giving sufficient guarantees, under a written contract with the Art. 28(3) terms.',
      names: ['processors', 'third parties', 'suppliers'],
      cues: [/\b(data )?processors?\b/i, /\b(data processing|processing) agreements?\b|\bdpa\b/i],
    },
    {
      ref: 'Art. 30',
      label: 'Records of processing activities',
      requirement: 'Keep a written record of processing activities.',
      names: ['records of processing', 'record of processing activities', 'ropa'],
      cues: [/\brecords? of processing\b|\bropa\b/i],
    },
    {
      ref: 'Art. 32',
      label: 'Security of processing',
      requirement:
        'Appropriate technical and organisational measures: for example encryption or pseudonymisation, confidentiality, resilience, restoring access, regular testing.',
      names: ['security', 'information security', 'keeping data secure'],
      cues: [
        /\b(encrypt\w*|pseudonymi[sz]\w*)\b/i,
        /\btechnical and organi[sz]ational measures\b/i,
        /\baccess controls?\b/i,
      ],
    },
    {
      ref: 'Art. 33',
      label: 'Breach notification within 72 hours',
      requirement:
        'Notify the supervisory authority of a personal data breach within 72 hours of becoming aware, unless unlikely to result in a risk; document every breach (Art. 33(5)).',
      names: ['data breaches', 'breach notification', 'personal data breaches'],
      cues: [/\b72 hours\b/i, /\b(supervisory authority|ico|regulator)\b/i],
    },
    {
      ref: 'Art. 34',
      label: 'Telling individuals of a high-risk breach',
      requirement:
        'Tell the people affected without undue delay when a breach is likely to result in a high risk to them.',
      names: [],
      cues: [/\b(inform|notify|tell)\w*\b[^.\n]{0,60}\b(affected|individuals|data subjects)\b/i],
    },
    {
      ref: 'Art. 35',
      label: 'Data protection impact assessments',
      requirement: 'Assess processing likely to result in a high risk before it starts (DPIA).',
      names: ['dpia', 'data protection impact assessment', 'impact assessments'],
      cues: [/\bdpias?\b|\bimpact assessments?\b/i],
    },
    {
      ref: 'Arts. 37–39',
      label: 'Data Protection Officer',
      requirement:
        'Appoint a DPO where Art. 37(1) requires it (public bodies, large-scale monitoring or special category data) and publish the contact details.',
      names: ['data protection officer', 'dpo', 'contact us'],
      cues: [/\bdata protection officer\b|\bdpo\b/i],
    },
    {
      ref: 'Arts. 44–49',
      label: 'International transfers',
      requirement:
        'Transfers outside the EEA only under an adequacy decision or appropriate safeguards such as standard contractual clauses (Art. 46).',
      names: ['international transfers', 'transfers outside the eea'],
      cues: [
        /\b(international|overseas|cross-border) transfers?\b|\boutside (the )?(eea|eu|uk)\b/i,
        /\bstandard contractual clauses\b|\badequacy\b/i,
      ],
    },
  ],
};
