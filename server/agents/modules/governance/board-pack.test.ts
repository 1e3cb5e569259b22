import { describe, expect, it } from 'vitest';
import { StructuredResponse } from '@contract/structured-response';
import { builtinAgent } from '../../providers/builtin';
import { fileOf, fixture, runTurn, texts, userMessage } from '../../test-helpers';

/**
 * Board packs and minutes. The expected gaps come from how the fixtures were written
 * (generate-fixtures.ts): the acceptable use policy PDF lacks definitions, exceptions, review cycle,
 * owner and approval and related documents, and mentions data protection without a section.
 */

const agent = builtinAgent();
const sectionOf = (md: string, heading: string) =>
  md.split(`## ${heading}\n`)[1]!.split('\n## ')[0]!;
const tableRows = (section: string) =>
  section
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| ---'))
    .slice(1)
    .map((l) =>
      l
        .slice(2, -2)
        .split(' | ')
        .map((c) => c.trim()),
    );

const PDF_MISSING = [
  'Definitions',
  'Exceptions',
  'Review cycle',
  'Owner and approval',
  'Related documents',
];

/** The stated rule: impact 4 for enforcement or data protection, else 3; likelihood 3 missing, 2 mentioned. */
function expectedRisk(item: string, missing: boolean) {
  const impact = item === 'Data protection' || item === 'Compliance and enforcement' ? 4 : 3;
  const likelihood = missing ? 3 : 2;
  const score = impact * likelihood;
  return {
    impact,
    likelihood,
    score,
    rating: score >= 15 ? 'High' : score >= 8 ? 'Medium' : 'Low',
  };
}

describe('governance board pack with a policy attached', async () => {
  const turn = await runTurn(agent, 'governance', [
    userMessage('Prepare the audit committee board pack', [fixture('policy.pdf')]),
  ]);
  const { report } = turn;
  const pack = fileOf(report.content, 'audit-committee-pack.md')!.file_data;

  it('keeps the coverage analysis and adds the pack', () => {
    expect(StructuredResponse.parse(report)).toEqual(report);
    expect(report.task_name).toBe('Audit Committee pack: Acceptable Use Policy');
    expect(texts(report.content)).toContain('**Coverage score: 50%**');
    expect(fileOf(report.content, 'acceptable-use-policy-missing-sections.md')).toBeDefined();
    expect(turn.thinking).toContain('Calling tool board_pack');
    for (const heading of [
      'Cover',
      'Agenda',
      'Decisions required',
      'Risk summary',
      'Compliance status',
      'Actions log',
    ])
      expect(pack).toContain(`\n## ${heading}\n`);
    expect(pack.startsWith('# Audit Committee pack\n')).toBe(true);
  });

  it('derives the risk summary from the coverage gaps with the stated scoring', () => {
    const rows = tableRows(sectionOf(pack, 'Risk summary'));
    const expected = [
      ...PDF_MISSING.map((item) => ({ item, missing: true })),
      { item: 'Data protection', missing: false },
    ];
    expect(rows).toHaveLength(expected.length);
    for (const { item, missing } of expected) {
      const r = expectedRisk(item, missing);
      const row = rows.find((x) => x[0]!.includes(item.toLowerCase()))!;
      expect(row.slice(2, 6)).toEqual([
        String(r.impact),
        String(r.likelihood),
        String(r.score),
        r.rating,
      ]);
    }
    // Highest score first.
    const scores = rows.map((r) => Number(r[4]));
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(texts(report.content)).toContain(
      `Its risk summary lists ${expected.length} risks from the gaps found above (0 high, ${expected.length} medium, 0 low)`,
    );
  });

  it('gives the compliance status and one action per missing section', () => {
    expect(tableRows(sectionOf(pack, 'Compliance status'))).toEqual([
      ['Acceptable Use Policy', '50%', 'Amber', PDF_MISSING.join(', ')],
    ]);
    const actions = tableRows(sectionOf(pack, 'Actions log'));
    expect(actions.map((a) => a[1])).toEqual([
      ...PDF_MISSING.map((s) => `Add the ${s.toLowerCase()} section to the Acceptable Use Policy`),
      '[Action agreed at the meeting]',
    ]);
    expect(sectionOf(pack, 'Decisions required')).toContain(
      `Approve an update of the Acceptable Use Policy to add: ${PDF_MISSING.map((s) => s.toLowerCase()).join(', ')}`,
    );
  });
});

describe('governance minutes and board packs without documents', () => {
  it('drafts a minutes template with an action tracker for a board meeting', async () => {
    const { report } = await runTurn(agent, 'governance', [
      userMessage('Turn my notes into board minutes and an action log'),
    ]);
    expect(StructuredResponse.parse(report)).toEqual(report);
    expect(report.task_name).toBe('Board minutes and action log');
    const minutes = fileOf(report.content, 'board-minutes.md')!.file_data;
    expect(minutes).toContain('# Minutes of the Board meeting');
    expect(minutes).toContain('| # | Minute | Action | Owner | Due date | Status | Update |');
    expect(minutes).toContain('## Items carried over from the last meeting');
    const pack = fileOf(report.content, 'board-pack.md')!.file_data;
    // Nothing was reviewed, so the risk summary holds placeholders rather than invented risks.
    expect(tableRows(sectionOf(pack, 'Risk summary'))).toEqual([
      ['[risk]', '[source]', '[1-5]', '[1-5]', '[score]', '[rating]', '[owner]', '[mitigation]'],
    ]);
    // The policy checklist and template are not what a board meeting needs.
    expect(texts(report.content)).not.toContain('To check a policy I need the document itself');
    expect(report.next_steps.map((s) => s.step_description)).toContain(
      'Attach the policies or the risk register to seed the risk summary and compliance status',
    );
  });

  it('keeps the plain policy gap check unchanged', async () => {
    const { report } = await runTurn(agent, 'governance', [
      userMessage('Check this policy for gaps', [fixture('policy.pdf')]),
    ]);
    expect(report.task_name).toBe('Policy gap check: Acceptable Use Policy');
    expect(fileOf(report.content, 'board-pack.md')).toBeUndefined();
  });
});
