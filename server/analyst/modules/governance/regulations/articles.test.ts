import { describe, expect, it } from 'vitest';
import { REGULATIONS } from '.';

/**
 * The articles the regulations are held with (ADR 0064): well-known provisions pinned to their
 * article numbers and what they say, checked against the official texts (EUR-Lex for the EU acts,
 * legislation.gov.uk and the Ministry of Justice guidance for the Bribery Act).
 */

function obligation(id: string, ref: string) {
  const reg = REGULATIONS.find((r) => r.id === id);
  const found = reg?.obligations.find((o) => o.ref === ref);
  if (!found) throw new Error(`${id} holds no obligation ${ref}`);
  return `${found.label}: ${found.requirement}`;
}

describe('regulations are held with the right article numbers', () => {
  it('GDPR (Regulation (EU) 2016/679)', () => {
    expect(obligation('gdpr', 'Art. 33')).toMatch(/supervisory authority.*72 hours/);
    expect(obligation('gdpr', 'Art. 34')).toMatch(/individuals|data subjects/i);
    expect(obligation('gdpr', 'Art. 30')).toMatch(/record of processing activities/);
    expect(obligation('gdpr', 'Art. 35')).toMatch(/DPIA/);
    expect(obligation('gdpr', 'Art. 28')).toMatch(/Processors/);
  });

  it('EU Whistleblowing Directive (Directive (EU) 2019/1937)', () => {
    expect(obligation('whistleblowing', 'Art. 9(1)(b)')).toMatch(/within seven days/);
    expect(obligation('whistleblowing', 'Art. 9(1)(f)')).toMatch(/three months/);
    expect(obligation('whistleblowing', 'Art. 8')).toMatch(/Internal reporting channels/);
    expect(obligation('whistleblowing', 'Art. 18')).toMatch(/Records/);
    expect(obligation('whistleblowing', 'Art. 19')).toMatch(/retaliation/i);
    expect(REGULATIONS.find((r) => r.id === 'whistleblowing')!.scope).toMatch(
      /50 or more workers.*Art\. 8\(3\)/,
    );
  });

  it('EU Pay Transparency Directive (Directive (EU) 2023/970)', () => {
    expect(obligation('pay-transparency', 'Art. 9')).toMatch(/Gender pay gap reporting/);
    expect(obligation('pay-transparency', 'Art. 5(2)')).toMatch(/pay history/);
    expect(obligation('pay-transparency', 'Art. 7')).toMatch(/pay information/);
    expect(obligation('pay-transparency', 'Art. 10')).toMatch(/Joint pay assessment/);
  });

  it('EU AI Act (Regulation (EU) 2024/1689)', () => {
    expect(obligation('ai-act', 'Art. 4')).toMatch(/AI literacy/);
    expect(obligation('ai-act', 'Art. 5')).toMatch(/Prohibited/);
    expect(obligation('ai-act', 'Art. 26(6)')).toMatch(/logs.*six months/);
    expect(obligation('ai-act', 'Art. 26(7)')).toMatch(/workers/i);
    expect(obligation('ai-act', 'Art. 27')).toMatch(/Fundamental rights impact assessment/);
    expect(obligation('ai-act', 'Art. 50')).toMatch(/Transparency/);
  });

  it('NIS2 (Directive (EU) 2022/2555) and DORA (Regulation (EU) 2022/2554)', () => {
    expect(obligation('nis2', 'Art. 23(4)')).toMatch(/24 hours.*72 hours.*one month/);
    expect(obligation('nis2', 'Art. 21(2)(j)')).toMatch(/Multi-factor authentication/);
    expect(obligation('nis2', 'Art. 20')).toMatch(/Management body/);
    expect(obligation('dora', 'Art. 28')).toMatch(/register of information/);
    expect(obligation('dora', 'Art. 30')).toMatch(/contractual provisions/);
    expect(obligation('dora', 'Arts. 18–19')).toMatch(/major ICT incidents/);
  });

  it('UK Bribery Act 2010: s.7, and the six principles of the s.9 guidance in their order', () => {
    const bribery = REGULATIONS.find((r) => r.id === 'bribery-act')!;
    expect(bribery.citation).toMatch(/s\.7.*s\.9/);
    expect(bribery.scope).toMatch(/s\.7\(2\)/);
    expect(obligation('bribery-act', 's.1, s.2, s.6')).toMatch(/foreign public official \(s\.6\)/);
    expect(
      [1, 2, 3, 4, 5, 6].map((n) => obligation('bribery-act', `MoJ Principle ${n}`).split(':')[0]),
    ).toEqual([
      'Proportionate procedures',
      'Top-level commitment',
      'Risk assessment',
      'Due diligence',
      'Communication and training',
      'Monitoring and review',
    ]);
  });

  it('cites each provision once per regulation (guidance topics aside)', () => {
    for (const r of REGULATIONS) {
      const refs = r.obligations.map((o) => o.ref).filter((ref) => ref !== 'MoJ guidance');
      expect(new Set(refs).size).toBe(refs.length);
    }
  });
});
