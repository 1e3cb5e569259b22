import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { StructuredResponse } from '@contract/structured-response';
import { builtinAgent } from '../../providers/builtin';
import {
  attachment,
  chart,
  dataOf,
  fileOf,
  fixture,
  runTurn,
  texts,
  userMessage,
} from '../../../../test-support/analyst/turns';

/** Skills gap analysis of a skills matrix, checked against figures computed here from the raw file. */

const agent = builtinAgent();
const twoDecimals = (v: number) => Math.round(v * 100) / 100;

const csv = readFileSync(
  new URL('../../../../test-support/fixtures/skills-matrix.csv', import.meta.url),
  'utf8',
);

interface Row {
  role: string;
  skill: string;
  level: number;
  target: number;
}

/** The fixture's rows with a proficiency; target from the file, or a fixed one. */
function rowsOf(text: string, fixedTarget?: number): Row[] {
  return text
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(','))
    .filter((f) => f[3] !== '')
    .map((f) => ({
      role: f[1]!,
      skill: f[2]!,
      level: Number(f[3]),
      target: fixedTarget ?? Number(f[4]),
    }));
}

function expectedRanking(rows: Row[]) {
  const skills = [...new Set(rows.map((r) => r.skill))].map((skill) => {
    const list = rows.filter((r) => r.skill === skill);
    const gap = list.reduce((s, r) => s + Math.max(0, r.target - r.level), 0) / list.length;
    return { skill, gap, below: list.filter((r) => r.level < r.target).length };
  });
  return skills.sort(
    (a, b) => b.gap - a.gap || b.below - a.below || a.skill.localeCompare(b.skill),
  );
}

async function analyse(request: string, name: string, data: string) {
  const turn = await runTurn(agent, 'talent-intelligence', [
    userMessage(request, [attachment(name, data)]),
  ]);
  return StructuredResponse.parse(turn.report);
}

describe('skills gap analysis', () => {
  it('ranks skills by average gap to the required level and counts people below it', async () => {
    const report = await analyse('Map the skills gaps in my team', 'skills-matrix.csv', csv);
    const expected = expectedRanking(rowsOf(csv));
    expect(report.task_name).toBe('Skills gap analysis: skills-matrix.csv');

    const gaps = dataOf(chart(report.content, 'Average gap by skill'));
    expect(gaps.labels).toEqual(expected.map((s) => s.skill));
    expect(gaps.datasets[0]!.data).toEqual(expected.map((s) => twoDecimals(s.gap)));
    const below = dataOf(chart(report.content, 'People below target by skill'));
    expect(below.datasets[0]!.data).toEqual(expected.map((s) => s.below));

    // The row with no proficiency is shown as not assessed, not silently counted as 0.
    expect(texts(report.content)).toContain('Not assessed (shown, not counted as zero)');

    const md = fileOf(report.content, 'skills-gap-report.md')!.file_data;
    expect(md).toContain(`| 1 | ${expected[0]!.skill} |`);
    // Machine learning: nobody reaches the target, so the rule says hire (and nothing to redeploy).
    const ml = md.split('### Machine learning')[1]!.split('###')[0]!;
    expect(ml).toContain('**Hire**: only 0 of 3 people reach the target');
    expect(ml).not.toContain('**Redeploy**');
    // Python: the analysts are mostly one level short and the engineers are at target.
    const python = md.split('### Python')[1]!.split('###')[0]!;
    expect(python).toContain('**Train**: 2 of the 3 people below target are one level short');
    expect(python).toContain('**Redeploy**: Data Engineer has people at target');
    expect(python).not.toContain('**Hire**');
    expect(md).toMatch(
      /\| Product Manager \| 2 \| Machine learning \(2\), SQL \(0\.5\), Stakeholder management \(0\.5\) \|/,
    );
    expect(report.next_steps[0]?.step_description).toBe(
      'Agree an owner and a date to close the Machine learning gap',
    );
  });

  it('uses the stated default target of 3 when the file has no required level column', async () => {
    const noTarget = csv
      .trim()
      .split('\n')
      .map((l) => l.split(',').slice(0, 4).join(','))
      .join('\n');
    const report = await analyse('Help me with this', 'team.csv', noTarget);
    const expected = expectedRanking(rowsOf(csv, 3));
    const gaps = dataOf(chart(report.content, 'Average gap by skill'));
    expect(gaps.labels).toEqual(expected.map((s) => s.skill));
    expect(gaps.datasets[0]!.data).toEqual(expected.map((s) => twoDecimals(s.gap)));
    expect(texts(report.content)).toContain('a default target of 3 for every skill');
    expect(report.next_steps.map((s) => s.step_description)).toContain(
      'Add a Required Level column so each role is measured against the level it needs',
    );
  });

  it('reads a wide matrix with one column of 1–5 scores per skill', async () => {
    const lines = csv
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','));
    const people = [...new Set(lines.map((f) => f[0]!))];
    const skills = [...new Set(lines.map((f) => f[2]!))];
    const wide = [
      ['Employee', 'Role', ...skills].join(','),
      ...people.map((p) => {
        const own = lines.filter((f) => f[0] === p);
        return [p, own[0]![1], ...skills.map((k) => own.find((f) => f[2] === k)?.[3] ?? '')].join(
          ',',
        );
      }),
    ].join('\n');
    const report = await analyse('Where are our skills gaps?', 'wide.csv', wide);
    const expected = expectedRanking(rowsOf(csv, 3));
    expect(report.task_name).toBe('Skills gap analysis: wide.csv');
    const gaps = dataOf(chart(report.content, 'Average gap by skill'));
    expect(gaps.labels).toEqual(expected.map((s) => s.skill));
    expect(gaps.datasets[0]!.data).toEqual(expected.map((s) => twoDecimals(s.gap)));
    expect(dataOf(chart(report.content, 'People below target by skill')).datasets[0]!.data).toEqual(
      expected.map((s) => s.below),
    );
  });

  it('keeps analysing a workforce export as a workforce table', async () => {
    const turn = await runTurn(agent, 'talent-intelligence', [
      userMessage('Give me an overview', [fixture('workforce.csv')]),
    ]);
    const report = StructuredResponse.parse(turn.report);
    expect(fileOf(report.content, 'workforce-analysis.md')).toBeDefined();
    expect(fileOf(report.content, 'skills-gap-report.md')).toBeUndefined();
  });

  it('asks for a skills matrix, with a sample, when a reskilling request has no file', async () => {
    const turn = await runTurn(agent, 'talent-intelligence', [
      userMessage('Plan reskilling for a new data analytics capability'),
    ]);
    const report = StructuredResponse.parse(turn.report);
    expect(report.task_name).toBe('Reskilling plan: data needed');
    expect(fileOf(report.content, 'sample-skills-inventory.csv')!.file_data).toMatch(
      /^Employee,Role,Skill,Proficiency,Assessment Date\n/,
    );
  });

  it('says so when a skills request comes with a workforce table instead', async () => {
    const turn = await runTurn(agent, 'talent-intelligence', [
      userMessage('Where are our skills gaps?', [fixture('workforce.csv')]),
    ]);
    const report = StructuredResponse.parse(turn.report);
    expect(texts(report.content)).toContain('No skills matrix among the attachments');
    expect(report.task_name).toBe('Workforce analysis: workforce.csv');
    expect(fileOf(report.content, 'skills-gap-report.md')).toBeUndefined();
  });
});
