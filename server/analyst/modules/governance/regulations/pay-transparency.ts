import type { Regulation } from './types';

export const PAY_TRANSPARENCY: Regulation = {
  id: 'pay-transparency',
  name: 'EU Pay Transparency Directive',
  citation: 'Directive (EU) 2023/970',
  aliases: /\b(pay transparency( directive)?|2023\/970)\b/i,
  scope:
    'All employers in the EU, as transposed by 7 June 2026 (Art. 34); gender pay gap reporting by size: 250+ workers yearly and 150–249 every three years from 7 June 2027, 100–149 every three years from 7 June 2031 (Art. 9).',
  obligations: [
    {
      ref: 'Art. 4',
      label: 'Equal pay for equal work or work of equal value',
      requirement:
        'Pay structures that ensure equal pay for equal work or work of equal value, with work valued on objective, gender-neutral criteria (skills, effort, responsibility, working conditions).',
      names: ['equal pay', 'job evaluation', 'pay structure'],
      cues: [
        /\b(equal pay|work of equal value)\b/i,
        /\b(gender[- ]neutral|objective) criteria\b|\bjob evaluation\b/i,
      ],
    },
    {
      ref: 'Art. 5(1)',
      label: 'Pay range before employment',
      requirement:
        'Applicants are told the initial pay or its range, based on objective gender-neutral criteria, in the vacancy notice or before the interview.',
      names: ['recruitment', 'job adverts', 'vacancies'],
      cues: [
        /\b(pay|salary) (range|band)s?\b[^.\n]{0,80}\b(advert|vacanc|job (posting|ad)|applicants?|candidates?|interview)\w*/i,
        /\b(advert|vacanc|job (posting|ad)|applicants?|candidates?)\w*\b[^.\n]{0,80}\b(pay|salary) (range|band)s?\b/i,
      ],
    },
    {
      ref: 'Art. 5(2)',
      label: 'No questions on pay history',
      requirement:
        'Employers do not ask applicants about their pay history in current or previous jobs.',
      names: [],
      cues: [/\b(pay|salary) history\b|\b(current|previous|past) (pay|salary)\b/i],
    },
    {
      ref: 'Art. 6',
      label: 'Pay-setting and progression criteria',
      requirement:
        'Workers can easily see the criteria used to set their pay, pay levels and pay progression (progression criteria may be exempted for employers under 50 workers).',
      names: ['pay progression', 'how pay is set', 'pay setting'],
      cues: [
        /\b(pay|salary) progression\b|\bprogression criteria\b/i,
        /\bcriteria\b[^.\n]{0,60}\b(pay|salary)\b/i,
      ],
    },
    {
      ref: 'Art. 7',
      label: 'Right to pay information',
      requirement:
        'Workers may request their individual pay level and the average pay levels, by sex, for workers doing the same work or work of equal value; answered within two months (Art. 7(4)), workers told of this right every year (Art. 7(3)); no clauses stopping workers disclosing their pay (Art. 7(5)).',
      names: ['right to information', 'pay information'],
      cues: [
        /\b(request|ask for)\b[^.\n]{0,80}\b(average pay|pay levels?)\b/i,
        /\b(two|2) months\b/i,
        /\b(disclos\w*|discuss\w*)\b[^.\n]{0,40}\b(their|your) (own )?(pay|salary)\b/i,
      ],
    },
    {
      ref: 'Art. 9',
      label: 'Gender pay gap reporting',
      requirement:
        'Employers with 100 or more workers report the gender pay gap indicators of Art. 9(1) (mean and median gaps, bonus gaps, proportions receiving bonuses, quartile bands, gaps by category of workers).',
      names: ['gender pay gap reporting', 'pay gap reporting', 'reporting'],
      cues: [/\b(gender )?pay gap\b/i, /\b(median|quartile)\b/i],
    },
    {
      ref: 'Art. 10',
      label: 'Joint pay assessment',
      requirement:
        "Where reporting shows a gap of at least 5% in any category of workers that objective, gender-neutral criteria do not justify and that is not remedied within six months, carry out a joint pay assessment with workers' representatives.",
      names: ['joint pay assessment'],
      cues: [/\bjoint pay assessment\b/i, /\b5 ?%|\bfive per ?cent\b/i],
    },
  ],
};
