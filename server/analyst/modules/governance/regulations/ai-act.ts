import type { Regulation } from './types';

export const AI_ACT: Regulation = {
  id: 'ai-act',
  name: 'EU AI Act',
  citation: 'Regulation (EU) 2024/1689',
  aliases: /\b(ai act|artificial intelligence act|2024\/1689)\b/i,
  scope:
    'Providers and deployers of AI systems used in the EU; prohibitions and AI literacy apply from 2 February 2025, most other rules from 2 August 2026 (Art. 113).',
  obligations: [
    {
      ref: 'Art. 4',
      label: 'AI literacy',
      requirement:
        'Providers and deployers take measures to ensure a sufficient level of AI literacy of their staff and others operating AI systems on their behalf.',
      names: ['ai literacy', 'training'],
      cues: [/\b(ai literacy|training)\b/i],
    },
    {
      ref: 'Art. 5',
      label: 'Prohibited practices',
      requirement:
        'No prohibited AI practices: for example manipulative techniques, social scoring, emotion recognition in the workplace or education (except for medical or safety reasons), untargeted scraping of facial images.',
      names: ['prohibited uses', 'prohibited practices', 'what you must not do'],
      cues: [
        /\b(prohibited|banned|not permitted)\b[^.\n]{0,80}\b(ai|uses?|practices?)\b/i,
        /\b(emotion recognition|social scoring)\b/i,
      ],
    },
    {
      ref: 'Art. 6 and Annex III',
      label: 'Identifying high-risk uses',
      requirement:
        'Identify high-risk uses, including AI in recruitment, promotion, termination, task allocation and monitoring of workers (Annex III, point 4), and creditworthiness (point 5(b)).',
      names: ['risk classification', 'high-risk ai', 'risk tiers'],
      cues: [/\bhigh[- ]risk\b/i, /\b(risk (tier|classification|categor\w*)|classif\w+)\b/i],
    },
    {
      ref: 'Art. 26(1)–(2)',
      label: 'Deployer use and human oversight',
      requirement:
        "Deployers of high-risk systems use them according to the provider's instructions and assign human oversight to people with the competence, training and authority to do it.",
      names: ['human oversight'],
      cues: [/\bhuman (oversight|review|in the loop)\b/i, /\binstructions (for|of) use\b/i],
    },
    {
      ref: 'Art. 26(5)',
      label: 'Monitoring the system',
      requirement:
        'Monitor the operation of high-risk systems and, on a serious incident or risk, inform the provider and the authorities and suspend use.',
      names: ['monitoring'],
      cues: [/\bmonitor\w*\b/i, /\b(serious )?incidents?\b/i],
      minCues: 2,
    },
    {
      ref: 'Art. 26(6)',
      label: 'Keeping logs',
      requirement:
        "Keep the logs a high-risk system generates, under the deployer's control, for at least six months.",
      names: ['logs', 'record keeping'],
      cues: [/\blogs?\b[^.\n]{0,60}\b(six|6) months\b|\b(six|6) months\b[^.\n]{0,60}\blogs?\b/i],
    },
    {
      ref: 'Art. 26(7)',
      label: 'Informing workers',
      requirement:
        "Before using a high-risk system at the workplace, inform workers' representatives and the workers affected.",
      names: [],
      cues: [
        /\b(inform|tell|consult)\w*\b[^.\n]{0,60}\b(workers|employees|staff|works council|representatives)\b/i,
      ],
    },
    {
      ref: 'Art. 27',
      label: 'Fundamental rights impact assessment',
      requirement:
        'Public bodies, private bodies providing public services, and deployers of credit-scoring or life and health insurance pricing systems assess the impact on fundamental rights before first use.',
      names: ['fundamental rights impact assessment'],
      cues: [/\bfundamental rights\b/i],
    },
    {
      ref: 'Art. 50',
      label: 'Transparency to people',
      requirement:
        'People are told when they interact with an AI system, and deep fakes and AI-generated text published to inform the public on matters of public interest are disclosed as such.',
      names: ['transparency', 'disclosure'],
      cues: [
        /\b(disclos\w*|label\w*|tell|inform)\b[^.\n]{0,80}\b(ai|generated|chatbot)\b/i,
        /\bdeep ?fakes?\b/i,
      ],
    },
  ],
};
