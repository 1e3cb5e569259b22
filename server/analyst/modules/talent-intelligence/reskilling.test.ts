import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { StructuredResponse } from '@contract/structured-response';
import { builtinAgent } from '../../providers/builtin';
import {
  attachment,
  chart,
  dataOf,
  fileOf,
  runTurn,
  texts,
  userMessage,
} from '../../../../test-support/analyst/turns';
import type { ReskillingPlan } from './reskilling';
import { talentIntelligenceAgent } from './talent-intelligence';
import { aiToolSet } from '../../tools/runner';

/** Reskilling plans over a skills inventory, checked against figures computed here from the raw file. */

const agent = builtinAgent();
const csv = readFileSync(
  new URL('../../../../test-support/fixtures/skills-matrix.csv', import.meta.url),
  'utf8',
);
const lines = csv
  .trim()
  .split('\n')
  .slice(1)
  .map((l) => l.split(','))
  .filter((f) => f[3] !== '');

/** Readiness of each person for `skills`: target = highest required level of the skill in the file. */
function expectedCandidates(skills: string[]) {
  const target = (s: string) =>
    Math.max(...lines.filter((f) => f[2] === s).map((f) => Number(f[4])));
  const total = skills.reduce((t, s) => t + target(s), 0);
  const people = [...new Set(lines.map((f) => f[0]!))];
  return people
    .map((p) => {
      const level = (s: string) => Number(lines.find((f) => f[0] === p && f[2] === s)?.[3] ?? 0);
      const short = skills.reduce((t, s) => t + Math.max(0, target(s) - level(s)), 0);
      const have = skills.reduce((t, s) => t + Math.min(target(s), level(s)), 0);
      return { person: p, short, readiness: Math.round((have / total) * 100) };
    })
    .sort(
      (a, b) => a.short - b.short || b.readiness - a.readiness || a.person.localeCompare(b.person),
    );
}

async function plan(request: string) {
  const turn = await runTurn(agent, 'talent-intelligence', [
    userMessage(request, [attachment('inventory.csv', csv)]),
  ]);
  return StructuredResponse.parse(turn.report);
}

describe('reskilling plan', () => {
  it('finds the capability of the template request, ranks candidates by readiness and sizes their training', async () => {
    // The starter's own text: the capability is named only as an example ("data analytics").
    const report = await plan(
      'Help me with: planning how to build a new capability (for example data analytics) from inside: identify adjacent skills in the current workforce, size the training effort and list candidates.',
    );
    expect(report.task_name).toBe('Reskilling plan: data analytics');
    const skills = ['SQL', 'Python', 'Data visualisation'];
    const expected = expectedCandidates(skills);
    const readiness = dataOf(chart(report.content, 'Readiness by person'));
    expect(readiness.labels).toEqual(expected.map((c) => c.person));
    expect(readiness.datasets[0]!.data).toEqual(expected.map((c) => c.readiness));

    // Trainable: at most one level per capability skill short on average; they make the shortlist.
    const shortlist = expected.filter((c) => c.short <= skills.length);
    const levels = shortlist.reduce((t, c) => t + c.short, 0);
    const findings = texts(report.content);
    expect(findings).toContain(`**${levels}** levels, about **${levels * 40}** hours`);
    expect(findings).toContain(shortlist.map((c) => c.person).join(', '));

    // Machine learning rises with readiness among the people assessed in it: an adjacent skill.
    expect(findings).toMatch(/Adjacent skills .*\*\*Machine learning\*\* \(r = 0\.\d+\)/);
    const md = fileOf(report.content, 'reskilling-plan.md')!.file_data;
    expect(md).toContain('| 1 | Ana Ruiz | Data Analyst | 4 | 3 | 2 | 2 | 82 | trainable |');
    expect(md).toContain(
      '| Eli Novak | Product Manager | 2 | not assessed | not assessed | 9 | 18 | longer path |',
    );
    expect(report.next_steps[0]?.step_description).toBe(
      `Draft a training plan for ${shortlist
        .slice(0, 3)
        .map((c) => c.person)
        .join(', ')}`,
    );
  });

  it('takes the capability skills the request names, as the file spells them', async () => {
    const report = await plan(
      'Reskilling plan for machine learning: we need Python and Machine learning',
    );
    expect(report.task_name).toBe('Reskilling plan: machine learning');
    const expected = expectedCandidates(['Python', 'Machine learning']);
    expect(dataOf(chart(report.content, 'Readiness by person')).labels).toEqual(
      expected.map((c) => c.person),
    );
    expect(texts(report.content)).toContain(
      'Python, Machine learning (target levels Python 4, Machine learning 3',
    );
  });

  it('says what it needs when the request names no capability, and maps the gaps meanwhile', async () => {
    const report = await plan('Upskilling plan for the team');
    expect(report.task_name).toBe('Skills gap analysis: inventory.csv');
    expect(texts(report.content)).toContain("Name the capability's skills as the file spells them");
  });
});

describe('reskilling and skills gap as model tools', () => {
  const tools = aiToolSet(talentIntelligenceAgent.analystTools, [attachment('inventory.csv', csv)]);
  const call = (name: string, input: unknown) =>
    (tools[name]!.execute as (input: unknown, options: unknown) => Promise<unknown>)(input, {
      toolCallId: 't1',
      messages: [],
    });

  it('gives a model the same plan as the built-in report', async () => {
    const { plan } = (await call('ti_reskilling_plan', {
      capability: 'data analytics',
    })) as { plan: ReskillingPlan };
    const expected = expectedCandidates(['SQL', 'Python', 'Data visualisation']);
    expect(plan.candidates.map((c) => [c.employee, c.readiness])).toEqual(
      expected.map((c) => [c.person, c.readiness]),
    );
    expect(plan.adjacent.map((a) => a.skill)).toEqual(['Machine learning']);
    const gap = (await call('ti_skills_gap', {})) as {
      analysis: { skills: Array<{ skill: string }> };
    };
    expect(gap.analysis.skills[0]!.skill).toBe('Machine learning');
  });

  it('answers a capability the file cannot meet with the skills it has', async () => {
    expect(await call('ti_reskilling_plan', { capability: 'cybersecurity' })).toEqual({
      error:
        'None of the file\'s skills match "cybersecurity". Name the capability\'s skills as the file spells them: SQL, Python, Data visualisation, Stakeholder management, Machine learning.',
    });
  });
});
