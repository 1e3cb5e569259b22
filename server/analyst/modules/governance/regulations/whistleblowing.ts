import type { Regulation } from './types';

export const WHISTLEBLOWING: Regulation = {
  id: 'whistleblowing',
  name: 'EU Whistleblowing Directive',
  citation: 'Directive (EU) 2019/1937',
  aliases:
    /\b(whistle-?blow\w*\s+directive|eu whistle-?blow\w*|2019\/1937|directive on the protection of persons who report)\b/i,
  scope:
    'Private-sector employers with 50 or more workers must have internal reporting channels (Art. 8(3)); as transposed into national law.',
  obligations: [
    {
      ref: 'Art. 4',
      label: 'Who is protected',
      requirement:
        'Protection covers workers and also the self-employed, shareholders, volunteers, trainees, contractors and suppliers, former workers, job applicants, and facilitators and colleagues who help the reporter.',
      names: ['who can report', 'who this policy applies to', 'scope', 'who is protected'],
      cues: [
        /\b(former (employees|workers|staff)|job applicants?|candidates)\b/i,
        /\b(contractors?|suppliers?|volunteers?|trainees?|interns?|shareholders?)\b/i,
        /\bfacilitators?\b/i,
      ],
      minCues: 2,
    },
    {
      ref: 'Art. 8',
      label: 'Internal reporting channels',
      requirement:
        'Internal channels and procedures for reporting and follow-up, set up after consulting employee representatives where national law requires it; they may be run internally or by a third party (Art. 8(5)).',
      names: ['how to report', 'how to raise a concern', 'reporting channels', 'raising a concern'],
      cues: [
        /\b(hotline|speak-?up line|ethics line|reporting (channel|line|platform|portal|tool))\b/i,
        /\b(report|raise)\w* (a |your )?concerns? (to|with|through|via|by)\b/i,
        /\b(email|e-mail|web ?form|online form|phone|telephone)\b/i,
      ],
      minCues: 2,
    },
    {
      ref: 'Art. 9(1)(a)',
      label: 'Secure, confidential channels',
      requirement:
        "Channels designed and run securely, keeping the reporter's and any third party's identity confidential and closed to staff who are not authorised.",
      names: ['confidentiality', 'keeping your identity confidential'],
      cues: [
        /\bconfidential\w*\b/i,
        /\b(identity|name)\b[^.\n]{0,60}\b(protected|confidential|not (be )?(disclosed|shared|revealed))\b/i,
        /\b(authori[sz]ed|restricted|limited)\b[^.\n]{0,40}\b(access|staff|people|persons)\b/i,
      ],
      minCues: 2,
    },
    {
      ref: 'Art. 9(1)(b)',
      label: 'Acknowledgement within 7 days',
      requirement: 'Acknowledge receipt of a report to the reporter within seven days.',
      names: ['acknowledgement'],
      cues: [
        /\backnowledg\w*\b[^.\n]{0,80}\b(7|seven) (calendar |working )?days\b/i,
        /\b(7|seven) (calendar |working )?days\b[^.\n]{0,80}\backnowledg\w*/i,
      ],
    },
    {
      ref: 'Art. 9(1)(c)',
      label: 'Impartial person to follow up',
      requirement:
        'Designate an impartial person or department competent to follow up on reports and keep in contact with the reporter.',
      names: ['who handles reports', 'handling of reports', 'speak-up officer'],
      cues: [
        /\b(impartial|independent)\b/i,
        /\b(designated|appointed|nominated)\b[^.\n]{0,60}\b(officer|person|team|department|function)\b/i,
        /\b(whistleblowing|speak-?up|ethics|compliance) (officer|champion|lead|team|committee)\b/i,
      ],
    },
    {
      ref: 'Art. 9(1)(d)',
      label: 'Diligent follow-up',
      requirement: 'Follow up each report diligently (investigate and act on it).',
      names: ['investigation', 'what happens next', 'follow-up', 'follow up'],
      cues: [
        /\binvestigat\w*\b/i,
        /\b(follow(ed)?[- ]up|assess\w*) (on |of )?(the |each |every )?(report|concern)s?\b/i,
      ],
    },
    {
      ref: 'Art. 9(1)(e)',
      label: 'Anonymous reports',
      requirement:
        'Follow up anonymous reports diligently where national law provides for them (Art. 6(2) leaves acceptance of anonymous reports to national law).',
      names: ['anonymous reporting', 'anonymous reports', 'anonymity'],
      cues: [/\banonym\w*/i],
    },
    {
      ref: 'Art. 9(1)(f)',
      label: 'Feedback within 3 months',
      requirement:
        'Give the reporter feedback within a reasonable time, no more than three months from the acknowledgement (or from the end of the seven days after the report).',
      names: ['feedback'],
      cues: [
        /\b(feedback|update|inform\w*)\b[^.\n]{0,100}\b(3|three) months\b/i,
        /\b(3|three) months\b[^.\n]{0,100}\b(feedback|update|outcome)\b/i,
      ],
    },
    {
      ref: 'Art. 9(1)(g)',
      label: 'Information on external reporting',
      requirement:
        'Clear, easily accessible information on how to report externally to the competent authorities (and, where relevant, to EU institutions).',
      names: ['external reporting', 'reporting outside the company', 'reporting to a regulator'],
      cues: [
        /\b(competent|public|supervisory) authorit\w*/i,
        /\b(regulator|external(ly)? report\w*|report\w* externally|ombudsman)\b/i,
      ],
    },
    {
      ref: 'Art. 9(2)',
      label: 'Written and oral reports, and a meeting on request',
      requirement:
        'Reporting in writing or orally, or both; oral reporting by telephone or voice messaging and, on request, a physical meeting within a reasonable time.',
      names: ['ways to report'],
      cues: [
        /\b(in writing|written)\b[^.\n]{0,60}\b(orally|oral|verbally|by phone|telephone)\b/i,
        /\b(orally|oral|verbally|by phone|telephone)\b[^.\n]{0,60}\b(in writing|written)\b/i,
        /\b(in-person|in person|face[- ]to[- ]face|physical) meeting\b|\bmeet (you )?in person\b/i,
      ],
    },
    {
      ref: 'Art. 16',
      label: 'Duty of confidentiality',
      requirement:
        "The reporter's identity is not disclosed beyond the staff handling the report without their explicit consent, except where Union or national law requires it.",
      names: ['confidentiality'],
      cues: [
        /\b(explicit |written |prior )?consent\b[^.\n]{0,80}\b(identity|name)\b|\b(identity|name)\b[^.\n]{0,80}\bconsent\b/i,
      ],
    },
    {
      ref: 'Art. 17',
      label: 'Personal data under the GDPR',
      requirement:
        'Personal data in reports is processed under the GDPR; data not relevant to a report is not collected or, if collected by accident, deleted without undue delay.',
      names: ['data protection', 'personal data', 'privacy'],
      cues: [/\b(gdpr|data protection|personal data)\b/i],
    },
    {
      ref: 'Art. 18',
      label: 'Records of reports',
      requirement:
        'Keep records of every report received, in line with the confidentiality requirements, for no longer than necessary and proportionate; oral reports recorded with the reporter able to check and sign the record.',
      names: ['record keeping', 'records', 'recordkeeping'],
      cues: [
        /\b(record|log|register)\w*\b[^.\n]{0,60}\b(reports?|concerns?)\b/i,
        /\b(reports?|concerns?)\b[^.\n]{0,60}\b(recorded|logged|kept|retained)\b/i,
      ],
    },
    {
      ref: 'Art. 19',
      label: 'No retaliation',
      requirement:
        'Any form of retaliation is prohibited, including threats and attempts: dismissal, demotion, withheld promotion or training, negative appraisal, intimidation, blacklisting and the other forms listed.',
      names: ['no retaliation', 'protection from retaliation', 'non-retaliation', 'protection'],
      cues: [
        /\bretaliat\w*|\bvictimi[sz]\w*|\breprisals?\b/i,
        /\b(dismiss\w*|demot\w*|disciplin\w*|harass\w*|intimidat\w*)\b/i,
      ],
    },
    {
      ref: 'Art. 21',
      label: 'Protection measures',
      requirement:
        'Reporters are protected against retaliation; they incur no liability for reporting or for acquiring the information (unless that was itself an offence), and the burden of proof in proceedings shifts to the employer.',
      names: ['protection', 'your protection'],
      cues: [
        /\b(no|not be held|will not be held|without) (liab\w*|responsib\w*)\b/i,
        /\bprotect\w*\b[^.\n]{0,60}\b(reporter|whistleblower|you|anyone who)\b/i,
      ],
    },
  ],
};
