import type { ModuleKey } from '@contract/modules';

/** Module taglines, descriptions and icon accents: the landing page and the dashboard cards. */
export const MODULE_COPY: Record<
  ModuleKey,
  { tagline: string; description: string; accent: string }
> = {
  'brand-hub': {
    tagline: 'Voice, campaigns and content',
    description:
      'Review copy against your brand voice, shape campaign ideas and turn briefs into on-brand deliverables your team can reuse.',
    accent: 'from-fuchsia-500/15 to-violet-500/5 text-fuchsia-600 dark:text-fuchsia-400',
  },
  governance: {
    tagline: 'Policy, risk and compliance',
    description:
      'Check policies and documents against governance checklists, surface gaps and draft clear remediation notes.',
    accent: 'from-indigo-500/15 to-sky-500/5 text-indigo-600 dark:text-indigo-400',
  },
  'talent-intelligence': {
    tagline: 'Performance and reports',
    description:
      'Profile workforce data from spreadsheets, benchmark performance and produce shareable reports with charts.',
    accent: 'from-emerald-500/15 to-teal-500/5 text-emerald-600 dark:text-emerald-400',
  },
};
